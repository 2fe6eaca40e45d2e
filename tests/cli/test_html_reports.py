"""``audit DIR --html FILE`` and ``explain PAGE --html FILE`` through the real entry point: the
pages are inert HTML (html5lib: no parse error, nothing active), the audit's page agrees with its
JSON summary, and the explanation marks exactly the bytes each step matched."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
from report_checks import assert_inert, local, section, table_rows, text_of

REPO = pathlib.Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "data" / "corpus"
SITE = REPO / "example_project" / "demo" / "site"

pytestmark = pytest.mark.slow  # a process per test (the real entry point)


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy_whatwg_encoding", *map(str, args)],
                          capture_output=True, text=True, encoding="utf-8", timeout=300, check=False)


def marks(tree) -> list[str]:
    return [text_of(m) for m in section(tree, "bytes").iter() if local(m.tag) == "mark"]


def test_audit_html_with_manifest(tmp_path):
    out = tmp_path / "audit.html"
    done = run("audit", CORPUS, "--manifest", "manifest.json", "--json", "--no-progress", "--html", out,
               "--html-examples", 3)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)["summary"]
    tree = assert_inert(out.read_text("utf-8"))
    accuracy = summary["accuracy"]
    assert table_rows(section(tree, "accuracy")) == [
        [r["expected"], str(r["pages"]), str(r["correct"]), str(r["scrapy_correct"])] for r in accuracy["by_expected"]]
    assert f"decodes {accuracy['correct']} " in text_of(section(tree, "accuracy"))
    examples = table_rows(section(tree, "differences"))
    headings = [text_of(h) for h in section(tree, "differences").iter() if local(h.tag) == "h3"]
    assert 0 < len(examples) <= 3 * len(headings)
    assert sum(int(h.split(" — ")[1].split(" ")[0]) for h in headings) == summary["scrapy_differs"]
    hosts = {row[0]: int(row[1]) for row in table_rows(section(tree, "hosts"))}
    assert sum(hosts.values()) == summary["pages"] and "files/Big5" in hosts


def test_audit_html_unwritable(tmp_path):
    done = run("audit", SITE / "meta", "--html", tmp_path / "missing" / "a.html", "--no-progress")
    assert done.returncode == 1 and "cannot write" in done.stderr


def test_explain_html_marks_the_meta(tmp_path):
    out = tmp_path / "explain.html"
    page = SITE / "meta" / "shift_jis.html"
    done = run("explain", page, "--html", out)
    assert done.returncode == 0, done.stderr
    body = page.read_bytes()
    start = body.index(b"<meta")
    tag = body[start:body.index(b">", start) + 1].decode("ascii")
    tree = assert_inert(out.read_text("utf-8"))
    assert marks(tree) == [tag]  # prescan and parser matched the same bytes: one range
    headings = [text_of(h) for h in section(tree, "bytes").iter() if local(h.tag) == "h3"]
    assert headings == [f"prescan (<meta>), parser change: bytes {start}–{start + len(tag) - 1}"]
    steps = table_rows(section(tree, "steps"))
    assert [row[1] for row in steps][:4] == ["BOM sniff", "user override", "transport layer (Content-Type)",
                                            "prescan (<meta>)"]


def test_explain_html_marks_the_bom(tmp_path):
    out = tmp_path / "explain.html"
    done = run("explain", SITE / "bom" / "utf-8-bom.html", "--html", out)
    assert done.returncode == 0, done.stderr
    assert marks(assert_inert(out.read_text("utf-8"))) == ["\\xEF\\xBB\\xBF"]
