"""Suspect labels (issue 11, item 3) in the CLI, through the real entry point: ``explain`` shows a
line and a JSON key, ``audit`` counts them (table, JSON summary, CSV column ``suspect_label``, the
HTML report's hosts column)."""
from __future__ import annotations

import csv
import io
import json
import pathlib
import subprocess
import sys

import pytest
from report_checks import assert_inert, section, table_rows

from scrapy_whatwg_encoding import sniff
from scrapy_whatwg_encoding.cli.steps import SUSPECT_NOTES
from scrapy_whatwg_encoding.sniffing.mislabel import suspect_label

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "corpus"
pytestmark = pytest.mark.slow  # a process per test (the real entry point)
UTF_8 = "<!DOCTYPE html><title>Café</title><p>naïve café, 日本語</p>".encode()
CYRILLIC = ("<meta charset=utf-8><title>Новини</title><p>"
            + "Съобщение за пресата: министерството обяви нови правила за училищата. " * 8).encode("windows-1251")
LATIN_1 = "text/html; charset=iso-8859-1"


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy_whatwg_encoding", *map(str, args)], check=False,
                          capture_output=True, text=True, encoding="utf-8", timeout=300)


def explain(path, *options) -> tuple[dict, str]:
    as_json, as_text = run("explain", path, "--json", *options), run("explain", path, *options)
    assert as_json.returncode == as_text.returncode == 0, as_json.stderr + as_text.stderr
    return json.loads(as_json.stdout), as_text.stdout


def test_explain_shows_a_suspect_label(tmp_path):
    page = tmp_path / "page.html"
    page.write_bytes(UTF_8)
    report, text = explain(page, "--content-type", LATIN_1)
    assert report["decision"] == sniff(UTF_8, content_type=LATIN_1).as_dict()  # the standard's answer stays
    assert report["suspect_label"] == {"kind": "utf-8", "note": SUSPECT_NOTES["utf-8"], "content_encoding": "UTF-8"}
    line = next(line for line in text.splitlines() if line.startswith("Suspect label"))
    assert line == ("Suspect label (utf-8): the body is valid UTF-8 with non-ASCII bytes; the standard's answer "
                    'is the label; WHATWG_ENCODING_SUSPECT_LABELS = "content" would decode as UTF-8')
    # The same page labelled right, and unlabelled (no label to suspect): no line, null key.
    for options in (["--content-type", "text/html; charset=utf-8"], []):
        report, text = explain(page, *options)
        assert report["suspect_label"] is None and "Suspect label" not in text


def test_explain_undecodable_meta_and_replacement(tmp_path):
    page = tmp_path / "page.html"
    page.write_bytes(CYRILLIC)
    report, text = explain(page, "--url", "https://news.example.bg/")
    assert report["decision"]["source"] == "prescan" and report["decision"]["encoding"] == "UTF-8"
    assert report["suspect_label"]["kind"] == "undecodable"
    assert report["suspect_label"]["content_encoding"] == "windows-1251"
    assert "Suspect label (undecodable): the label's decoder gives U+FFFD" in text
    # A real iso-2022-kr file under its own label: the replacement encoding.
    kr = CORPUS / "files" / "iso-2022-kr" / "_ude_iso1.txt"
    report, text = explain(kr, "--content-type", "text/html; charset=iso-2022-kr")
    assert report["decision"]["encoding"] == "replacement" and report["text"] == "\ufffd"
    assert report["suspect_label"]["kind"] == "replacement"
    assert "Suspect label (replacement)" in text


def test_audit_counts_suspect_labels(tmp_path):
    pages = {"one/latin1-meta-on-utf-8.html": b"<meta charset=iso-8859-1>" + UTF_8,
             "one/right.html": b"<meta charset=utf-8>" + UTF_8,
             "two/iso-2022-kr.html": b"<meta charset=iso-2022-kr><p>plain</p>",
             "two/windows-1251.html": CYRILLIC}
    for path, body in pages.items():
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_bytes(body)
    expected = {path: suspect_label(body, sniff(body, content_type="text/html")) for path, body in pages.items()}
    assert list(expected.values()) == ["utf-8", None, "replacement", "undecodable"]
    html = tmp_path.parent / f"{tmp_path.name}-audit.html"
    done = run("audit", tmp_path, "--json", "--no-progress", "--html", html)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert {p["path"]: p["suspect_label"] for p in report["pages"]} == expected
    assert report["summary"]["suspect_labels"] == {"utf-8": 1, "replacement": 1, "undecodable": 1}
    hosts = {row[0]: row[5] for row in table_rows(section(assert_inert(html.read_text("utf-8")), "hosts"))}
    assert hosts == {"one": "1", "two": "2"}  # the "suspect labels" column
    rows = list(csv.DictReader(io.StringIO(run("audit", tmp_path, "--csv", "--no-progress").stdout)))
    assert {r["path"]: r["suspect_label"] or None for r in rows} == expected
    table = run("audit", tmp_path, "--no-progress").stdout
    assert "Suspect labels (the content contradicts the label): 3 pages (utf-8 ×1, replacement ×1, undecodable ×1)" \
        in table
    assert "  two/iso-2022-kr.html: replacement, label 'iso-2022-kr' (prescan) → replacement" in table
    assert "right.html: " not in table.split("Suspect labels")[1].split("\n\n")[0]
