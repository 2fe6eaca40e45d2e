"""What a crawl compares with Scrapy alone (``scrapy_default.Comparisons``): the same answer as the
``audit`` command on the same pages (a real crawl against a local server, then the command line on
the files it served), each page known without a replay where the decision's facts tell Scrapy's
codec, and a sample of the others replayed (the first ``first`` per source, then one in ``every``),
which the closing summary and the report name."""
from __future__ import annotations

import json
import logging
import subprocess
import sys

import pytest
import pytest_twisted
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy.http import HtmlResponse
from whatwg_crawl_helpers import Server, SiteMap, crawl, whatwg_stats

from scrapy_whatwg_encoding import decode, get_encoding
from scrapy_whatwg_encoding.scrapy import scrapy_default
from scrapy_whatwg_encoding.sniffing.decide import Options

# Unlabeled pages (text/html without charset): Scrapy alone guesses (charset-normalizer); the
# add-on's detector gives the true encoding. On three of them Scrapy's guess gives another text.
UNLABELED = {
    "fr.html": ("<title>Élève</title><p>L’œuvre coûte 5 € — « déjà vu » naïve façade</p>", "windows-1252"),
    "pl.html": ("<p>Zażółć gęślą jaźń</p>", "iso-8859-2"),
    "tr.html": ("<p>Şişli’de ığdır ve çağ</p>", "windows-1254"),
    "fr-same.html": ("<p>Le cœur a ses raisons, ça coûte une œuvre à Noël</p>", "windows-1252"),
    "ua.html": ("<p>Ґанок і їжак, Європа</p>", "windows-1251"),
}
# Labeled pages, compared without a replay (the header charset or the <meta> read off the decision).
LABELED = {
    "header.html": ("text/html; charset=windows-1252", "<p>caf\u00e9 \u0081</p>".encode("latin-1")),
    "meta.html": ("text/html", '<meta charset="koi8-r"><p>Привет</p>'.encode("koi8-r")),
}


@pytest.fixture(scope="module")
def pages_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("compare")
    pages = {}
    for path, (text, encoding) in UNLABELED.items():
        (root / path).write_bytes(text.encode(encoding))
        pages[path] = {"content_type": "text/html", "expect": get_encoding(encoding).name}
    for path, (content_type, body) in LABELED.items():
        (root / path).write_bytes(body)
        pages[path] = {"content_type": content_type, "expect": None}
    (root / "pages.json").write_text(json.dumps(pages), "utf-8")
    return root


@pytest.fixture(scope="module")
def compare_server(pages_dir):
    server = Server(SiteMap.load(pages_dir))
    yield server
    server.port.stopListening()


def audit_differs(directory, paths, content_type: str) -> dict[str, bool]:
    """``audit``'s "differs from Scrapy alone" per page (the command line, Scrapy itself run)."""
    done = subprocess.run([sys.executable, "-m", "scrapy_whatwg_encoding", "audit", str(directory), "--json",
                           "--no-progress", "--content-type", content_type], capture_output=True, text=True,
                          check=True)
    report = json.loads(done.stdout)
    return {page["path"]: not page["scrapy_same_text"] for page in report["pages"] if page["path"] in paths}


@pytest_twisted.inlineCallbacks
def test_crawl_and_audit_agree_on_unlabeled_pages(compare_server, pages_dir, tmp_path, caplog):
    report = tmp_path / "report.html"
    caplog.set_level(logging.INFO, logger="scrapy_whatwg_encoding")
    crawler, responses = yield crawl([compare_server.url(p) for p in UNLABELED],
                                     settings={"WHATWG_ENCODING_REPORT": str(report)})
    stats = whatwg_stats(crawler)
    audited = audit_differs(pages_dir, set(UNLABELED), "text/html")
    assert len(audited) == len(UNLABELED) == len(responses)
    differ = sum(audited.values())
    assert differ == 3  # fr, pl, tr: Scrapy's guess gives another text
    for response in responses:  # the add-on decoded each with its true encoding
        text, encoding = UNLABELED[response.url.rsplit("/", 1)[1]]
        assert response.text == text == decode(response.body, get_encoding(encoding))[0]
    assert stats["whatwg_encoding/responses"] == len(UNLABELED)
    assert stats["whatwg_encoding/changed_from_scrapy_default"] == differ
    assert "whatwg_encoding/scrapy_default_unknown" not in stats  # every page compared
    summary = next(r.getMessage() for r in caplog.records if r.getMessage().startswith("WHATWG encoding summary"))
    assert f"{len(UNLABELED)} responses decided, {differ} differ from Scrapy alone, 0 not compared" in summary
    assert "compared with Scrapy alone:" not in summary  # said only when some page was not compared
    document = report.read_text("utf-8")
    assert f"<b>{differ}</b>differs from Scrapy alone" in document


