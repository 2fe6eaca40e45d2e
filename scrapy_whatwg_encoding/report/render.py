"""``render_html(data)``: the crawl (or audit) report as one self-contained HTML document.

Sections: summary cards; charts (decisions per source, split by whether the text differs from
Scrapy's; decisions per encoding); one row per host; the example pages whose text differs from
Scrapy's, per decision source, with the first differing passage side by side; errors; and, for
an audit with a manifest, accuracy. Charts are inline SVG; the document has no scripts and a
Content-Security-Policy that forbids them (see :mod:`.page`). A string from the crawl (host, URL,
title, detail) is isolated (``<bdi>``, ``unicode-bidi: isolate``): a right-to-left override in it
reorders nothing around it; and a cell breaks a long one (a 253-character host) anywhere.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .model import OTHER_HOSTS, Example, HostRow, ReportData
from .page import bar_chart, document, link, table, text

HOST_ROWS = 100  # hosts shown on their own row; the rest are summed in one "other" row
ENCODING_BARS = 20  # encodings charted on their own bar; the rest in one "other" bar


def _top(counter: Counter[str], n: int) -> list[tuple[str, int]]:
    rows = counter.most_common()
    if len(rows) > n:
        rows = rows[:n - 1] + [("other", sum(c for _, c in rows[n - 1:]))]
    return rows


def _counts(counter: Counter[str], n: int = 4) -> str:
    return ", ".join(f"{text(k)}&nbsp;×{v}" for k, v in _top(counter, n))


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "n/a"


def _card(label: str, value: object, note: str = "") -> str:
    return f'<div class="card"><b>{text(value)}</b>{text(label)}' + \
        (f'<br><span class="muted">{text(note)}</span>' if note else "") + "</div>"


def _summary(data: ReportData) -> str:
    return '<section id="summary"><div class="cards">' + "".join([
        _card("pages decided", data.pages),
        _card("differs from Scrapy alone", data.changed, _percent(data.changed, data.pages)),
        _card("not compared", data.unknown, "not in the sample compared with Scrapy alone" if data.unknown else ""),
        _card("suspect labels", data.suspect),
        _card("errors", sum(data.errors.values()), "left as Scrapy made them"),
        _card("hosts", len(data.hosts)),
    ]) + "</div>" + (f'<p class="meta">Compared with Scrapy alone: {text(data.compared)}.</p>' if data.compared else "") \
        + "</section>"


def _charts(data: ReportData) -> str:
    sources = [(s, (n - data.changed_sources[s] - data.unknown_sources[s], data.changed_sources[s],
                    data.unknown_sources[s])) for s, n in data.sources.most_common()]
    encodings = [(e, (n,)) for e, n in _top(data.encodings, ENCODING_BARS)]
    return ('<section id="charts"><h2>Decisions</h2><div class="charts">'
            + bar_chart("Decisions per source", sources, ("same text as Scrapy alone", "differs from Scrapy alone", "not compared"))
            + bar_chart("Decisions per encoding", encodings, ("pages",))
            + "</div></section>")


def _host_cells(host: str, row: HostRow) -> list[str]:
    # <bdi>: a right-to-left override in a host name reorders nothing outside it.
    return [f"<bdi>{text(host)}</bdi>", str(row.pages), str(row.changed), _counts(row.encodings), _counts(row.sources),
            str(row.suspect), str(row.errors)]


def _hosts(data: ReportData) -> str:
    rows = sorted(data.hosts.items(), key=lambda item: (item[0] == OTHER_HOSTS, -item[1].pages, item[0]))
    shown, rest = rows[:HOST_ROWS], rows[HOST_ROWS:]
    if rest:
        other = HostRow()
        for _, row in rest:
            for name in ("pages", "changed", "suspect", "errors"):
                setattr(other, name, getattr(other, name) + getattr(row, name))
            other.encodings.update(row.encodings)
            other.sources.update(row.sources)
        shown.append((OTHER_HOSTS, other))
    body = table(("host", "pages", "differs from Scrapy alone", "encodings", "sources", "suspect labels", "errors"),
                 (_host_cells(host, row) for host, row in shown), numeric=(1, 2, 5, 6))
    return f'<section id="hosts"><h2>Hosts</h2>{body}</section>'


def _marked(passage: str, at: int) -> str:
    """*passage* with the run of characters that starts at *at* (up to the next ASCII one) marked."""
    end = at + 1
    while end < len(passage) and not passage[end].isascii():
        end += 1
    return f"{text(passage[:at])}<mark>{text(passage[at:end])}</mark>{text(passage[end:])}"


def _example_cells(example: Example) -> list[str]:
    decision, passage = example.decision, example.passage
    at = passage.offset - passage.start
    ours = f"<b>{text(decision['encoding'])}</b> ({text(decision['confidence'])}"
    ours += f", label {text(repr(decision['label']))})" if decision.get("label") is not None else ")"
    theirs = ('<span class="muted">binary response: no text</span>' if passage.theirs is None
              else f'<div class="pass">{_marked(passage.theirs, at)}</div>')
    return [link(example.url), ours, text(example.scrapy_encoding or "binary"),
            f"character {passage.offset}", f'<div class="pass">{_marked(passage.ours, at)}</div>', theirs]


def _examples(data: ReportData) -> str:
    parts = ['<section id="differences"><h2>Pages whose text differs from Scrapy alone</h2>',
             (f'<p class="meta">At most {data.max_examples} examples per decision source; '
              "the first differing passage of each, the difference marked.</p>")]
    if not data.examples:
        parts.append("<p>No page shown: " + ("examples are off" if not data.max_examples else
                                             "none differs" if not data.changed else "no example kept") + ".</p>")
    for source, examples in sorted(data.examples.items(), key=lambda item: -data.changed_sources[item[0]]):
        unknown = data.unknown_sources[source]
        parts.append(f"<h3>Source: {text(source)} — {data.changed_sources[source]} pages differ"
                     + (f", {unknown} more not compared (not in the sample)" if unknown else "")
                     + f"; {len(examples)} shown</h3>")
        parts.append(table(("URL", "this algorithm", "Scrapy alone", "first difference", "our text",
                            "Scrapy's text"), (_example_cells(e) for e in examples)))
    parts.append("</section>")
    return "\n".join(parts)


def _errors(data: ReportData) -> str:
    if not data.errors:
        return '<section id="errors"><h2>Errors</h2><p>None.</p></section>'
    rows = ([text(kind), str(count), "<br>".join(link(u) for u in data.error_examples.get(kind, ()))]
            for kind, count in data.errors.most_common())
    return (f'<section id="errors"><h2>Errors</h2>'
            f"{table(('exception', 'responses', 'examples'), rows, numeric=(1,))}</section>")


def _accuracy(accuracy: dict) -> str:
    judged = accuracy["judged"]
    chart = bar_chart("Pages decoded to the true text", [
        ("this algorithm", (accuracy["correct"], judged - accuracy["correct"])),
        ("Scrapy alone", (accuracy["scrapy_correct"], judged - accuracy["scrapy_correct"]))],
        ("correct", "wrong"))
    rows = ([text(r["expected"]), str(r["pages"]), str(r["correct"]), str(r["scrapy_correct"])]
            for r in accuracy["by_expected"])
    return ('<section id="accuracy"><h2>Accuracy against the manifest</h2>'
            f"<p>{judged} pages with a Web encoding: this algorithm decodes {accuracy['correct']} "
            f"({_percent(accuracy['correct'], judged)}) to the true text, {accuracy['exact']} with exactly "
            f"the true encoding; Scrapy alone {accuracy['scrapy_correct']} "
            f"({_percent(accuracy['scrapy_correct'], judged)}).</p>{chart}"
            + table(("true encoding", "pages", "this algorithm correct", "Scrapy correct"), rows, numeric=(1, 2, 3))
            + "</section>")


def render_html(data: ReportData, *, title: str = "crawl",
                details: Sequence[tuple[str, str]] = (), accuracy: dict | None = None) -> str:
    """The report of *data* as an HTML document (str). *title* names the crawl or directory,
    *details* are ``(name, value)`` pairs shown under it (settings, dates), *accuracy* is the
    ``summary["accuracy"]`` of an audit with a manifest. Every string is escaped."""
    meta = " · ".join(f"{text(k)}: <bdi>{text(v)}</bdi>" for k, v in details)
    return document(f"Encoding report: {title}", [
        f"<h1>Encoding report: <bdi>{text(title)}</bdi></h1>",
        f'<p class="meta">{meta}</p>' if meta else "",
        _summary(data), _charts(data), _accuracy(accuracy) if accuracy else "", _hosts(data),
        _examples(data), _errors(data)])
