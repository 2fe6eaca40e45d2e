"""``python -m scrapy_whatwg_encoding explain PATH`` through the real entry point (a subprocess):
the steps in the standard's order, what each found (bytes and offsets checked against the body),
the decision (equal to ``sniff``), the texts, and the exit codes."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
from scrapy.http import HtmlResponse, XmlResponse

from scrapy_whatwg_encoding import ENCODINGS, decode, sniff

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
pytestmark = pytest.mark.slow  # a process per test (the real entry point)
ORDER = ["bom", "override", "transport", "prescan", "xml-declaration", "parser", "container",
         "likely", "detector", "default"]


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy_whatwg_encoding", *map(str, args)],
                          check=False, capture_output=True, text=True, encoding="utf-8", cwd=cwd, timeout=120)


def explain_json(path, *options) -> dict:
    done = run("explain", path, "--json", *options)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    report = json.loads(done.stdout)
    if report["skipped"] is not None:  # a crawl would skip it: no steps
        return report
    assert [row["step"] for row in report["steps"]] == ORDER
    assert sum(row["decisive"] for row in report["steps"]) in (1, 2)  # the first finding (+ parser)
    return report


def rows(report) -> dict:
    return {row["step"]: row for row in report["steps"]}


def write(tmp_path, body: bytes, name="page.html") -> pathlib.Path:
    path = tmp_path / name
    path.write_bytes(body)
    return path


@pytest.mark.parametrize(("option", "value"), [("--default", "iso-2022-kr"), ("--override", "hz-gb-2312"),
                                               ("--default", "latin-9000"), ("--override", "bogus")])
def test_labels_that_cannot_work_are_usage_errors(tmp_path, option, value):
    """Issue 21, item 7: as the settings they stand for, one line and exit status 2."""
    done = run("explain", write(tmp_path, b"<p>caf\xe9</p>"), option, value)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"error: {option}: invalid value {value!r} (")
    assert done.stderr.count("\n") == 1
    assert ("replacement encoding" in done.stderr) == (value in ("iso-2022-kr", "hz-gb-2312"))


def test_prescan_meta_offset_and_matched_bytes(tmp_path):
    meta = b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'
    body = b"<!doctype html><html><head><title>x</title>" + meta + b"</head><body>\xf0\xd2\xc9\xd7\xc5\xd4</body>"
    report = explain_json(write(tmp_path, body))
    prescan = rows(report)["prescan"]
    offset = body.index(b"<meta")
    assert prescan["found"] == {"encoding": "KOI8-R", "confidence": "tentative", "source": "prescan",
                                "label": "koi8-r", "offset": offset}
    assert prescan["offset"] == offset and prescan["matched"] == meta.decode("ascii")
    assert prescan["decisive"]
    # The parser step finds the same <meta> and makes the encoding certain.
    assert rows(report)["parser"]["offset"] == offset and rows(report)["parser"]["found"] is None
    assert report["decision"] == sniff(body).as_dict()
    assert report["decision"]["confidence"] == "certain"
    assert report["text"] == decode(body, ENCODINGS["KOI8-R"])[0][:200]
    assert "Привет" in report["text"]
    # Steps after the decisive one are shown but marked as not reached.
    assert not rows(report)["detector"]["reached"] and not rows(report)["default"]["reached"]
    assert rows(report)["bom"]["reached"] and rows(report)["transport"]["reached"]
    assert report["input"] == {"path": str(tmp_path / "page.html"), "bytes": len(body)}


def test_scrapy_difference_is_shown(tmp_path):
    # "utf-16" in a <meta> means UTF-8 (the prescan's rule); w3lib decodes the ASCII bytes as UTF-16.
    body = b'<html><head><meta charset="utf-16"></head><body>caf\xc3\xa9</body></html>'
    path = write(tmp_path, body)
    report = explain_json(path)
    assert report["decision"]["encoding"] == "UTF-8" and report["decision"]["label"] == "utf-16"
    assert report["text"].endswith("café</body></html>")
    scrapy = HtmlResponse(path.resolve().as_uri(), body=body)
    assert report["scrapy"]["encoding"] == scrapy.encoding
    assert report["scrapy"]["response_class"] == "HtmlResponse"
    assert report["scrapy"]["same_text"] is False
    assert report["scrapy"]["first_difference"] == 0
    assert report["scrapy"]["text"] == scrapy.text[:200]
    text = run("explain", path).stdout
    assert "differs from Scrapy alone (first difference at character 0)" in text
    assert "Text (Scrapy, first 200 characters)" in text


def test_same_text_as_scrapy_says_so(tmp_path):
    body = b"<meta charset=windows-1251><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>"
    report = explain_json(write(tmp_path, body))
    assert report["decision"]["encoding"] == "windows-1251"
    assert report["scrapy"]["same_text"] is True and report["scrapy"]["text"] is None
    assert report["scrapy"]["first_difference"] is None


def test_bom_wins_and_later_steps_are_not_reached(tmp_path):
    body = b"\xef\xbb\xbf<meta charset=windows-1252><p>\xc3\xa9</p>"
    report = explain_json(write(tmp_path, body), "--content-type", "text/html; charset=koi8-r")
    found = rows(report)
    assert found["bom"]["decisive"] and found["bom"]["matched"] == "\\xef\\xbb\\xbf" and found["bom"]["offset"] == 0
    assert found["transport"]["found"]["encoding"] == "KOI8-R" and not found["transport"]["reached"]
    assert found["prescan"]["found"]["encoding"] == "windows-1252" and not found["prescan"]["reached"]
    assert found["parser"]["note"].startswith("not run")
    assert report["decision"] == {"encoding": "UTF-8", "confidence": "certain", "source": "bom",
                                  "label": None, "offset": 0}
    assert report["text"] == "<meta charset=windows-1252><p>é</p>"  # BOM removed
    # The algorithm stops at the BOM: what autodetection or the default would give is no finding.
    assert found["detector"]["found"] is None and found["default"]["found"] is None
    text = run("explain", write(tmp_path, body), "--content-type", "text/html; charset=koi8-r").stdout
    lines = step_lines(text)
    assert lines[0].startswith("→  1. BOM sniff") and "EF BB BF → UTF-8" in lines[0]
    assert "not reached" in lines[2] and "charset='koi8-r' → KOI8-R" in lines[2]  # the header holds it
    assert "not reached" in lines[3] and "windows-1252" in lines[3]  # the <meta> in the body
    for line in (lines[1], lines[6], lines[7], lines[8], lines[9]):  # nothing from the inputs
        assert line.split(maxsplit=1)[1].endswith("not reached"), line
    assert "windows-1252" not in lines[9] and "default" in lines[9]
    assert "(not reached)" not in text and "not reached:" not in text  # said once per row
    assert text.count("not reached") == 8


def step_lines(text: str) -> list[str]:
    """The ten step lines of a text explanation, in order."""
    lines = [line for line in text.splitlines() if line[2:5].strip().rstrip(".").isdigit()]
    assert len(lines) == 10, text
    return lines


@pytest.mark.parametrize("options, decisive", [([], 1), (["--detector", "off"], 10), (["--likely", "koi8-r"], 8)])
def test_step_lines_are_aligned(tmp_path, options, decisive):
    body = b"<p>plain ASCII</p>"
    lines = step_lines(run("explain", write(tmp_path, body if decisive != 1 else b"\xff\xfe<\x00"),
                           *options).stdout)
    for number, line in enumerate(lines, 1):
        mark = "→" if number == decisive else " "
        assert line.startswith(f"{mark} {number:>2}. "), line
        assert line[6:].startswith(("BOM", "user", "transport", "prescan", "XML", "parser", "container",
                                    "likely", "autodetection", "default"))
        assert line[38] != " " and line[37] == " ", line  # the encoding column starts at 38


def test_transport_and_override(tmp_path):
    body = b"<meta charset=koi8-r><p>\x82\xa0</p>"
    path = write(tmp_path, body)
    report = explain_json(path, "--content-type", 'text/html; charset="Shift_JIS"')
    assert rows(report)["transport"]["found"]["label"] == "Shift_JIS"
    assert report["decision"]["source"] == "transport" and report["text"] == "<meta charset=koi8-r><p>あ</p>"
    report = explain_json(path, "--content-type", "text/html; charset=Shift_JIS", "--override", "EUC-KR")
    assert report["decision"] == sniff(body, content_type="text/html; charset=Shift_JIS", override="EUC-KR").as_dict()
    assert report["decision"]["source"] == "override"
    # A label that "get an encoding" fails on is ignored (the step finds nothing).
    report = explain_json(path, "--content-type", "text/html; charset=bogus")
    assert rows(report)["transport"]["found"] is None and "bogus" in rows(report)["transport"]["note"]
    assert report["decision"]["source"] == "prescan"


def test_parser_change_after_the_prescan_window(tmp_path):
    meta = b"<meta charset=windows-1251>"
    body = b"<!doctype html><html><head><title>" + b"x" * 100 + b"</title>" + meta + b"</head><p>\xcf\xf0\xe8"
    report = explain_json(write(tmp_path, body), "--prescan-bytes", "64", "--detector", "off")
    found = rows(report)
    assert found["prescan"]["found"] is None
    assert found["default"]["decisive"] and found["parser"]["decisive"]
    assert found["parser"]["offset"] == body.index(meta) and found["parser"]["matched"] == meta.decode()
    assert report["decision"] == {"encoding": "windows-1251", "confidence": "certain", "source": "parser",
                                  "label": "windows-1251", "offset": body.index(meta)}
    assert report["options"]["prescan_bytes"] == 64 and report["options"]["detector"] == "off"


def test_xml_declaration_for_xml_documents(tmp_path):
    declaration = b'<?xml version="1.0" encoding="windows-1251"?>'
    body = declaration + b"<rss><title>\xcf\xf0\xe8</title></rss>"
    report = explain_json(write(tmp_path, body, "feed.xml"), "--content-type", "application/rss+xml")
    found = rows(report)
    assert report["kind"] == "xml"
    assert found["xml-declaration"]["decisive"] and found["xml-declaration"]["matched"] == declaration.decode()
    for step in ("prescan", "parser", "container", "likely", "detector"):
        assert found[step]["applies"] is False
    assert report["decision"]["source"] == "xml-declaration" and report["text"].endswith("<title>При</title></rss>")


def test_locale_default_and_detector(tmp_path):
    body = b"<p>plain ASCII</p>"
    report = explain_json(write(tmp_path, body), "--locale", "ja")
    found = rows(report)
    assert found["detector"]["found"] is None and "nothing detected" in found["detector"]["note"]
    assert found["default"]["decisive"] and report["decision"]["encoding"] == "Shift_JIS"
    body = "<p>Съешь же ещё этих мягких французских булок</p>".encode("windows-1251") * 4
    report = explain_json(write(tmp_path, body, "ru.html"), "--url", "http://example.ru/")
    assert report["decision"] == sniff(body, url="http://example.ru/").as_dict()
    assert report["decision"]["source"] == "detector"


def test_real_corpus_page_with_a_foreign_label():
    # The feed declares encoding="MacCyrillic", which is no label of the Encoding Standard.
    path = DATA / "corpus" / "files" / "MacCyrillic" / "kapranoff.ru.xml"
    body = path.read_bytes()
    report = explain_json(path)
    found = rows(report)
    assert report["kind"] == "xml"  # from the file name .xml: XML rules, as a crawl of the feed
    assert "MacCyrillic" in found["xml-declaration"]["note"] and found["xml-declaration"]["found"] is None
    assert report["decision"] == sniff(body, content_type="application/rss+xml").as_dict()
    scrapy = report["scrapy"]
    assert scrapy["response_class"] == "XmlResponse" and scrapy["same_text"] is False
    ours = decode(body, ENCODINGS[report["decision"]["encoding"]])[0]
    theirs = XmlResponse(path.resolve().as_uri(), body=body).text
    where = scrapy["first_difference"]
    assert where > 200  # the previews agree, so the context around the difference is shown
    assert ours[:where] == theirs[:where] and ours[where] != theirs[where]
    assert scrapy["our_context"] == ours[where - 40:where + 40]
    assert scrapy["context"] == theirs[where - 40:where + 40]


def test_text_output_lists_every_step_in_order(tmp_path):
    body = b"<meta charset=iso-8859-2><p>\xb1</p>"
    done = run("explain", write(tmp_path, body))
    assert done.returncode == 0 and done.stderr == ""
    titles = ["BOM sniff", "user override", "transport layer", "prescan (<meta>)", "XML declaration",
              "parser change", "container document", "likely encoding", "autodetection", "default"]
    positions = [done.stdout.index(f"{n:>2}. {title}") for n, title in enumerate(titles, 1)]
    assert positions == sorted(positions)
    assert "matched at byte 0: <meta charset=iso-8859-2>" in done.stdout
    assert "Decision: ISO-8859-2 (certain), source prescan, label 'iso-8859-2', offset 0" in done.stdout


@pytest.mark.parametrize("args, code, message", [
    (["explain", "/no/such/file.html"], 1, "error: /no/such/file.html: no such file"),
    (["explain", "{tmp}"], 1, "is a directory"),
    (["explain", "{tmp}/page.html", "--locale", "not a tag!"], 2, "--locale"),
    (["explain", "http://127.0.0.1:9/", "--url", "http://example.com/"], 2, "--url is for a path"),
])
def test_errors_are_one_line(tmp_path, args, code, message):
    write(tmp_path, b"<p>x</p>")
    done = run(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert done.returncode == code
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_usage_errors_exit_2(tmp_path):
    for args in (["explain"], ["explain", "x", "--detector", "sometimes"], ["nonsense"], []):
        done = run(*args)
        assert done.returncode == 2 and "usage:" in done.stderr and "Traceback" not in done.stderr


FEED = '<?xml version="1.0" encoding="windows-1251"?><rss><title>Привет</title></rss>'.encode("windows-1251")


@pytest.mark.parametrize("name, kind, mime", [
    ("feed.xml", "xml", "application/xml"), ("feed.RSS", "xml", "application/rss+xml"),
    ("feed.atom", "xml", "application/atom+xml"), ("logo.svg", "xml", "image/svg+xml"),
    ("page.xhtml", "xml", "application/xhtml+xml"), ("notes.txt", "text", "text/plain"),
    ("page.html", "html", "text/html"), ("page.xml.html", "html", "text/html"), ("README", "html", None),
])
def test_document_kind_from_the_file_name(tmp_path, name, kind, mime):
    report = explain_json(write(tmp_path, FEED, name))
    assert report["kind"] == kind
    # The decision a crawl makes when the server types the file so, without a charset.
    assert report["decision"] == sniff(FEED, content_type=mime).as_dict()
    # The MIME type standing for the file name is no transport layer encoding.
    assert rows(report)["transport"]["found"] is None and rows(report)["transport"]["note"] == "no Content-Type"
    assert report["options"]["content_type"] is None and report["decision"]["source"] != "transport"
    suffix = pathlib.PurePath(name).suffix.lower()
    if kind == "html":
        assert report["kind_from"].startswith("by default: the file name does not end in .xml, .rss")
    else:
        assert report["kind_from"] == f"from the file name {suffix}; --content-type overrides"
    text = run("explain", tmp_path / name).stdout
    name = {"html": "HTML", "xml": "XML", "text": "plain text"}[kind]
    assert f"Document kind: {name} ({report['kind_from']})" in text


def test_feed_by_xml_rules_and_content_type_overrides(tmp_path):
    path = write(tmp_path, FEED, "feed.xml")
    report = explain_json(path)  # XML 1.0 Appendix F: the declaration is final
    assert report["decision"] == {"encoding": "windows-1251", "confidence": "certain", "source": "xml-declaration",
                                  "label": "windows-1251", "offset": 0}
    assert rows(report)["xml-declaration"]["decisive"] and rows(report)["prescan"]["applies"] is False
    report = explain_json(path, "--content-type", "text/html")  # HTML rules: the prescan's answer
    assert report["kind"] == "html" and report["kind_from"] == "from --content-type"
    assert report["decision"] == sniff(FEED, content_type="text/html").as_dict()
    assert report["decision"]["confidence"] == "tentative"  # get an XML encoding, in the prescan
    assert "Document kind: HTML (from --content-type)" in run("explain", path, "--content-type", "text/html").stdout
    # Plain text: no prescan, so a <meta> in the body counts for nothing.
    body = b"<meta charset=koi8-r>plain ASCII"
    report = explain_json(write(tmp_path, body, "notes.txt"), "--detector", "off")
    assert report["kind"] == "text" and rows(report)["prescan"]["applies"] is False
    assert report["decision"] == {"encoding": "windows-1252", "confidence": "tentative", "source": "default",
                                  "label": None, "offset": None}


def test_help_names_the_command_as_invoked():
    assert run("--help").stdout.startswith("usage: python -m scrapy_whatwg_encoding ")
    script = pathlib.Path(sys.executable).parent / "scrapy-whatwg-encoding"
    if not script.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    for args in (["--help"], ["explain", "--help"]):
        done = subprocess.run([str(script), *args], check=False, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and done.stdout.startswith("usage: scrapy-whatwg-encoding ")
        assert "python -m" not in done.stdout
    done = subprocess.run([str(script), "explain"], check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("usage: scrapy-whatwg-encoding explain ")


def test_profile_option(tmp_path):
    page = write(tmp_path, b'<title><meta charset="koi8-r"></title>')
    assert explain_json(page)["decision"]["encoding"] == "KOI8-R"
    report = explain_json(page, "--profile", "browsers")
    assert report["decision"]["encoding"] == "windows-1252"
    assert (report["options"]["profile"], report["options"]["detector"]) == ("browsers", "browser")
    assert "profile: browsers" in run("explain", str(page), "--profile", "browsers").stdout
    wrong = run("explain", str(page), "--profile", "browsers", "--detector", "full")
    assert wrong.returncode == 2 and "contradicts" in wrong.stderr
    audited = json.loads(run("audit", str(tmp_path), "--profile", "browsers", "--json", "--no-progress").stdout)
    assert audited["profile"] == "browsers" and audited["pages"][0]["encoding"] == "windows-1252"


def test_what_a_crawl_skips_gets_no_decision(tmp_path):
    """Issue 19: a PDF file (by its name), and a binary body without one, are skipped as a crawl
    skips them; the text says so and prints no decision, the JSON has none."""
    pdf = write(tmp_path, b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", name="doc.pdf")
    report = explain_json(pdf)
    assert report["decision"] is None and report["steps"] == [] and report["kind"] == "other"
    assert report["skipped"] == "not HTML, XML or text: the MIME type is application/pdf"
    assert report["kind_from"] == "from the file name .pdf, application/pdf; --content-type overrides"
    done = run("explain", str(pdf))
    assert done.returncode == 0, done.stderr
    assert "Decision:" not in done.stdout and "((" not in done.stdout and "))" not in done.stdout
    assert ("Skipped: a crawl leaves this response as Scrapy made it (not HTML, XML or text: the MIME type is "
            "application/pdf); no decision") in done.stdout
    binary = write(tmp_path, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", name="picture")
    assert explain_json(binary)["skipped"] == "not HTML, XML or text: Scrapy reads the body as binary (Response)"
    # --content-type decides the kind instead of the name: the same PDF bytes as HTML are decided.
    assert explain_json(pdf, "--content-type", "text/html")["decision"]["source"] == "detector"
    html = tmp_path / "skipped.html"
    assert run("explain", str(pdf), "--html", str(html)).returncode == 0
    assert "no decision" in html.read_text("utf-8")
