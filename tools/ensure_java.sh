#!/usr/bin/env bash
# Make sure a Java 17+ runtime is on PATH for the Spark tests (PySpark starts a JVM), installing Debian's
# headless OpenJDK 17 with apt-get when it is missing. PySpark itself comes from PyPI (the dev extra).
#
# Idempotent: prints the version and does nothing when `java` (17 or later) already runs.
# Loud: when it cannot install, it says why on stderr and that the Spark tests will be SKIPPED (or FAIL
# when CI is set, see tests/spark/sparkcheck.py). Exits 0 so `make test` still runs the rest of the suite.
set -u
PACKAGE=openjdk-17-jre-headless

say() { echo "ensure_java: $*" >&2; }

major() {
  # "openjdk version "17.0.15" 2025-04-15" -> 17
  java -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p' | head -n1
}

if command -v java >/dev/null 2>&1 && [ "$(major)" -ge 17 ] 2>/dev/null; then
  say "ok: $(java -version 2>&1 | head -n1)"
  exit 0
fi

if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  say "!!! Java 17+ is missing and cannot be installed here (needs root and apt-get)."
  say "!!! Install Debian's '$PACKAGE' yourself; until then the Spark tests are SKIPPED (they FAIL when CI is set)."
  exit 0
fi

say "installing Debian's $PACKAGE with apt-get ..."
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if apt-get update -qq >"$log" 2>&1 && apt-get install -y -qq "$PACKAGE" >>"$log" 2>&1 \
   && [ "$(major)" -ge 17 ] 2>/dev/null; then
  say "installed: $(java -version 2>&1 | head -n1)"
else
  say "!!! apt-get install $PACKAGE FAILED; last lines of its output:"
  tail -n 15 "$log" >&2
  say "!!! the Spark tests will be SKIPPED (they FAIL when CI is set)."
fi
rm -f "$log"
exit 0
