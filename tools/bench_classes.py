"""Benchmark: the add-on against Scrapy alone per response, for each class of page of issue 17.

Usage: python tools/bench_classes.py [--runs 5] [--repeat 5] [--only CLASS] [--layer middleware|sniffing|floor]
                                     [--profile CLASS] [--comparison] [--shape corpus|real]

Classes (built from the repo's own pages, tests/data/corpus with its manifest's true encodings
and example_project/demo/site, see :func:`build_class`):

  a  UTF-8, charset in the Content-Type header
  b  legacy encoding, charset in the Content-Type header
  c  ``<meta charset>`` in the first 1024 bytes (no header charset)
  d  late ``<meta charset>``, after byte 1024 at the end of the head, after 1,115 bytes of
     structured data (found by the parser step; no header charset)
  e  XML declaration with an encoding at byte 0, served as text/html (no header charset, no meta)
  f  unlabeled UTF-8 (no label anywhere)
  g  unlabeled legacy encoding (no label anywhere)

Each page's existing labels (XML declaration, ``<meta>`` with ``charset`` or ``http-equiv``, a
UTF-8 BOM) are stripped, then the class's label is added with the page's true encoding. With
``--shape real`` every page first gets the head of a page made today (:data:`REAL_HEAD`:
``<!DOCTYPE html>``, ``<html lang>``, a viewport ``<meta>``, a ``<title>``, a script), and class
c's ``<meta charset>`` goes after the viewport ``<meta>``, where such pages have it. Pages
are real: the corpus's UTF-8 pages and, for classes a and f, also every legacy page transcoded to
UTF-8 (its own text, re-encoded), so that those classes have dozens of pages too.

Per page, on identical fresh responses (an ``HtmlResponse`` built from URL, headers and body for
every call; building it is not timed):

- Scrapy: ``response.encoding`` then ``response.text``;
- ours: what a crawl with the add-on does: ``HandlerEncodingMiddleware.process_response`` (order
  1,000,000) then ``WhatwgEncodingMiddleware.process_response`` (both built by ``from_crawler`` on
  a crawler from ``scrapy.utils.test.get_crawler`` with the add-on's default settings: stats on,
  site memory off), then ``.text`` of the response it returns.

With ``--layer sniffing``, ours is the sniffing layer's calls alone (what the middleware asks of
it, without the Scrapy glue): ``Options().decide(body, content_type, url)``, then
``scrapy_default.scrapy_encoding`` (given the decision) and ``scrapy_default.changed`` (the name Scrapy alone reports
and the "differs from Scrapy" stat), then the text (``outcome.body.text(encoding)``). With ``--layer
floor``, ours is :class:`Floor`: the standard's steps called directly, with nothing the add-on adds
around them (what the per-page ratio could be if that cost nothing).

Times are ``perf_counter_ns``, best of ``--repeat`` per page (Scrapy and ours alternate call by
call); ``--runs`` runs interleave the two page by page. The headline, per class: the **per-page
ratio** ours / Scrapy, median over the pages of each page's ratio (its median time over runs,
each side; below 1.00 = the typical page is cheaper than with Scrapy alone), with its quartiles;
then pages, bytes per page, µs per page of Scrapy and ours (class totals, median of runs), the
total ratio (median and min-max over the runs), ``guess``: the pages on which Scrapy alone runs its statistical guess
(charset-normalizer: an unlabeled non-UTF-8 page, or a label Python has no codec for, such as
``x-mac-cyrillic``), which cost it far more than the others, and ``w/o``: the per-page median
without them; and checks: ``text`` — pages where ours' ``response.text`` is the WHATWG decode
with its decision (must be all); ``true`` — pages where that decision is the page's true
encoding; ``≠Scrapy`` — pages where Scrapy's text differs from ours.

``--comparison`` times the "differs from Scrapy alone" statistic alone instead (see
:func:`comparison_cost`): per class, the pages known without a replay and those needing one, the
per-page median cost of :meth:`Comparisons.judge` without a replay, the mean cost of a replay, and
the statistic's cost over the class crawled once (the first ``COMPARE_FIRST`` needing pages
replayed) and in the steady state (one in ``COMPARE_EVERY``), all against Scrapy's per-page cost.

``--profile CLASS`` runs cProfile over ours (``--profile-scrapy``: over Scrapy) for that class
instead and prints the top 25 functions by own time, in µs per page.
"""
from __future__ import annotations

