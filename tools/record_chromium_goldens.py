"""Record what headless Chromium shows for every differential case, or check a live browser against it.

    .venv/bin/python tools/record_chromium_goldens.py            # (re)write the goldens
    .venv/bin/python tools/record_chromium_goldens.py --check    # re-run live, report differences
    .venv/bin/python tools/record_chromium_goldens.py --only late-   # re-record some cases (merged)
    .venv/bin/python tools/record_chromium_goldens.py --delivery-probe  # fast vs slow delivery, printed

Needs Debian's chromium (``bash tools/ensure_chromium.sh``). The goldens
(``tests/differential/goldens/chromium.json``) hold, per case id: ``document.characterSet``, the DOM text
(see ``tests/differential/chromium/browser.py``), its SHA-256, the document's content type, and the
SHA-256 of the body that was served (so the default test run can tell when a case changed and the
goldens are stale); plus the Chromium version, the flags and the date of the recording.

Exit codes: 0 recorded / no differences; 1 differences found (``--check``); 2 chromium missing or
the run failed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.differential.chromium import browser, cases  # noqa: E402

GOLDENS = ROOT / "tests" / "differential" / "goldens" / "chromium.json"
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

#: DOM texts longer than this are stored only as length + SHA-256 (keeps the goldens file small;
#: only the 200 KB comment and script cases are affected).
MAX_STORED_TEXT = 60_000


def sha256(data: bytes | str) -> str:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()


def golden_entry(case: cases.Case, obs: browser.Observation) -> dict[str, object]:
    entry: dict[str, object] = {
        "group": case.group,
        "host": case.host,
        "declared": case.declared,
        "body_sha256": sha256(case.body),
        "characterSet": obs.character_set,
        "contentType": obs.content_type,
        "dom_text_sha256": sha256(obs.dom_text),
        "dom_text_len": len(obs.dom_text),
    }
    if len(obs.dom_text) <= MAX_STORED_TEXT:
        entry["dom_text"] = obs.dom_text
    return entry


def load_goldens(path: Path = GOLDENS) -> dict[str, object]:
    return json.loads(path.read_text(encoding="utf-8"))


def diff(old: dict[str, dict[str, object]], new: dict[str, dict[str, object]]) -> list[str]:
    """Human-readable differences between two ``cases`` maps (characterSet and DOM text only)."""
    out = []
    for cid in sorted(set(old) | set(new)):
        a, b = old.get(cid), new.get(cid)
        if a is None or b is None:
            out.append(f"{cid}: {'new case' if a is None else 'case removed'}")
            continue
        if a["body_sha256"] != b["body_sha256"]:
            out.append(f"{cid}: body changed since recording (re-record)")
            continue
        if a["characterSet"] != b["characterSet"]:
            out.append(f"{cid}: characterSet {a['characterSet']} -> {b['characterSet']}")
        elif a["dom_text_sha256"] != b["dom_text_sha256"]:
            out.append(f"{cid}: same characterSet {a['characterSet']}, DOM text differs")
    return out


#: Slow delivery used by ``--delivery-probe``: pieces of this many bytes, this many seconds apart.
PROBE_CHUNK = 300
PROBE_DELAY_S = 0.15


def delivery_probe() -> int:
    """Print how Chromium's detector answers for undeclared pages served in one piece vs slowly.

    Pages: N ASCII bytes (body text or a comment in the head), then a Russian windows-1251 paragraph.
    Not part of the goldens: the result depends on timing, so it is a printed measurement.
    """
    from tests.differential.chromium.server import CaseServer, Response

    ru = cases.text_for("ru", "windows-1251")
    pages = {
        "ascii-100-then-ru": "<body><p>" + "ASCII words. " * 7 + f"</p><p>{ru}</p>",
        "ascii-600-then-ru": "<body><p>" + "Plain ASCII words. " * 30 + f"</p><p>{ru}</p>",
        "ascii-3000-then-ru": "<body><p>"
        + "Plain ASCII words come first in this page. " * 70
        + f"</p><p>{ru}</p>",
        "head-comment-3000-then-ru": "<title>t</title><!--" + "x" * 3000 + f"--><p>{ru}</p>",
    }
    header = (b"Content-Type: text/html",)
    print(f"{'page':28} {'one piece':14} {PROBE_CHUNK}-byte pieces every {PROBE_DELAY_S}s")
    with CaseServer() as srv, browser.launch() as br:
        for name, html in pages.items():
            body = cases.encode(html, "windows-1251")
            srv.add(f"/fast/{name}", Response(header, body))
            srv.add(f"/slow/{name}", Response(header, body, PROBE_CHUNK, PROBE_DELAY_S))
            fast = br.observe(f"http://example.com:{srv.port}/fast/{name}").character_set
            slow = br.observe(f"http://example.com:{srv.port}/slow/{name}").character_set
            print(f"{name:28} {fast:14} {slow}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="re-run live and report differences, write nothing"
    )
    parser.add_argument("--only", metavar="PREFIX", help="only cases whose id starts with PREFIX")
    parser.add_argument("--out", type=Path, default=GOLDENS, help="goldens file (default: %(default)s)")
    parser.add_argument(
        "--delivery-probe", action="store_true", help="print the detector's answers for fast vs slow delivery"
    )
    args = parser.parse_args(argv)

    if not browser.chromium_available():
        print(
            f"chromium not found at {browser.CHROMIUM}: run `bash tools/ensure_chromium.sh`", file=sys.stderr
        )
        return 2
    if args.delivery_probe:
        return delivery_probe()
    selected = [c for c in cases.all_cases() if not args.only or c.id.startswith(args.only)]
    version = browser.chromium_version()
    print(f"{version}: running {len(selected)} cases ...", file=sys.stderr)
    try:
        observed = browser.run_cases(selected)
    except Exception as exc:  # report and exit 2: any failure leaves the old goldens untouched
        print(f"run failed: {exc}", file=sys.stderr)
        return 2
    new = {c.id: golden_entry(c, observed[c.id]) for c in selected}

    if args.check:
        old_all = load_goldens(args.out)
        old_cases: dict[str, dict[str, object]] = old_all["cases"]  # type: ignore[assignment]
        if args.only:
            old_cases = {k: v for k, v in old_cases.items() if k.startswith(args.only)}
        problems = diff(old_cases, new)
        print(
            f"goldens recorded with {old_all['chromium_version']} on {old_all['recorded_at']}; live {version}"
        )
        for line in problems:
            print(line)
        print(f"{len(problems)} difference(s) in {len(new)} cases")
        return 1 if problems else 0

    if args.only and args.out.exists():
        known = {c.id for c in cases.all_cases()}
        merged = {k: v for k, v in load_goldens(args.out)["cases"].items() if k in known}  # type: ignore[union-attr]
        merged.update(new)
        new = merged
    doc = {
        "comment": "GENERATED by tools/record_chromium_goldens.py from tests/differential/chromium/cases.py;"
        " DO NOT EDIT",
        "chromium_version": version,
        "recorded_at": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "flags": list(browser.BASE_FLAGS),
        "locale_env": browser.BROWSER_ENV_LOCALE,
        "cases": dict(sorted(new.items())),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # lone surrogates (Chromium's DOM can hold them) are written as \uXXXX escapes so the file stays
    # valid UTF-8; write to a temporary file first so a failure never leaves a truncated goldens file
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    text = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    tmp = args.out.with_suffix(".json.tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(args.out)
    print(f"wrote {len(new)} cases to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
