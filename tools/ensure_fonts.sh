#!/usr/bin/env bash
# Install a CJK-capable font (Debian's fonts-noto-cjk) for the review page's browser test, if none is there.
# Headless Chromium draws Chinese, Japanese and Korean text from the system's fonts (fontconfig); without
# one, every ideograph is an empty box ("tofu") and the review page's readings cannot be told apart.
#
# Idempotent: does nothing (but print the font it found) when fontconfig already knows a font for Chinese.
# Loud: when it cannot install, it says why on stderr and that the CJK rendering test will be SKIPPED (or
# FAIL when CI is set, see tests/review/test_browser.py). It always exits 0 so `make test` still runs the
# rest of the suite.
set -u
PKG=fonts-noto-cjk

say() { echo "ensure_fonts: $*" >&2; }

found() {
  command -v fc-list >/dev/null 2>&1 && fc-list :lang=zh family 2>/dev/null | grep -m1 .
}

if f=$(found); then
  say "ok: CJK font present ($f)"
  exit 0
fi

if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  say "!!! no CJK font found and none can be installed here (needs root and apt-get)."
  say "!!! Install Debian's '$PKG' package yourself; until then the review page's CJK rendering test is"
  say "!!! SKIPPED (it FAILS when CI is set)."
  exit 0
fi

say "installing Debian's $PKG with apt-get ..."
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if apt-get update -qq >"$log" 2>&1 && apt-get install -y -qq --no-install-recommends "$PKG" fontconfig >>"$log" 2>&1 \
   && fc-cache -f >>"$log" 2>&1 && f=$(found); then
  say "installed: $f"
else
  say "!!! apt-get install $PKG FAILED; last lines of its output:"
  tail -n 15 "$log" >&2
  say "!!! the review page's CJK rendering test will be SKIPPED (it FAILS when CI is set)."
fi
rm -f "$log"
exit 0
