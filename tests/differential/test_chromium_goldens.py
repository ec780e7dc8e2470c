"""mojifix's ``decode_html`` against headless Chromium's recorded behaviour (no browser needed).

The goldens (``tests/differential/goldens/chromium.json``) were recorded by
``tools/record_chromium_goldens.py`` from the cases in ``tests/differential/chromium/cases.py``.

- Declared cases (Chromium honoured a BOM, header, meta or XML declaration): with
  ``fallback="browser"``, mojifix must report Chromium's ``document.characterSet`` and give the same DOM
  text. Target 100%; documented exceptions live in ``chromium/compare.py``.
- Undeclared cases (Chromium ran its own detector): with the default ``fallback="detect"``, mojifix must
  give the page's *true* text (what its author wrote), which Chromium often does not.
- Undeclared pages whose Chromium result follows a rule rather than its detector (valid UTF-8 → the
  TLD's legacy default, pure ASCII → windows-1252): ``fallback="browser"`` must reproduce it.
- With the default fallback, ``browser_encoding`` must name what Chromium used (declared + rule cases).
- The suite checks itself too: the recordings agree with each case's expectation, and html5lib on the
  exact (encoding_rs) decode reproduces Chromium's DOM text, so a DOM-text comparison is meaningful.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.differential.chromium import cases as C  # noqa: E402
from tests.differential.chromium.browser import dom_text_of  # noqa: E402
from tests.differential.chromium.compare import (  # noqa: E402
    KNOWN_CHROMIUM_DECODER_BUGS,
    KNOWN_PARSER_DIFFERENCES,
    compare,
    reference_decode,
    sha256_text,
)

GOLDENS = Path(__file__).parent / "goldens" / "chromium.json"
RERECORD = "re-record: .venv/bin/python tools/record_chromium_goldens.py"


@cache
def goldens() -> dict[str, dict[str, object]]:
    return json.loads(GOLDENS.read_text(encoding="utf-8"))["cases"]


def golden(case: C.Case) -> dict[str, object]:
    entry = goldens().get(case.id)
    if entry is None:
        pytest.fail(f"no golden for case {case.id}; {RERECORD}")
    if entry["body_sha256"] != hashlib.sha256(case.body).hexdigest():
        pytest.fail(f"case {case.id} changed since the goldens were recorded; {RERECORD}")
    return entry


def decode_html() -> Callable[..., Any]:
    """``mojifix.sniff.decode_html``, imported at call time so a broken module fails tests, not collection."""
    return importlib.import_module("mojifix.sniff").decode_html


def content_type_arg(case: C.Case) -> list[str] | None:
    values = case.content_type_values
    return values or None


def url_of(case: C.Case) -> str:
    return f"http://{case.host}{case.path}"


DECLARED = [c for c in C.all_cases() if c.declared]
UNDECLARED = [c for c in C.all_cases() if not c.declared]
#: Undeclared cases whose Chromium result is a rule, not its detector's guess.
RULE_UNDECLARED = [c for c in UNDECLARED if "-UTF-8-" in c.id or c.id.startswith("undeclared-ascii-")]


def _ids(cases: list[C.Case]) -> list[str]:
    return [c.id for c in cases]


# --- the suite itself ---------------------------------------------------------------------------------


def test_suite_size_and_coverage() -> None:
    """At least 200 cases, all 40 encodings declared, undeclared pages in >= 12 languages."""
    all_cases = C.all_cases()
    assert len(all_cases) >= 200
    declared_encodings = {str(goldens()[c.id]["characterSet"]) for c in DECLARED if c.id in goldens()}
    assert len(declared_encodings) == 40, sorted(declared_encodings)
    undeclared_langs = {c.id.split("-")[1] for c in all_cases if c.group == "undeclared"}
    assert len(undeclared_langs) >= 12
    hosts = {c.host.rsplit(".", 1)[-1] for c in all_cases}
    assert {"jp", "ru", "cn", "tw", "kr", "gr", "tr", "il", "th", "vn", "pl", "ua"} <= hosts


def test_goldens_are_current() -> None:
    """Every case has a golden recorded from the same body bytes."""
    stale = [c.id for c in C.all_cases() if c.id not in goldens()]
    stale += [
        c.id
        for c in C.all_cases()
        if c.id in goldens() and goldens()[c.id]["body_sha256"] != hashlib.sha256(c.body).hexdigest()
    ]
    assert not stale, f"{len(stale)} stale/missing goldens, e.g. {stale[:5]}; {RERECORD}"


@pytest.mark.parametrize("case", DECLARED, ids=_ids(DECLARED))
def test_chromium_followed_the_declared_rule(case: C.Case) -> None:
    """The recording agrees with the case's expectation (guards the case classification itself)."""
    assert golden(case)["characterSet"] == case.expect


