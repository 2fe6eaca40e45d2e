"""``python -m scrapy_whatwg_encoding audit DIR`` through the real entry point, over the public
corpus (``tests/data/corpus``) with its manifest: every record is checked against ``sniff``, Scrapy
and the true encodings, and the summary against the records."""
from __future__ import annotations

import csv
import io
import json
import pathlib
import subprocess
import sys
from collections import Counter

import pytest

from scrapy_whatwg_encoding import ENCODINGS, decode, sniff

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "corpus"
pytestmark = pytest.mark.slow  # a process per test (the real entry point)
# Without a Content-Type, a file's name chooses the kind (a MIME type without charset stands for it).
KINDS = {".xml": "xml", ".rss": "xml", ".atom": "xml", ".svg": "xml", ".xhtml": "xml", ".txt": "text"}
MIME = {"xml": "application/xml", "text": "text/plain", "html": "text/html"}


def kind_of(path: str) -> str:
    return KINDS.get(pathlib.PurePath(path).suffix.lower(), "html")


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy_whatwg_encoding", "audit", *map(str, args)],
                          check=False, capture_output=True, text=True, encoding="utf-8", timeout=300)


@pytest.fixture(scope="module")
def manifest():
    return json.loads((CORPUS / "manifest.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def corpus_report():
    done = run(CORPUS, "--manifest", "manifest.json", "--json")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return json.loads(done.stdout)


def test_every_page_is_decided_as_sniff_does(corpus_report, manifest):
    pages = corpus_report["pages"]
    assert [p["path"] for p in pages] == [e["path"] for e in manifest]
    assert corpus_report["unreadable"] == []
    for page, entry in zip(pages, manifest):
        body = (CORPUS / entry["path"]).read_bytes()
        kind = kind_of(entry["path"])
        decision = sniff(body, content_type=MIME[kind])
        assert {k: page[k] for k in ("encoding", "confidence", "source", "label", "offset")} == decision.as_dict()
        assert page["bytes"] == len(body) and page["content_type"] is None
        assert page["kind"] == kind and page["kind_from"].endswith("; --content-type overrides")
        assert page["source"] != "transport"  # the stand-in MIME type carries no charset
        assert page["expected"] == entry["encoding"] and page["source_label"] == entry["source_label"]
        if entry["encoding"] is None:
            assert page["correct"] is None and page["scrapy_correct"] is None
        else:
            truth = decode(body, ENCODINGS[entry["encoding"]])[0]
            assert page["correct"] == (decode(body, decision.encoding)[0] == truth)
            assert page["exact"] == (decision.encoding.name == entry["encoding"])


def test_summary_matches_the_records(corpus_report, manifest):
    summary, pages = corpus_report["summary"], corpus_report["pages"]
    assert summary["pages"] == len(manifest)
    assert summary["by_kind"] == dict(Counter(kind_of(e["path"]) for e in manifest))
    assert summary["by_kind"]["xml"] > 100 and summary["by_kind"]["text"] > 10  # feeds and text files
    groups = Counter((p["source"], p["encoding"]) for p in pages)
    assert {(r["source"], r["encoding"]): r["pages"] for r in summary["by_source_encoding"]} == groups
    assert summary["scrapy_differs"] == sum(not p["scrapy_same_text"] for p in pages)
    assert summary["scrapy_differs"] == sum(r["scrapy_differs"] for r in summary["by_source_encoding"])
    accuracy = summary["accuracy"]
    judged = [e for e in manifest if e["encoding"] is not None]
    assert accuracy["judged"] == len(judged)
    assert accuracy["correct"] == sum(p["correct"] for p in pages if p["expected"])
    assert sum(r["pages"] for r in accuracy["by_expected"]) == len(judged)
    unknown = [e for e in manifest if e["encoding"] is None]
    assert summary["no_web_encoding"]["pages"] == len(unknown)
    assert summary["no_web_encoding"]["source_labels"] == dict(Counter(e["source_label"] for e in unknown))
    # The point of the package: at least as many pages right as Scrapy alone, and most of them.
    assert accuracy["correct"] >= accuracy["scrapy_correct"]
    assert accuracy["correct"] >= 0.9 * accuracy["judged"]


def test_scrapy_inference_is_scrapys_own(corpus_report):
    from scrapy.http import Headers
    from scrapy.responsetypes import responsetypes

    differing = [p for p in corpus_report["pages"] if not p["scrapy_same_text"]]
    assert differing  # the corpus has pages Scrapy alone decodes differently
    for page in differing[:10]:
        file = CORPUS / page["path"]
        body = file.read_bytes()
        cls = responsetypes.from_args(headers=Headers(), url=file.resolve().as_uri(), body=body)
        assert page["scrapy_class"] == cls.__name__
        if page["scrapy_encoding"] is not None:
            response = cls(file.resolve().as_uri(), body=body)
            assert response.encoding == page["scrapy_encoding"]
            assert response.text != decode(body, ENCODINGS[page["encoding"]])[0]


def test_content_type_from_manifest(manifest):
    done = run(CORPUS, "--manifest", CORPUS / "manifest.json", "--content-type-from", "manifest", "--csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert len(rows) == len(manifest)
    for row, entry in zip(rows, manifest):
        label = entry["encoding"] or entry["source_label"]
        assert row["content_type"] == f"text/html; charset={label}"
        assert row["kind"] == "html" and row["kind_from"] == "from --content-type-from manifest"
        body = (CORPUS / entry["path"]).read_bytes()
        assert row["encoding"] == sniff(body, content_type=row["content_type"]).encoding.name
        if entry["encoding"] is not None:
            # The true charset in the header: the transport layer decides unless a BOM does,
            # and the text is the true text either way.
            assert row["source"] in ("transport", "bom") and row["correct"] == "True"


def test_text_table(manifest):
    done = run(CORPUS, "--manifest", "manifest.json", "--no-progress")
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    judged = sum(e["encoding"] is not None for e in manifest)
    unknown = len(manifest) - judged
    assert f"{len(manifest)} pages" in out and f"({judged} pages with a Web encoding" in out
    kinds = Counter(kind_of(e["path"]) for e in manifest)
    assert (f"Document kinds: XML {kinds['xml']}, plain text {kinds['text']}, HTML {kinds['html']} "
            "(from each file's name; --content-type overrides)") in out
    assert f"No Web encoding (manifest encoding null, not judged): {unknown} pages" in out
    assert "Pages that differ from Scrapy alone" in out


def test_directory_without_manifest(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.html").write_bytes(b"<meta charset=euc-kr><p>\xb0\xa1</p>")
    (tmp_path / "two.html").write_bytes(b"\xff\xfe<\x00p\x00>\x00")
    (tmp_path / "three").write_bytes(b"\x01\x02<p>x</p>")
    (tmp_path / ".hidden").write_bytes(b"ignored")
    done = run(tmp_path, "--json")
    report = json.loads(done.stdout)
    assert [p["path"] for p in report["pages"]] == ["a/one.html", "two.html"]
    assert [p["encoding"] for p in report["pages"]] == ["EUC-KR", "UTF-16LE"]
    assert report["summary"]["accuracy"] is None and report["manifest"] is None
    assert report["pages"][1]["scrapy_encoding"] == "utf-16-le" and report["pages"][1]["scrapy_same_text"]
    # Scrapy alone takes control bytes without a type or an extension for binary, and a crawl leaves
    # such a response alone: the audit skips it too, and says so.
    assert report["skipped"] == [
        {"path": "three", "skipped": "not HTML, XML or text: Scrapy reads the body as binary (Response)"}]


def test_what_a_crawl_skips_is_skipped(tmp_path):
    """Issue 19: PDF, JSON and image files are not decided as HTML (a crawl skips them)."""
    (tmp_path / "doc.pdf").write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >>\n")
    (tmp_path / "data.json").write_bytes('{"name": "café"}'.encode())
    (tmp_path / "pixel.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (tmp_path / "pixel-without-extension").write_bytes(b"GIF89a\x01\x00\x01\x00\x80\x00\x00")
    (tmp_path / "page.html").write_bytes(b"<p>caf\xe9")
    done = run(tmp_path, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [p["path"] for p in report["pages"]] == ["page.html"] and report["summary"]["pages"] == 1
    assert {p["path"]: p["skipped"] for p in report["skipped"]} == {
        "data.json": "not HTML, XML or text: the MIME type is application/json",
        "doc.pdf": "not HTML, XML or text: the MIME type is application/pdf",
        "pixel.png": "not HTML, XML or text: the MIME type is image/png",
        "pixel-without-extension": "not HTML, XML or text: Scrapy reads the body as binary (Response)",
    }
    text = run(tmp_path).stdout
    assert "Skipped (a crawl leaves them as Scrapy made them): 4" in text
    assert "  doc.pdf: not HTML, XML or text: the MIME type is application/pdf" in text
    assert "GBK" not in text and "doc.pdf  " not in text
    # A Content-Type given for every page decides instead (the MIME type of --content-type).
    report = json.loads(run(tmp_path, "--json", "--content-type", "application/json").stdout)
    assert report["pages"] == [] and len(report["skipped"]) == 5


def test_kind_from_file_names_and_content_type(tmp_path):
    feed = b'<?xml version="1.0" encoding="koi8-r"?><rss><title>\xf0\xd2\xc9</title></rss>'
    (tmp_path / "feed.rss").write_bytes(feed)
    (tmp_path / "page.html").write_bytes(feed)
    (tmp_path / "notes.txt").write_bytes(b"<meta charset=koi8-r>plain")
    done = run(tmp_path, "--csv", "--detector", "off")
    assert done.returncode == 0, done.stderr
    rows = {row["path"]: row for row in csv.DictReader(io.StringIO(done.stdout))}
    assert [rows[p]["kind"] for p in ("feed.rss", "notes.txt", "page.html")] == ["xml", "text", "html"]
    assert rows["feed.rss"]["kind_from"] == "from the file name .rss; --content-type overrides"
    # The same bytes: certain by XML rules (as a crawl of the feed decides), tentative by HTML rules.
    assert (rows["feed.rss"]["source"], rows["feed.rss"]["confidence"]) == ("xml-declaration", "certain")
    assert (rows["page.html"]["source"], rows["page.html"]["confidence"]) == ("xml-declaration", "tentative")
    assert (rows["notes.txt"]["encoding"], rows["notes.txt"]["source"]) == ("windows-1252", "default")  # no prescan
    # One Content-Type for every page instead.
    report = json.loads(run(tmp_path, "--json", "--content-type", "text/html").stdout)
    assert {p["kind"] for p in report["pages"]} == {"html"} and report["content_type"] == "text/html"
    assert {p["kind_from"] for p in report["pages"]} == {"from --content-type"}
    assert all(p["content_type"] == "text/html" for p in report["pages"])
    assert "Document kinds: HTML 3 (from --content-type)" in run(tmp_path, "--content-type", "text/html").stdout


@pytest.mark.parametrize("args, code, message", [
    (["/no/such/dir"], 1, "no such directory"),
    ([CORPUS, "--manifest", "nothere.json"], 1, "nothere.json: no such manifest file"),
    ([CORPUS, "--content-type-from", "manifest"], 2, "needs --manifest"),
    ([CORPUS, "--locale", "?"], 2, "--locale"),
    ([CORPUS, "--manifest", "manifest.json", "--content-type-from", "manifest", "--content-type", "text/html"], 2,
     "exclude each other"),
])
def test_errors(args, code, message):
    done = run(*args)
    assert done.returncode == code and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr


def test_bad_manifest(tmp_path):
    (tmp_path / "manifest.json").write_text('[{"path": "x.html", "encoding": "latin1"}]')
    done = run(tmp_path, "--manifest", tmp_path / "manifest.json")
    assert done.returncode == 1 and "'latin1' is not the name of an encoding" in done.stderr
    assert run(tmp_path, "--json", "--csv").returncode == 2


@pytest.mark.parametrize("hide", [False, True])
def test_progress_bar_on_a_terminal_only(tmp_path, hide):
    import os

    for n in range(3):
        (tmp_path / f"{n}.html").write_bytes(b"<p>x</p>")
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()  # stderr is a terminal (80 columns): tqdm shows its bar there
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    try:
        done = subprocess.run([sys.executable, "-m", "scrapy_whatwg_encoding", "audit", str(tmp_path), "--json",
                               *(["--no-progress"] if hide else [])],
                              check=False, stdout=subprocess.PIPE, stderr=slave, timeout=120)
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the terminal's other end is closed
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(master)
    assert done.returncode == 0 and len(json.loads(done.stdout)["pages"]) == 3
    terminal = b"".join(chunks).decode("utf-8", "replace")
    assert ("audit:" in terminal and "/3 [" in terminal) is not hide