import argparse
import cProfile
import dataclasses
import json
import pstats
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from math import isnan, nan
from pathlib import Path

from scrapy_whatwg_encoding.sniffing.prescan import PRESCAN_BYTES

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus"
DEMO = REPO / "example_project" / "demo" / "site"
CLASSES = {
    "a": "UTF-8, header charset",
    "b": "legacy, header charset",
    "c": "<meta> in first 1024 B",
    "d": "late <meta> (parser)",
    "e": "XML declaration",
    "f": "unlabeled UTF-8",
    "g": "unlabeled legacy",
}
#: The decision source sniff() gives each class's pages (the test checks every built page).
EXPECTED_SOURCE = {"a": "transport", "b": "transport", "c": "prescan", "d": "parser",
                   "e": "xml-declaration", "f": "detector", "g": "detector"}


@dataclasses.dataclass(frozen=True)
class Source:
    """A real page: its name, bytes (labels stripped, see :func:`strip_labels`) and true
    encoding (a WHATWG name)."""

    name: str
    body: bytes
    encoding: str


@dataclasses.dataclass(frozen=True)
class Page:
    """One benchmark page of class *cls*: what the server sends and what the page really is."""

    cls: str
    name: str
    url: str
    content_type: str
    body: bytes
    encoding: str | None  # the true encoding (WHATWG name), if known

    @property
    def headers(self) -> dict[str, str]:
        return {"Content-Type": self.content_type}


# --- the pages ----------------------------------------------------------------------------

_XML_DECLARATION = re.compile(rb"^[\t\n\r ]*<\?xml[\t\n\r ][^>]*>[\t\n\r ]*")
_LABEL_META = re.compile(rb"(?i)<meta[\t\n\x0c\r /][^>]*?(?:charset|http-equiv)[^>]*>")


def strip_labels(body: bytes) -> bytes:
    """*body* without a UTF-8 BOM, a leading XML declaration and every ``<meta>`` with a
    ``charset`` or ``http-equiv`` attribute."""
    body = body.removeprefix(b"\xef\xbb\xbf")
    return _LABEL_META.sub(b"", _XML_DECLARATION.sub(b"", body, count=1))


def sources() -> list[Source]:
    """Every ASCII-compatible page of the corpus and the demo site with a true encoding and a
    non-ASCII byte, labels stripped (corpus first, in manifest order; then the demo site's)."""
    from scrapy_whatwg_encoding import ENCODINGS

    found = []
    entries = [(entry["path"], CORPUS / entry["path"], entry["encoding"])
               for entry in json.loads((CORPUS / "manifest.json").read_text("utf-8"))]
    entries += [(f"demo/{path}", DEMO / path, info["expect"])
                for path, info in json.loads((DEMO / "pages.json").read_text("utf-8")).items()]
    for name, path, encoding in entries:
        if encoding is None or not ENCODINGS[encoding].is_ascii_compatible:
            continue
        body = strip_labels(path.read_bytes())
        if not body.isascii():
            found.append(Source(name, body, encoding))
    return found


def transcoded(legacy: Iterable[Source]) -> list[Source]:
    """Each legacy page's text (the WHATWG decode with its true encoding) encoded as UTF-8."""
    from scrapy_whatwg_encoding import ENCODINGS, decode

    return [Source(f"{s.name} (as UTF-8)", decode(s.body, ENCODINGS[s.encoding])[0].encode("utf-8"),
                   "UTF-8") for s in legacy]


_HEAD = re.compile(rb"(?i)<head(?:[\t\n\x0c\r /][^>]*)?>")
# Elements whose content is text to the tokenizer (a <meta> inside is no tag), and comments.
_RAW_OPEN = re.compile(rb"(?i)<(script|style|title|textarea|xmp|iframe|noembed|noframes|noscript|plaintext)[\t\n\x0c\r />]|<!--")


