"""The review report as one self-contained HTML file: inline CSS, inline JS, inline SVG, no network.

Safety: every string that comes from the tree (file names, file contents, reasons) reaches the page
only as JSON data inside ``<script type="application/json">`` (with ``<``, ``>``, ``&`` and the
two JavaScript line separators escaped, so no sequence in the data can close the element), and the
script puts it into the document with ``textContent`` and ``setAttribute`` only, never as markup.
The few strings the server side writes as markup (the chart's labels, the title) go through
:func:`html.escape`. A Content-Security-Policy allows exactly the page's own script and style (by
their SHA-256) and nothing else: no network, no other script even if markup were injected.

The page renders at most :data:`PAGE_SIZE` cards at once (paged), keeps the person's choices in
memory and in ``localStorage`` (per report), and saves them as a downloaded decisions file
(:mod:`mojifix.convert.decisions`).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from typing import Any

from mojifix.convert.decisions import DEFAULT_NAME
from mojifix.review.report import ReviewData

__all__ = ["PAGE_SIZE", "render"]

#: cards rendered at once: the issue's bound ("at most 200 cards rendered at once"); the DOM of 200
#: cards with three readings each stays small enough for instant paging
PAGE_SIZE = 200
#: bars in the encodings chart before the rest are grouped as "other encodings"
CHART_BARS = 12


def _asset(name: str) -> str:
    """The page's script or style sheet, shipped next to this module."""
    from importlib.resources import files

    return files("mojifix.review").joinpath(name).read_text(encoding="utf-8")


_SHELL = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<h1>{title}</h1>
<p class="meta">manifest {manifest} &middot; written by mojifix {version}</p>
<div class="summary">{summary}{chart}</div>
<div class="bar">
<button id="prev" type="button">&larr; previous page</button>
<span id="page"></span>
<button id="next" type="button">next page &rarr;</button>
<strong id="progress"></strong>
<button id="save" type="button">Save decisions</button>
<label class="file">Load decisions&hellip;
<input id="load" type="file" accept=".json,application/json"></label>
<span id="loaded"></span>
</div>
<p id="keys" class="keys"><kbd>j</kbd>/<kbd>k</kbd> next/previous file &middot;
<kbd>1</kbd>&ndash;<kbd>9</kbd> pick that reading (then next file) &middot;
<kbd>0</kbd> or <kbd>x</kbd> leave out &middot; <kbd>u</kbd> undecided &middot;
<kbd>n</kbd>/<kbd>p</kbd> next/previous page &middot;
<kbd>s</kbd> save decisions &middot; <kbd>?</kbd> hide this.
Then run <code>mojifix convert SRC {dst} --decisions {decisions_name}</code>.</p>
<main id="cards"></main>
<script id="mojifix-data" type="application/json">{data}</script>
<script>{js}</script>
</body>
</html>
"""


def _json_for_script(obj: Any) -> str:
    """JSON that cannot end its ``<script>`` element or start a comment in it."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    for ch in "<>&\u2028\u2029":
        text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def _summary_table(summary: dict[str, Any], cards: int) -> str:
    e = html.escape
    rows = [f"<tr><th>files</th><td>{summary['total']}</td></tr>"]
    rows += [f"<tr><th>{e(k)}</th><td>{v}</td></tr>" for k, v in summary["outcomes"].items()]
    rows += [
        f"<tr><th>&nbsp;&nbsp;quarantined: {e(k)}</th><td>{v}</td></tr>"
        for k, v in summary["quarantined_by_kind"].items()
    ]
    rows.append(f"<tr><th>settled by a person</th><td>{summary['settled_by_person']}</td></tr>")
    rows.append(f"<tr><th>cards to review</th><td>{cards}</td></tr>")
    return '<table class="counts">' + "".join(rows) + "</table>"


def chart_svg(encodings: list[list[Any]]) -> str:
    """Horizontal bars, one per encoding of the tree: files written, quarantined, other (inline SVG)."""
    rows = encodings[:CHART_BARS]
    rest = encodings[CHART_BARS:]
    if rest:
        merged: dict[str, int] = {}
        for _, counts in rest:
            for k, v in counts.items():
                merged[k] = merged.get(k, 0) + v
        rows = [*rows, [f"{len(rest)} other encodings", merged]]
    label_w, bar_w, row_h = 170, 360, 22
    top = max((sum(c.values()) for _, c in rows), default=1) or 1
    parts = []
    for n, (name, counts) in enumerate(rows):
        y = 22 + n * row_h
        total = sum(counts.values())
        label = html.escape(str(name))
        parts.append(f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end">{label}</text>')
        x = float(label_w)
        for kind in ("written", "quarantined", "other"):
            w = bar_w * counts.get(kind, 0) / top
            if w > 0:
                parts.append(
                    f'<rect x="{x:.1f}" y="{y + 2}" width="{w:.1f}" height="{row_h - 6}" class="{kind}">'
                    f"<title>{label}: {counts.get(kind, 0)} {kind}</title></rect>"
                )
                x += w
        parts.append(f'<text x="{x + 5:.1f}" y="{y + 14}">{total}</text>')
    height = 30 + len(rows) * row_h + 20
    legend_y = height - 8
    legend = "".join(
        f'<rect x="{label_w + i * 110}" y="{legend_y - 10}" width="10" height="10" class="{k}"></rect>'
        f'<text x="{label_w + i * 110 + 14}" y="{legend_y}">{k}</text>'
        for i, k in enumerate(("written", "quarantined", "other"))
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="files per encoding" '
        f'width="{label_w + bar_w + 60}" height="{height}" font-size="13" '
        'font-family="system-ui, sans-serif">'
        f'<text x="0" y="14" font-weight="600">Files per encoding (the whole tree)</text>'
        + "".join(parts)
        + legend
        + "</svg>"
    )


def render(review: ReviewData) -> str:
    """The whole report page as text (UTF-8 when written)."""
    from mojifix import __version__

    payload = {
        "report_id": review.report_id,
        "page_size": PAGE_SIZE,
        "decisions_name": DEFAULT_NAME,
        "cards": list(review.cards),
    }
    css, js = _asset("review.css"), _asset("review.js")
    csp = (
        f"default-src 'none'; script-src {_sha256(js)}; style-src {_sha256(css)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    title = f"mojifix review: {len(review.cards)} quarantined files in {review.dst}"
    return _SHELL.format(
        csp=csp,
        title=html.escape(title),
        css=css,
        manifest=html.escape(review.manifest),
        version=html.escape(__version__),
        summary=_summary_table(review.summary, len(review.cards)),
        chart=chart_svg(review.summary["encodings"]),
        dst=html.escape(review.dst),
        decisions_name=DEFAULT_NAME,
        data=_json_for_script(payload),
        js=js,
    )