@pytest.mark.parametrize("case", DECLARED, ids=_ids(DECLARED))
def test_dom_extraction_reproduces_chromium(case: C.Case) -> None:
    """html5lib on the exact decode gives Chromium's DOM text, so the mojifix comparison is meaningful."""
    entry = golden(case)
    text = reference_decode(case.body, str(entry["characterSet"]))
    same = sha256_text(dom_text_of(text)) == entry["dom_text_sha256"]
    if case.id in KNOWN_PARSER_DIFFERENCES or case.id in KNOWN_CHROMIUM_DECODER_BUGS:
        assert not same, (
            f"{case.id} no longer differs: remove it from its KNOWN_* list in chromium/compare.py"
        )
    else:
        assert same, f"{case.id}: html5lib's DOM text of the exact decode differs from Chromium's"


# --- mojifix vs Chromium ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", DECLARED, ids=_ids(DECLARED))
def test_declared_matches_chromium(case: C.Case) -> None:
    """Chromium's encoding and DOM text (for documented Chromium decoder bugs: the Standard's text)."""
    entry = golden(case)
    result = decode_html()(case.body, content_type_arg(case), url=url_of(case), fallback="browser")
    verdict = compare(case, result, str(entry["characterSet"]), str(entry["dom_text_sha256"]))
    assert verdict.ok, f"{case.id}: {verdict.why} (source={getattr(result, 'source', '?')})"


@pytest.mark.parametrize("case", RULE_UNDECLARED, ids=_ids(RULE_UNDECLARED))
def test_undeclared_browser_fallback_matches_chromium(case: C.Case) -> None:
    entry = golden(case)
    result = decode_html()(case.body, content_type_arg(case), url=url_of(case), fallback="browser")
    verdict = compare(case, result, str(entry["characterSet"]), str(entry["dom_text_sha256"]))
    assert verdict.ok, f"{case.id}: {verdict.why} (source={getattr(result, 'source', '?')})"


@pytest.mark.parametrize("case", DECLARED + RULE_UNDECLARED, ids=_ids(DECLARED + RULE_UNDECLARED))
def test_default_reports_what_chromium_showed(case: C.Case) -> None:
    """With the default fallback, ``browser_encoding`` names the encoding Chromium used."""
    entry = golden(case)
    result = decode_html()(case.body, content_type_arg(case), url=url_of(case))
    assert str(result.browser_encoding).lower() == str(entry["characterSet"]).lower(), (
        f"{case.id}: browser_encoding {result.browser_encoding!r} ({result.browser_source}), "
        f"Chromium {entry['characterSet']!r}"
    )


#: Undeclared cases where mojifix does not (yet) give the true text, as non-strict xfails with the reason.
#: Empty since the detector fixes of 2026-11-30 (a Greek windows-1253 paragraph after ~1 KB of ASCII, UTF-32BE
#: with BOM and all-7-bit ISO-2022-JP were listed before); add an entry only with a measured reason.
KNOWN_UNDECLARED_GAPS: dict[str, str] = {}


def test_known_gaps_name_real_cases() -> None:
    unknown = set(KNOWN_UNDECLARED_GAPS) - {c.id for c in UNDECLARED}
    assert not unknown, f"KNOWN_UNDECLARED_GAPS names no undeclared case: {sorted(unknown)}"


@pytest.mark.parametrize("case", UNDECLARED, ids=_ids(UNDECLARED))
def test_undeclared_gives_true_text(case: C.Case, request: pytest.FixtureRequest) -> None:
    if case.id in KNOWN_UNDECLARED_GAPS:
        request.applymarker(pytest.mark.xfail(reason=KNOWN_UNDECLARED_GAPS[case.id], strict=False))
    result = decode_html()(case.body, content_type_arg(case), url=url_of(case))
    got = dom_text_of(result.text)
    want = dom_text_of(case.true_html)
    assert got == want, (
        f"{case.id}: mojifix chose {result.encoding} ({result.source}); true text not produced"
    )