def _in_raw_text(body: bytes, position: int) -> bool:
    """Whether *position* lies inside a comment or a raw text element (an approximation the
    class test checks: sniff() must find the inserted ``<meta>``)."""
    lower = body.lower()
    for match in _RAW_OPEN.finditer(body, 0, position):
        end = b"-->" if match.group(1) is None else b"</" + match.group(1).lower()
        close = lower.find(end, match.end())
        if close < 0 or close + len(end) > position:
            return True
    return False


def late_position(body: bytes) -> int:
    """Where class d's structured data and late ``<meta>`` go: just before ``</head>`` (outside
    comments and raw text elements), else at the start (where a head begins)."""
    close = body.lower().find(b"</head>")
    return close if close >= 0 and not _in_raw_text(body, close) else 0


#: The head of a page shaped like the ones made today (the class's <meta charset> goes at {meta}).
REAL_HEAD = (b'<!DOCTYPE html>\n<html lang="en">\n<head>\n'
             b'<meta name="viewport" content="width=device-width, initial-scale=1">\n{meta}'
             b"<title>A page shaped like today's</title>\n<link rel=\"stylesheet\" href=\"/s.css\">\n"
             b"<script>window.dataLayer = window.dataLayer || []; function gtag() { dataLayer.push(arguments); }"
             b"</script>\n</head>\n")


#: A head's structured data, as many of today's pages have it (class d's late ``<meta>`` follows it).
_JSON_LD = (b'<script type="application/ld+json">{"@context": "https://schema.org", "@type": "NewsArticle", '
            b'"headline": "A page shaped like today\'s", "datePublished": "2026-11-29T08:00:00+00:00", '
            + b'"author": [{"@type": "Person", "name": "A. Writer", "url": "https://example.com/writer"}], '
            + b'"publisher": {"@type": "Organization", "name": "Example", "logo": {"@type": "ImageObject", '
            + b'"url": "https://example.com/logo.png", "width": 600, "height": 60}}, "image": ['
            + b", ".join(b'"https://example.com/images/%d.jpg"' % k for k in range(16))
            + b'], "mainEntityOfPage": {"@type": "WebPage", "@id": "https://example.com/article"}}</script>\n')


def shaped(source: Source) -> Source:
    """*source* with :data:`REAL_HEAD` in front (``{meta}``: where class c's ``<meta>`` goes)."""
    return Source(source.name, REAL_HEAD + source.body, source.encoding)


def _meta(encoding: str) -> bytes:
    return f'<meta charset="{encoding}">'.encode("ascii")


