"""``render_explain_html``: one page's explanation (the result of the CLI's ``explain``) as a
self-contained, script-free HTML document: the decision, every step of the encoding sniffing
algorithm in order, the body's bytes around each matched declaration with those bytes marked,
and our text next to Scrapy's."""
from __future__ import annotations

from collections.abc import Sequence

from .page import document, table, text

CONTEXT_BYTES = 160  # bytes shown each side of a matched declaration
HEAD_BYTES = 512  # bytes shown when nothing was matched


def _bytes(data: bytes) -> str:
    """*data* as HTML: printable ASCII, tab and newline as they are, any other byte as ``\\xNN``."""
    out = []
    for byte in data:
        if 0x20 <= byte < 0x7F or byte in (0x09, 0x0A):
            out.append(text(chr(byte)))
        else:
            out.append(f'<span class="cc">\\x{byte:02X}</span>')
    return "".join(out)


def _window(body: bytes, title: str, start: int, end: int) -> str:
    """The bytes around ``body[start:end]``, that range marked."""
    before = max(start - CONTEXT_BYTES, 0)
    after = min(end + CONTEXT_BYTES, len(body))
    return (f"<h3>{text(title)}: bytes {start}–{end - 1}</h3><div class=\"bytes\">"
            + ("…" if before else "") + _bytes(body[before:start]) + f"<mark>{_bytes(body[start:end])}</mark>"
            + _bytes(body[end:after]) + ("…" if after < len(body) else "") + "</div>")


def _step_cells(number: int, row: dict) -> list[str]:
    found = row["found"]
    head = text(found["encoding"]) if found else ("—" if row["applies"] else "n/a")
    note = text(row["note"]) if row["reached"] else f'<span class="muted">(not reached)</span> {text(row["note"])}'
    matched = "" if row["matched"] is None else f'byte {row["offset"]}: <code>{text(row["matched"])}</code>'
    return [str(number), text(row["title"]), f"<b>{head}</b>" if row["decisive"] else head, note, matched]


def _texts(report: dict) -> str:
    scrapy, ours = report["scrapy"], report["text"]
    if scrapy["encoding"] is None:
        theirs = '<span class="muted">binary response: no text</span>'
    elif scrapy["same_text"]:
        theirs = '<span class="muted">the same text</span>'
    else:
        at = scrapy["first_difference"]
        shown = scrapy["text"] or ""
        theirs = f'<div class="pass">{text(shown[:at])}<mark>{text(shown[at:at + 1])}</mark>{text(shown[at + 1:])}</div>'
        if scrapy["context"] is not None:
            theirs += f'<p>around character {at}:</p><div class="pass">{text(scrapy["context"])}</div>'
    return table(("this algorithm", f"Scrapy alone ({scrapy['response_class']}, {scrapy['encoding'] or 'binary'})"),
                 [[f'<div class="pass">{text(ours)}</div>', theirs]])


def render_explain_html(report: dict, body: bytes, spans: Sequence[tuple[str, int, int]]) -> str:
    """*report* (the CLI's ``explain`` result: ``input``, ``options``, ``kind``, ``steps``,
    ``decision``, ``text``, ``scrapy``) as an HTML document (str). *body* is the page's bytes and
    *spans* ``(step title, start, end)`` byte ranges of the declarations matched, marked in the
    byte views. Every string is escaped."""
    source, decision, options = report["input"], report["decision"], report["options"]
    where = source.get("url") or source.get("path") or ""
    settings = " · ".join(f"{text(k)}: {text(v)}" for k, v in options.items() if v is not None)
    head = [f"<h1>Encoding of {text(where)}</h1>",
            f'<p class="meta">{source["bytes"]} bytes, {text(report["kind"])} document · {settings}</p>']
    if source.get("final_url") and source["final_url"] != source.get("url"):
        head.append(f'<p class="meta">final URL (redirected): {text(source["final_url"])}</p>')
    if report.get("skipped") is not None:
        skipped = (f'<section id="decision"><h2>Skipped</h2><p>A crawl leaves this response as Scrapy made it '
                   f"({text(report['skipped'])}); no decision.</p></section>")
        return document(f"Encoding of {where}", [*head, skipped])
    rows = [_step_cells(n, row) for n, row in enumerate(report["steps"], 1)]
    windows = [_window(body, title, start, end) for title, start, end in spans]
    if not windows:
        windows = [(f"<h3>First {min(HEAD_BYTES, len(body))} bytes (nothing matched)</h3>"
                    f'<div class="bytes">{_bytes(body[:HEAD_BYTES])}</div>')]
    return document(f"Encoding of {where}", [
        *head,
        f'<section id="decision"><h2>Decision</h2><p><b>{text(decision["encoding"])}</b> '
        f'({text(decision["confidence"])}), source {text(decision["source"])}'
        + (f", label {text(repr(decision['label']))}" if decision["label"] is not None else "")
        + (f", at byte {decision['offset']}" if decision["offset"] is not None else "") + "</p></section>",
        '<section id="steps"><h2>Steps of the encoding sniffing algorithm</h2>'
        + table(("#", "step", "found", "note", "matched"), rows) + "</section>",
        '<section id="bytes"><h2>Matched bytes</h2>' + "".join(windows) + "</section>",
        '<section id="text"><h2>Text</h2>' + _texts(report) + "</section>"])
