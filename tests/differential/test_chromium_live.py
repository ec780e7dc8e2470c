"""mojifix's ``decode_html`` against a *live* headless Chromium (Debian's ``/usr/bin/chromium``).

Runs a representative subset of the declared differential cases (every boundary, late-meta and XML case,
one declaration of each of the 40 encodings, every fourth case of the other groups; ``MOJIFIX_LIVE_ALL=1``
runs all of them) through the real browser over real HTTP, then checks:

- mojifix (``fallback="browser"``) equals the live browser on every declared case (encoding + DOM text),
  and on the undeclared pages where Chromium follows a rule rather than its detector (UTF-8 body → the
  TLD's default, ASCII → windows-1252);
- the live browser still agrees with the recorded goldens for those cases (a Chromium upgrade that
  changes behaviour shows up here; re-record with ``tools/record_chromium_goldens.py``).

Without chromium the test is skipped with a loud reason, except under CI (``CI`` set), where it fails:
CI installs the browser with ``tools/ensure_chromium.sh`` through ``make test``.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.differential.chromium import browser  # noqa: E402
from tests.differential.chromium import cases as C  # noqa: E402
from tests.differential.chromium.compare import compare, sha256_text  # noqa: E402

pytestmark = pytest.mark.browser

GOLDENS = Path(__file__).parent / "goldens" / "chromium.json"
#: Groups run in full (the browser-specific rules); ``encoding`` contributes every second case (one of
#: the two declarations of each of the 40 encodings); the other groups every fourth. About 120 cases:
#: half a minute on an idle machine, well under the 4-minute budget on a loaded one.
_FULL_GROUPS = frozenset({"boundary", "late", "xml"})
_STRIDE = {"encoding": 2}
_DEFAULT_STRIDE = 4


def _rule_undeclared(c: C.Case) -> bool:
    """Undeclared pages whose Chromium result is a rule (UTF-8 body → TLD default, ASCII → windows-1252)."""
    return not c.declared and ("-UTF-8-" in c.id or c.id.startswith("undeclared-ascii-"))


def live_cases() -> list[C.Case]:
    everything = [c for c in C.all_cases() if c.declared or _rule_undeclared(c)]
    if os.environ.get("MOJIFIX_LIVE_ALL"):
        return everything
    out: list[C.Case] = [c for c in everything if _rule_undeclared(c)]
    everything = [c for c in everything if c.declared]
    seen: dict[str, int] = {}
    for c in everything:
        n = seen.get(c.group, 0)
        seen[c.group] = n + 1
        if c.group in _FULL_GROUPS or n % _STRIDE.get(c.group, _DEFAULT_STRIDE) == 0:
            out.append(c)
    return out


LIVE = live_cases()


_MISSING = (
    f"!!! {browser.CHROMIUM} NOT FOUND: the live Chromium comparison did NOT run. "
    "Install it with `bash tools/ensure_chromium.sh` (Debian's chromium package)."
)


def test_chromium_is_installed() -> None:
    """Skips loudly without the browser; under CI (``CI`` set) a missing browser is a failure."""
    if browser.chromium_available():
        assert browser.chromium_version().lower().startswith("chromium")
        return
    if os.environ.get("CI"):
        pytest.fail(_MISSING + " (CI is set: failing instead of skipping)")
    pytest.skip(_MISSING)


@cache
def _goldens() -> dict[str, dict[str, object]]:
    return json.loads(GOLDENS.read_text(encoding="utf-8"))["cases"]


@cache
def _observations() -> dict[str, browser.Observation]:
    return browser.run_cases(LIVE)


@pytest.fixture(scope="module")
def observed() -> dict[str, browser.Observation]:
    if not browser.chromium_available():
        pytest.skip(_MISSING)
    return _observations()


def test_live_subset_is_representative() -> None:
    assert len(LIVE) >= 60
    assert {c.group for c in LIVE} >= {c.group for c in C.all_cases() if c.declared}


@pytest.mark.parametrize("case", LIVE, ids=[c.id for c in LIVE])
def test_mojifix_matches_live_chromium(case: C.Case, observed: dict[str, browser.Observation]) -> None:
    obs = observed[case.id]
    decode_html = importlib.import_module("mojifix.sniff").decode_html
    result = decode_html(
        case.body, case.content_type_values or None, url=f"http://{case.host}{case.path}", fallback="browser"
    )
    verdict = compare(case, result, obs.character_set, sha256_text(obs.dom_text))
    assert verdict.ok, f"{case.id}: {verdict.why} (mojifix source={getattr(result, 'source', '?')})"


@pytest.mark.parametrize("case", LIVE, ids=[c.id for c in LIVE])
def test_live_chromium_matches_goldens(case: C.Case, observed: dict[str, browser.Observation]) -> None:
    entry = _goldens()[case.id]
    obs = observed[case.id]
    assert obs.character_set == entry["characterSet"], "Chromium's behaviour changed: re-record the goldens"
    assert sha256_text(obs.dom_text) == entry["dom_text_sha256"], "Chromium's DOM text changed: re-record"
