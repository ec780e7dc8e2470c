"""Differential testing of mojifix's HTML sniffing against headless Chromium.

``cases`` generates the pages, ``server`` serves them with exact header bytes, ``browser`` drives
Debian's chromium through Playwright, ``compare`` applies the comparison rule. Measurements and
findings: ``docs/browser-measurements.md``.
"""
