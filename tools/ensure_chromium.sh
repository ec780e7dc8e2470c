#!/usr/bin/env bash
# Install Debian's headless Chromium (/usr/bin/chromium) for the live browser tests, if it is missing.
# Never downloads a browser build of its own (no `playwright install`); Playwright's Python package drives
# this binary through executable_path (tests/differential/chromium/browser.py).
#
# Idempotent: does nothing (but print the version) when /usr/bin/chromium already runs.
# Loud: when it cannot install, it says why on stderr and that the live tests will be SKIPPED (or FAIL when
# CI is set, see tests/differential/test_chromium_live.py). It always exits 0 so `make test` still runs the
# rest of the suite (the goldens comparison needs no browser).
set -u
BIN=/usr/bin/chromium

say() { echo "ensure_chromium: $*" >&2; }

works() {
  # Debian's wrapper script prints a harmless shell warning on some kernels; keep only the version line.
  "$BIN" --version 2>/dev/null | grep -m1 -i chromium
}

if [ -x "$BIN" ] && v=$(works); then
  say "ok: $v"
  exit 0
fi

if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  say "!!! $BIN is missing and cannot be installed here (needs root and apt-get)."
  say "!!! Install Debian's 'chromium' package yourself; until then the live browser tests are SKIPPED"
  say "!!! (they FAIL when CI is set). The recorded-goldens comparison still runs."
  exit 0
fi

say "installing Debian's chromium with apt-get ..."
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if apt-get update -qq >"$log" 2>&1 && apt-get install -y -qq chromium >>"$log" 2>&1 \
   && [ -x "$BIN" ] && v=$(works); then
  say "installed: $v"
else
  say "!!! apt-get install chromium FAILED; last lines of its output:"
  tail -n 15 "$log" >&2
  say "!!! the live browser tests will be SKIPPED (they FAIL when CI is set)."
fi
rm -f "$log"
exit 0