@pytest_twisted.inlineCallbacks
def test_crawl_and_audit_agree_on_labeled_pages(compare_server, pages_dir):
    crawler, _ = yield crawl([compare_server.url(p) for p in LABELED])
    stats = whatwg_stats(crawler)
    differs = 0
    for path, (content_type, _) in LABELED.items():
        differs += audit_differs(pages_dir, {path}, content_type)[path]
    assert differs == 1  # header.html: 0x81 is U+0081 in windows-1252, U+FFFD in Python's cp1252
    assert stats["whatwg_encoding/changed_from_scrapy_default"] == differs
    assert "whatwg_encoding/scrapy_default_unknown" not in stats


def _judge(comparisons, body: bytes, content_type: str, url: str = "http://a.test/"):
    response = HtmlResponse(url, body=body, headers={"Content-Type": content_type})
    decision, _, facts = Options().decide(body, content_type, url)
    return comparisons.judge(response, content_type, facts, decision), response, decision, facts


def _scrapys_text(body: bytes, content_type: str) -> str:
    return HtmlResponse("http://a.test/", body=body, headers={"Content-Type": content_type}).text


@pytest.mark.parametrize(("body", "content_type"), [
    ("<p>caf\u00e9</p>".encode(), "text/html; charset=utf-8"),
    ("<p>caf\u00e9 \u0081</p>".encode("latin-1"), "text/html; charset=windows-1252"),
    ("<p>caf\u00e9</p>".encode("latin-1"), "text/html; charset=iso-8859-1"),
    ('<meta charset="koi8-r"><p>Привет</p>'.encode("koi8-r"), "text/html"),
    ('<?xml version="1.0" encoding="windows-1251"?><p>Привет</p>'.encode("cp1251"), "text/html"),
    ("<p>Привет</p>".encode("cp1251"), "text/html; charset=utf-8"),
])
def test_known_without_a_replay(body, content_type):
    comparisons = scrapy_default.Comparisons(first=0, every=10**9)  # no replay at all
    verdict, _, decision, facts = _judge(comparisons, body, content_type)
    assert comparisons.replays.total() == 0 and verdict[0] is not None
    assert verdict[0] == (_scrapys_text(body, content_type) != facts.text(decision.encoding))


_CONTENT_TYPES = st.sampled_from(["text/html; charset=utf-8", "text/html; charset=UTF-8", "text/html; charset=windows-1252",
                                  "text/html; charset=iso-8859-1", "text/html; charset=koi8-r", "text/html; charset=gbk",
                                  "text/html; charset=utf-16", "text/html"])
_BODIES = st.lists(st.sampled_from([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00",
                                    b"<p>", "é".encode(), b"\xe9", b"\x81", b"\x80", b"\x00", "Привет".encode("koi8-r"),
                                    "中文".encode("gbk"), b'<meta charset="koi8-r">']), max_size=6).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_BODIES, _CONTENT_TYPES), min_size=1, max_size=8))
def test_a_pair_judged_before_is_judged_as_the_first_time(pages):
    """What a crawl's comparison learned from earlier pages (a Content-Type whose charset's codec
    decodes as the decided encoding) gives each page the verdict a fresh comparison gives it."""
    crawl = scrapy_default.Comparisons(first=0, every=10**9)
    for body, content_type in pages:
        verdict, *_ = _judge(crawl, body, content_type)
        assert verdict == _judge(scrapy_default.Comparisons(first=0, every=10**9), body, content_type)[0]


