"""HTML building blocks shared by the reports: escaping that also makes control characters and
noncharacters visible (so the document has no parse errors), the ``<head>`` with its
Content-Security-Policy (no scripts at all), horizontal bar charts as inline SVG, and tables.

Every string that may come from a crawled page goes through :func:`text` or :func:`attr`.
"""
from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

#: No scripts, no network, no images: only the inline style sheet is allowed.
CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

# Code points an HTML parser reports as parse errors in text ("control" and "noncharacter").
_INVISIBLE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef"
                        + "".join(f"{chr(p)}{chr(p + 1)}" for p in range(0xFFFE, 0x110000, 0x10000))
                        + "]")

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1200px;color:#1d1d1f;padding:0 16px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px;border-bottom:1px solid #ddd}
h3{font-size:15px;margin:18px 0 6px}.meta{color:#555;margin:0}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin:14px 0}
.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:110px}
.card b{display:block;font-size:22px}.charts{display:flex;gap:24px;flex-wrap:wrap}
figure{margin:0}figcaption{font-weight:600;margin-bottom:4px}
table{border-collapse:collapse;width:100%;margin:6px 0}
th,td{border-bottom:1px solid #e4e4e4;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f4f4f6}td.n{text-align:right;font-variant-numeric:tabular-nums}
td,th,h1,.meta{overflow-wrap:anywhere}
.url{word-break:break-all;font-family:ui-monospace,monospace;font-size:12px;unicode-bidi:isolate}
.pass{font-family:ui-monospace,monospace;font-size:12px;white-space:pre-wrap;word-break:break-all;
background:#fafafa;border:1px solid #eee;padding:4px;max-width:420px}
mark{background:#ffd54f}.cc{color:#b00;background:#fee}.muted{color:#777}
svg text{font:12px system-ui,sans-serif;fill:#1d1d1f}.bytes{font-family:ui-monospace,monospace;
font-size:12px;white-space:pre-wrap;word-break:break-all;background:#fafafa;border:1px solid #eee;padding:6px}
"""
COLORS = ("#4e79a7", "#f28e2b", "#bab0ac", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
          "#9c755f")


def _visible(match: re.Match) -> str:
    code = ord(match.group())
    shown = f"\\x{code:02X}" if code < 0x100 else f"\\u{code:04X}" if code < 0x10000 else f"\\U{code:08X}"
    return f'<span class="cc">{shown}</span>'


def text(value: object) -> str:
    """*value* as HTML text: escaped, with control characters, noncharacters and lone surrogates
    shown as ``\\xNN`` / ``\\uNNNN`` marks."""
    return _INVISIBLE.sub(_visible, html.escape(str(value), quote=True))


def attr(value: object) -> str:
    """*value* as a double-quoted attribute value's content (escaped; invisible code points as ``?``)."""
    return _INVISIBLE.sub("?", html.escape(str(value), quote=True))


def link(url: str) -> str:
    """An ``http(s)`` URL as a link (any other scheme as text only), shown as text."""
    scheme = urlsplit(url).scheme.lower() if url.isprintable() else ""
    if scheme not in ("http", "https"):
        return f'<span class="url">{text(url)}</span>'
    return f'<a class="url" href="{attr(url)}" rel="noopener noreferrer">{text(url)}</a>'


def document(title: str, body: Iterable[str]) -> str:
    """A whole HTML document: UTF-8, the CSP ``<meta>`` first, the style sheet, then *body*."""
    return "".join([
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n',
        '<meta name="referrer" content="no-referrer">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f"<title>{text(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        *body, "\n</body>\n</html>\n"])


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[int] = ()) -> str:
    """A table; *rows* hold HTML already escaped; columns in *numeric* are right-aligned."""
    head = "".join(f"<th>{text(h)}</th>" for h in headers)
    lines = ["<table>", f"<thead><tr>{head}</tr></thead>", "<tbody>"]
    for row in rows:
        cells = "".join(f'<td class="n">{c}</td>' if i in numeric else f"<td>{c}</td>" for i, c in enumerate(row))
        lines.append(f"<tr>{cells}</tr>")
    lines.append("</tbody></table>")
    return "\n".join(lines)


def bar_chart(title: str, rows: Sequence[tuple[str, Sequence[int]]], series: Sequence[str],
              width: int = 560) -> str:
    """A horizontal (stacked) bar chart as an inline ``<svg>`` in a ``<figure>``. *rows*:
    ``(label, (count per series, ...))``; *series*: the names of the stacked parts (a legend is
    drawn when there are several)."""
    label_w, bar_h, gap, top = 140, 18, 6, 26 if len(series) > 1 else 4
    bar_w = width - label_w - 70
    most = max((sum(counts) for _, counts in rows), default=0) or 1
    height = top + len(rows) * (bar_h + gap) + 4
    parts = [f'<figure><figcaption>{text(title)}</figcaption>',
             (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
              f'viewBox="0 0 {width} {height}" role="img" aria-label="{attr(title)}">')]
    if len(series) > 1:
        left = 4
        for i, name in enumerate(series):
            parts.append(f'<rect x="{left}" y="4" width="12" height="12" fill="{COLORS[i % len(COLORS)]}"/>'
                         f'<text x="{left + 16}" y="14">{text(name)}</text>')
            left += 28 + 7 * len(name)
    for index, (label, counts) in enumerate(rows):
        y = top + index * (bar_h + gap)
        parts.append(f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end">{text(label[:22])}</text>')
        x = float(label_w)
        for i, count in enumerate(counts):
            w = bar_w * count / most
            if count:
                parts.append(f'<rect class="bar" x="{x:.1f}" y="{y}" width="{max(w, 1):.1f}" height="{bar_h}" '
                             f'fill="{COLORS[i % len(COLORS)]}"><title>{text(label)}: {count} '
                             f'{text(series[i])}</title></rect>')
            x += w
        parts.append(f'<text x="{x + 6:.1f}" y="{y + 13}">{sum(counts)}</text>')
    parts.append("</svg></figure>")
    return "\n".join(parts)