def label_page(cls: str, source: Source) -> tuple[str, bytes] | None:
    """``(content_type, body)`` of *source* with class *cls*'s label, or ``None`` if the page
    cannot carry it (a late ``<meta>`` needs more than 1024 bytes before it)."""
    body, name = source.body.replace(b"{meta}", b"", 1) if cls != "c" else source.body, source.encoding
    if cls in ("a", "b"):
        return f"text/html; charset={name}", body
    if cls == "c":
        if body.startswith(REAL_HEAD):  # after the viewport <meta>, where today's pages have it
            return "text/html", body.replace(b"{meta}", _meta(name), 1)
        head = _HEAD.search(body, 0, PRESCAN_BYTES // 2)
        at = head.end() if head else 0
        return "text/html", body[:at] + _meta(name) + body[at:]
    if cls == "d":
        at = late_position(body)
        body = body[:at] + _JSON_LD + _meta(name) + body[at:]
        # (the parser step reads a late <meta> only while the page is still in its head)
        from scrapy_whatwg_encoding import get_encoding
        from scrapy_whatwg_encoding.sniffing.change import parser_meta

        found = parser_meta(body, get_encoding(name))  # type: ignore[arg-type]
        late = found is not None and found[2] == at + len(_JSON_LD) > PRESCAN_BYTES
        return ("text/html", body) if late else None
    if cls == "e":
        return "text/html", f'<?xml version="1.0" encoding="{name}"?>\n'.encode("ascii") + body
    return "text/html", body  # f, g: no label


def build_class(cls: str, native: list[Source] | None = None, shape: str = "corpus") -> list[Page]:
    """The pages of class *cls* (a-g), in a fixed order: UTF-8 pages (the corpus's, then the
    legacy ones transcoded) for a and f, legacy pages for b and g, all of *native* (default:
    :func:`sources`) for c, d and e; each body once; *shape* ``"real"``: with :data:`REAL_HEAD`."""
    native = sources() if native is None else native
    if shape == "real":
        native = [shaped(source) for source in native]
    legacy = [s for s in native if s.encoding != "UTF-8"]
    utf_8 = [s for s in native if s.encoding == "UTF-8"]
    chosen = {"a": utf_8 + transcoded(legacy), "f": utf_8 + transcoded(legacy),
              "b": legacy, "g": legacy}.get(cls, native)
    pages, seen = [], set()
    for i, source in enumerate(chosen):
        labeled = label_page(cls, source)
        if labeled is not None and labeled[1] not in seen:  # the corpus has a few texts twice
            seen.add(labeled[1])
            pages.append(Page(cls, source.name, f"http://127.0.0.1/{cls}/{i}", *labeled, source.encoding))
    return pages


# --- the two sides ------------------------------------------------------------------------

def scrapy_side(page: Page):
    """Scrapy alone: a fresh ``HtmlResponse``, then the timed call (``.encoding``, ``.text``)."""
    from scrapy.http import HtmlResponse

    response = HtmlResponse(page.url, headers=page.headers, body=page.body)

    def call() -> str:
        response.encoding  # noqa: B018 — Scrapy's own inference
        return response.text

    return call


class Ours:
    """The add-on's two downloader middlewares as a crawl builds them (``from_crawler`` on a
    real crawler with ``ADDONS = {"scrapy_whatwg_encoding.Addon": 0}``: the default settings,
    stats on, site memory off)."""

    def __init__(self, settings: dict | None = None):
        from scrapy.utils.test import get_crawler

        from scrapy_whatwg_encoding import WhatwgEncodingMiddleware
        from scrapy_whatwg_encoding.scrapy.handler import HandlerEncodingMiddleware

        self.crawler = get_crawler(settings_dict={"ADDONS": {"scrapy_whatwg_encoding.Addon": 0},
                                                  **(settings or {})})
        self.handler = HandlerEncodingMiddleware.from_crawler(self.crawler)
        self.middleware = WhatwgEncodingMiddleware.from_crawler(self.crawler)
        assert self.middleware.memory is None and self.crawler.stats is not None

    def side(self, page: Page) -> Callable[[], str]:
        """A fresh response and request; the timed call returns ``response.text`` (the decision
        is then in ``call.request.meta["whatwg_encoding"]``)."""
        from scrapy.http import HtmlResponse, Request

        response, request = HtmlResponse(page.url, headers=page.headers, body=page.body), Request(page.url)
        handler, middleware = self.handler, self.middleware

        def call() -> str:
            handler.process_response(request, response)
            return middleware.process_response(request, response).text

        call.request = request  # type: ignore[attr-defined]
        return call

    def errors(self) -> int:
        return self.crawler.stats.get_value("whatwg_encoding/errors", 0)


class Layer:
    """The sniffing layer's calls alone, as the middleware makes them for a response of Scrapy's
    own class with the default settings: :meth:`Options.decide`, what Scrapy alone would report
    (:func:`~scrapy_whatwg_encoding.scrapy.scrapy_default.scrapy_encoding`, ``changed``), the text."""

    def __init__(self):
        from scrapy_whatwg_encoding.sniffing.decide import Options

        self.options = Options()

    def side(self, page: Page) -> Callable[[], str]:
        """The timed call returns the text; the decision is then in ``call.request.meta``."""
        from types import SimpleNamespace

        from scrapy_whatwg_encoding.scrapy.scrapy_default import changed, scrapy_encoding

        decide, body, content_type, url = self.options.decide, page.body, page.content_type, page.url
        meta: dict = {}

        def call() -> str:
            outcome = decide(body, content_type, url)
            decision, facts = outcome.decision, outcome.body
            changed(scrapy_encoding(content_type, facts, True, decision), decision.encoding, facts)
            meta["whatwg_encoding"] = decision
            return facts.text(decision.encoding)

        call.request = SimpleNamespace(meta=meta)  # type: ignore[attr-defined]
        return call

    def errors(self) -> int:
        return 0  # an exception would stop the benchmark


class Floor:
    """A floor for the per-page ratio, not the add-on: the standard's steps a page of these classes
    needs, called directly with what they take (step 4's charset, else the prescan, the parser
    step with its encoding, the detector where neither finds a ``<meta>``), then the decode and the
    response's state (``response.encoding``, ``.text``, a one-key ``meta``). No trace, suspect-label
    check, statistic, stats, log, gate or override: what is left once every part the add-on adds
    to those steps costs nothing (issue 34 item 7)."""

    def side(self, page: Page) -> Callable[[], str]:
        from scrapy.http import HtmlResponse, Request

        from scrapy_whatwg_encoding import ENCODINGS
        from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_codec_name
        from scrapy_whatwg_encoding.sniffing.body import Body
        from scrapy_whatwg_encoding.sniffing.change import PARSER_LIMIT, parser_meta_span
        from scrapy_whatwg_encoding.sniffing.detect import detect
        from scrapy_whatwg_encoding.sniffing.prescan import prescan_result
        from scrapy_whatwg_encoding.sniffing.run import transport_decision

        response, request = HtmlResponse(page.url, headers=page.headers, body=page.body), Request(page.url)
        default = ENCODINGS["windows-1252"]

        def call() -> str:
            body = response.body
            found = transport_decision(page.content_type)[0]
            if found is not None:
                encoding, source = found.encoding, "transport"
            else:
                metas: list = []
                prescanned = prescan_result(body, PRESCAN_BYTES, metas)
                encoding, source = (default, "default") if prescanned is None else (prescanned[0], prescanned[3])
                meta = parser_meta_span(body, encoding, PARSER_LIMIT, metas)
                if meta is not None and source == "default":
                    encoding, source = meta[0], "parser"
                elif meta is None and source == "default":
                    encoding, source = detect(Body(body), "full", page.url) or default, "detector"
            text = encoding.decode(body)
            response._encoding, response._cached_ubody = scrapy_codec_name(encoding), text  # type: ignore[attr-defined]
            request.meta["whatwg_encoding"] = {"encoding": encoding.name, "source": source}
            return response.text

        call.request = request  # type: ignore[attr-defined]
        return call

    def errors(self) -> int:
        return 0


def alternate(sides: tuple[Callable[[], Callable[[], object]], Callable[[], Callable[[], object]]], repeat: int,
              first: int = 0) -> tuple[int, int]:
    """``(ns of side 0, ns of side 1)``: best of *repeat* timed calls each, the two sides alternating
    which goes first (side 0 first if *first* is even). Each side makes its timed call afresh
    (untimed: a new response, say) for every call."""
    clock = time.perf_counter_ns
    best = [sys.maxsize, sys.maxsize]
    for i in range(repeat):
        for side in ((0, 1) if (first + i) % 2 == 0 else (1, 0)):
            call = sides[side]()
            start = clock()
            call()
            elapsed = clock() - start
            best[side] = min(best[side], elapsed)
    return best[0], best[1]


def best_pair(page: Page, ours: Ours | Layer, repeat: int, first: int = 0) -> tuple[int, int]:
    """``(Scrapy ns, ours ns)`` on fresh responses of *page* (see :func:`alternate`)."""
    return alternate((lambda: scrapy_side(page), lambda: ours.side(page)), repeat, first)


@dataclasses.dataclass
class Checks:
    text: int = 0  # ours' text is the WHATWG decode with its decision
    true: int = 0  # ours' decision is the true encoding
    differs: int = 0  # Scrapy's text is not ours
    guessed: list = dataclasses.field(default_factory=list)  # per page: Scrapy alone runs its statistical guess
    sources: dict = dataclasses.field(default_factory=dict)  # decision source → pages


def check(pages: list[Page], ours: Ours | Layer) -> Checks:
    """Run both sides once on each page and compare (not timed)."""
    from scrapy_whatwg_encoding import ENCODINGS, decode
    from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_encoding

    checks = Checks()
    for page in pages:
        call = ours.side(page)
        text = call()
        decision = call.request.meta["whatwg_encoding"]  # type: ignore[attr-defined]
        if not isinstance(decision, dict):
            decision = decision.as_dict()
        checks.sources[decision["source"]] = checks.sources.get(decision["source"], 0) + 1
        checks.text += text == decode(page.body, ENCODINGS[decision["encoding"]])[0]
        checks.true += decision["encoding"] == page.encoding
        checks.differs += scrapy_side(page)() != text
        checks.guessed.append(scrapy_encoding(page.content_type, page.body, True) is None)
    return checks


def measure(classes: dict[str, list[Page]], ours: Ours | Layer, runs: int, repeat: int,
            progress: Callable[[str], None] | None = None) -> dict[str, list[list[tuple[int, int]]]]:
    """``{class: [run: [(Scrapy ns, ours ns) per page]]}``; the runs interleave all classes' pages."""
    times: dict[str, list[list[tuple[int, int]]]] = {cls: [] for cls in classes}
    for run in range(runs):
        for cls, pages in classes.items():
            times[cls].append([best_pair(page, ours, repeat, run + i) for i, page in enumerate(pages)])
        if progress:
            progress(f"run {run + 1}/{runs} done")
    return times


def summarize(pairs_by_run: list[list[tuple[int, int]]], left_out: list[bool] | None = None) -> dict[str, float]:
    """µs per page (median of runs), the ratio ours / Scrapy of the class totals (median, min, max
    over runs), the median over pages of each page's ratio (its median time over runs, each side)
    with its quartiles, and that median without the pages *left_out* marks (``nan`` if none is left)."""
    pages = len(pairs_by_run[0])
    scrapy = [sum(s for s, _ in run) for run in pairs_by_run]
    ours = [sum(o for _, o in run) for run in pairs_by_run]
    ratios = [o / s for s, o in zip(scrapy, ours)]
    per_page = [statistics.median(run[i][1] for run in pairs_by_run) /
                statistics.median(run[i][0] for run in pairs_by_run) for i in range(pages)]
    kept = [ratio for i, ratio in enumerate(per_page) if not (left_out and left_out[i])]
    quartiles = statistics.quantiles(per_page, n=4) if pages > 1 else per_page * 3
    return {"scrapy_us": statistics.median(scrapy) / pages / 1000, "ours_us": statistics.median(ours) / pages / 1000,
            "ratio": statistics.median(ratios), "low": min(ratios), "high": max(ratios),
            "page_ratio": statistics.median(per_page), "page_q1": quartiles[0], "page_q3": quartiles[2],
            "kept_ratio": statistics.median(kept) if kept else nan}


def comparison_cost(pages: list[Page], repeat: int) -> dict[str, float]:
    """What the "differs from Scrapy alone" statistic costs on *pages*, against Scrapy's per-page
    cost (``.encoding`` + ``.text``), each call timed on fresh facts (a decision and its text, as the
    middleware has them; not timed), best of *repeat*: ``judge`` — :meth:`Comparisons.judge`
    without a replay (the page known from its facts, or left not compared), per-page median
    ratio; ``replay`` — :func:`scrapy_default.replay` on the pages that need one, mean ratio;
    ``crawl`` — the statistic's total over these pages crawled once in order with the default
    sample (the first ``COMPARE_FIRST`` needing pages replayed, then one in ``COMPARE_EVERY``) over
    Scrapy's total; ``steady`` — the same past the first ``COMPARE_FIRST`` (one replay in
    ``COMPARE_EVERY``); ``known`` and ``replays``: pages known without a replay, pages needing one."""
    from scrapy.http import HtmlResponse

    from scrapy_whatwg_encoding.scrapy import scrapy_default
    from scrapy_whatwg_encoding.sniffing.decide import Options

    options, clock = Options(), time.perf_counter_ns

    def fresh(page: Page):
        response = HtmlResponse(page.url, headers=page.headers, body=page.body)
        decision, _, facts = options.decide(page.body, page.content_type, page.url)
        facts.text(decision.encoding)
        return response, page.content_type, facts, decision

    def best(call: Callable[..., object], page: Page) -> int:
        times = []
        for _ in range(repeat):
            args = fresh(page)
            start = clock()
            call(*args)
            times.append(clock() - start)
        return min(times)

    def scrapy_side_call(response) -> str:
        response.encoding  # noqa: B018 — Scrapy's own inference
        return response.text

    scrapy, judged, replays, needs = [], [], [], []
    for page in pages:
        scrapy.append(best(lambda response, *_: scrapy_side_call(response), page))
        probe = scrapy_default.Comparisons(first=0, every=sys.maxsize)  # never replays
        probe.judge(*fresh(page))
        needs.append(probe.replays.total() == 1)
        judged.append(best(scrapy_default.Comparisons(first=0, every=sys.maxsize).judge, page))
        replays.append(best(scrapy_default.replay, page) if needs[-1] else 0)
    first, every = scrapy_default.COMPARE_FIRST, scrapy_default.COMPARE_EVERY
    crawl, steady, seen = 0.0, 0.0, 0
    for judge, replay, need in zip(judged, replays, needs):
        sampled = need and (seen < first or (seen - first + 1) % every == 0)
        seen += need
        crawl += replay if sampled else judge
        steady += judge + (replay / every if need else 0)
    replayed = [r / s for r, s, n in zip(replays, scrapy, needs) if n]
    return {"known": len(pages) - sum(needs), "replays": sum(needs),
            "judge": statistics.median(j / s for j, s in zip(judged, scrapy)),
            "replay": statistics.mean(replayed) if replayed else nan,
            "crawl": crawl / sum(scrapy), "steady": steady / sum(scrapy)}


def profile(pages: list[Page], ours: Ours | Layer, rounds: int, scrapy: bool = False, top: int = 25) -> str:
    """cProfile over the timed call only (ours, or Scrapy's with *scrapy*), *rounds* times over
    *pages*: the *top* functions by own time, in µs and calls per page."""
    profiler = cProfile.Profile()
    for _ in range(rounds):
        for page in pages:
            call = scrapy_side(page) if scrapy else ours.side(page)
            profiler.enable()
            call()
            profiler.disable()
    stats = pstats.Stats(profiler)
    entries = stats.stats  # type: ignore[attr-defined]
    n = rounds * len(pages)
    total = sum(tottime for _, _, tottime, _, _ in entries.values())
    rows = sorted(entries.items(), key=lambda item: -item[1][2])[:top]
    lines = [(f"cProfile of {'Scrapy' if scrapy else 'ours'}: {len(pages)} pages × {rounds} rounds; "
              f"{1e6 * total / n:.1f} µs/page in all (profiled: slower than timed)"),
             f"  {'own µs/page':>11} {'share':>6} {'cum µs/page':>11} {'calls/page':>10}  function"]
    for (path, line, function), (_, calls, tottime, cumtime, _) in rows:
        where = f"{_short(path)}:{line}({function})" if line else function
        lines.append(f"  {1e6 * tottime / n:>11.2f} {100 * tottime / total:>5.1f}% {1e6 * cumtime / n:>11.2f} "
                     f"{calls / n:>10.2f}  {where}")
    return "\n".join(lines)


def _short(path: str) -> str:
    for marker in ("scrapy_whatwg_encoding/", "site-packages/"):
        if marker in path:
            return path.split(marker, 1)[1] if marker == "site-packages/" else marker + path.split(marker, 1)[1]
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="interleaved runs (default 5)")
    parser.add_argument("--repeat", type=int, default=5, help="calls per page and run, the best counts (default 5)")
    parser.add_argument("--only", choices=sorted(CLASSES), action="append", help="a class (repeatable)")
    parser.add_argument("--layer", choices=("middleware", "sniffing", "floor"), default="middleware",
                        help="ours: the middlewares (default), the sniffing layer's calls alone, or the floor "
                             "(the standard's steps called directly: see Floor)")
    parser.add_argument("--profile", choices=sorted(CLASSES), metavar="CLASS",
                        help="profile ours on CLASS instead of timing")
    parser.add_argument("--profile-scrapy", action="store_true", help="with --profile: profile Scrapy's side")
    parser.add_argument("--rounds", type=int, default=20, help="with --profile: rounds over the pages")
    parser.add_argument("--comparison", action="store_true",
                        help="time the \"differs from Scrapy alone\" statistic instead (see comparison_cost)")
    parser.add_argument("--shape", choices=("corpus", "real"), default="corpus",
                        help="the pages as the corpus has them (default) or with today's head (REAL_HEAD)")
    args = parser.parse_args(argv)
    if args.comparison:
        print_comparison_costs({cls: build_class(cls, shape=args.shape) for cls in (args.only or CLASSES)},
                               args.repeat)
        return

    native = sources()
    ours = {"middleware": Ours, "sniffing": Layer, "floor": Floor}[args.layer]()
    if args.profile:
        pages = build_class(args.profile, native, args.shape)
        check(pages, ours)  # warm: tables, caches, lazy imports
        print(f"class {args.profile} ({CLASSES[args.profile]}), {len(pages)} pages")
        print(profile(pages, ours, args.rounds, args.profile_scrapy))
        return
    classes = {cls: build_class(cls, native, args.shape) for cls in (args.only or CLASSES)}
    checks = {cls: check(pages, ours) for cls, pages in classes.items()}  # also warms up
    started = time.perf_counter()
    times = measure(classes, ours, args.runs, args.repeat,
                    lambda message: print(f"  ... {message} ({time.perf_counter() - started:.0f} s)", file=sys.stderr))
    assert ours.errors() == 0, "the middleware counted errors"
    side = {"middleware": "the add-on's middlewares + .text",
            "sniffing": "the sniffing layer's calls (decide, scrapy_encoding, changed, text)",
            "floor": "the floor (the standard's steps called directly, the decode, the response's state)"}[args.layer]
    print(f"Per response, Scrapy .encoding + .text vs {side} ({args.runs} interleaved runs × best of "
          f"{args.repeat}; ratio < 1.00: ours is cheaper)")
    print(f"  {'class':<27} {'per-page':>8} {'(q1-q3)':>11}  {'pages':>5} {'B/page':>7} {'Scrapy µs':>9} "
          f"{'ours µs':>8} {'total':>5} {'(min-max)':>11} {'guess':>5} {'w/o':>5}  {'text':>7} {'true':>7} "
          f"{'≠Scrapy':>7}")
    for cls, pages in classes.items():
        c = checks[cls]
        s = summarize(times[cls], c.guessed)
        size = sum(len(page.body) for page in pages) // len(pages)
        n = len(pages)
        kept = "-" if isnan(s["kept_ratio"]) else f"{s['kept_ratio']:.2f}"
        print(f"  {cls}. {CLASSES[cls]:<24} {s['page_ratio']:>8.2f} {s['page_q1']:>5.2f}-{s['page_q3']:<5.2f}  "
              f"{n:>5} {size:>7} {s['scrapy_us']:>9.1f} {s['ours_us']:>8.1f} {s['ratio']:>5.2f} "
              f"{s['low']:>5.2f}-{s['high']:<5.2f} {sum(c.guessed):>5} {kept:>5}  {c.text:>3}/{n:<3} "
              f"{c.true:>3}/{n:<3} {c.differs:>7}")
    decided = "; ".join(f"{cls}: " + ", ".join(f"{source} {n}" for source, n in sorted(c.sources.items()))
                        for cls, c in checks.items())
    print(f"  decided by: {decided}")
    print(f"  ({time.perf_counter() - started:.0f} s of timing)")


def print_comparison_costs(classes: dict[str, list[Page]], repeat: int) -> None:
    """The table of :func:`comparison_cost` per class (ratios to Scrapy's per-page cost)."""
    print(f"The \"differs from Scrapy alone\" statistic against Scrapy's .encoding + .text (best of {repeat}; "
          "ratios to Scrapy's cost)")
    print(f"  {'class':<27} {'pages':>5} {'known':>5} {'replay':>6}  {'judge':>6} {'replay':>6} {'crawl':>6} "
          f"{'steady':>6}")
    for cls, pages in classes.items():
        c = comparison_cost(pages, repeat)
        replay = "-" if isnan(c["replay"]) else f"{c['replay']:.2f}"
        print(f"  {cls}. {CLASSES[cls]:<24} {len(pages):>5} {c['known']:>5} {c['replays']:>6}  {c['judge']:>6.3f} "
              f"{replay:>6} {c['crawl']:>6.3f} {c['steady']:>6.3f}")


if __name__ == "__main__":
    main()