def test_sample_of_the_pages_that_need_a_replay():
    """Unlabeled legacy pages need Scrapy's guess: the first 3, then every 4th, are replayed."""
    comparisons = scrapy_default.Comparisons(first=3, every=4)
    body, content_type = UNLABELED["pl.html"][0].encode("iso-8859-2"), "text/html"
    compared = []
    for i in range(16):
        verdict, *_ = _judge(comparisons, body, content_type, f"http://a.test/{i}")
        compared.append(verdict[0] is not None)
        if verdict[0] is not None:  # Scrapy itself ran: its encoding (its guess differs between releases) and text
            alone = HtmlResponse("http://a.test/", body=body, headers={"Content-Type": content_type})
            assert verdict == (True, alone.encoding, alone.text)
    assert [i for i, c in enumerate(compared) if c] == [0, 1, 2, 6, 10, 14]
    assert comparisons.replays == {"detector": 16} and comparisons.replayed == 6
    assert "the first 3 per decision source, then 1 in 4" in comparisons.describe()


def test_summary_says_what_was_compared():
    from scrapy_whatwg_encoding.scrapy.stats import Stats

    stats = Stats(None, logging.DEBUG)
    stats.comparisons = scrapy_default.Comparisons(first=1, every=100)
    body, content_type = UNLABELED["pl.html"][0].encode("iso-8859-2"), "text/html"
    for i in range(3):
        verdict, _, decision, _ = _judge(stats.comparisons, body, content_type, f"http://a.test/{i}")
        stats.decision(f"http://a.test/{i}", decision, verdict[0])
    summary = stats.summary()
    assert "3 responses decided, 1 differ from Scrapy alone, 2 not compared" in summary
    assert "the first 1 per decision source, then 1 in 100, by replaying Scrapy's inference (1 pages)" in summary


# (Scrapy's codec, the decided encoding): single-byte pairs of one family and of two, multi-byte,
# ASCII-incompatible and codecs Python lacks an ASCII-alike family for.
PAIRS = [("cp1252", "windows-1252"), ("cp1251", "windows-1252"), ("iso8859-8", "ISO-8859-8-I"),
         ("cp874", "windows-874"), ("koi8-r", "KOI8-U"), ("utf-8", "windows-1252"), ("cp1252", "UTF-8"),
         ("cp932", "Shift_JIS"), ("gb18030", "GBK"), ("euc_jp", "EUC-JP"), ("big5hkscs", "Big5"),
         ("utf-16-le", "UTF-8"), ("cp1252", "UTF-16LE"), ("iso2022_jp", "ISO-2022-JP"), ("utf-7", "windows-1252")]
_PIECES = st.sampled_from([b"<p>", b"a", b"\x81", b"\x8d", b"\x9d", b"\xa4", b"\xe9", b"\xef\xbb\xbf", b"\xff\xfe",
                           b"\xc3\xa9", b"\x82\xa0", b"\x8f\xa2\xb7", b"\xa1\xa4", b"\x1b$B", b"+AGE-", b"\xfe\xfe"])


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(PAIRS), st.lists(_PIECES, max_size=40).map(b"".join), st.integers(1, 200))
def test_report_decodes_only_the_rest_of_scrapys_text(pair, body, after):
    """The passage the report finds from Scrapy's text decoded from ``skip`` on is the one of the
    whole texts (skip: the first byte that decodes differently, or the first non-ASCII byte)."""
    from scrapy_whatwg_encoding.report import first_difference
    from scrapy_whatwg_encoding.sniffing.body import Body

    name, label = pair
    encoding = get_encoding(label)
    facts = Body(body)
    ours = facts.text(encoding)
    whole = scrapy_default.scrapy_text(name, body)
    skip, part = scrapy_default.scrapy_text_from(name, encoding, facts, after + 2 * 40)
    assert ours[:skip] == whole[:skip] and whole[skip:].startswith(part)
    assert first_difference(ours, part, skip=skip) == first_difference(ours, whole)
