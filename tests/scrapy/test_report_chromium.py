"""The demo crawl's report as a user sees it: ``scrapy crawl demo -s WHATWG_ENCODING_REPORT=...``
(a real subprocess, as in the README), then the file opened in headless Chromium (Debian's
``chromium``): the DOM it built has the headings, the SVG charts and the differing pages, and the
screenshot is not blank and shows the charts' colours. Skips when ``chromium`` is not installed."""
from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import zlib
from collections import Counter
from pathlib import Path

import html5lib
import pytest
from whatwg_crawl_helpers import REPO

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from report_checks import assert_inert, local, section, table_rows, text_of

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed "
                                 "(Debian: apt-get install chromium)")]
BAR_BLUE, BAR_ORANGE, MARK_YELLOW = (0x4E, 0x79, 0xA7), (0xF2, 0x8E, 0x2B), (0xFF, 0xD5, 0x4F)  # see report/page.py


def chromium(url: str, profile: Path, *args: str) -> str:
    flags = ["--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
             "--window-size=1280,2000"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    result = subprocess.run([CHROMIUM, *flags, *args, url], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def png_pixels(data: bytes) -> tuple[int, int, Counter]:
    """``(width, height, Counter of (r, g, b))`` of an 8-bit RGB or RGBA, non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    assert header is not None
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, header
    step = 3 if color == 2 else 4
    raw, stride = zlib.decompress(idat), width * step
    previous, pixels = bytearray(stride), Counter()
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # PNG filters (RFC 2083, 6)
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        pixels.update(bytes(line[i:i + 3]) for i in range(0, stride, step))
        previous = line
    return width, height, Counter({tuple(k): v for k, v in pixels.items()})


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory) -> Path:
    report = tmp_path_factory.mktemp("demo-report") / "report.html"
    result = subprocess.run([sys.executable, "-m", "scrapy", "crawl", "demo", "-s", f"WHATWG_ENCODING_REPORT={report}"],
                            cwd=REPO / "example_project", capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"Encoding report written to {report}" in result.stderr
    return report


def test_demo_report_dom_in_chromium(demo_report, tmp_path):
    tree = assert_inert(demo_report.read_text("utf-8"))
    dom = html5lib.parse(chromium(demo_report.as_uri(), tmp_path / "profile", "--dump-dom"),
                         namespaceHTMLElements=False)
    assert text_of(dom.find(".//h1")) == "Encoding report: demo"
    assert [text_of(h) for h in dom.iter("h2")] == ["Decisions", "Hosts", "Pages whose text differs from Scrapy alone",
                                                     "Errors"]
    charts = [e for e in dom.iter() if local(e.tag) == "svg"]
    assert len(charts) == 2  # per source, per encoding

    def bars(root):
        return [text_of(e) for e in root.iter() if local(e.tag) == "rect" and e.get("class") == "bar"]

    assert bars(section(dom, "charts")) == bars(section(tree, "charts"))
    assert any("differs from Scrapy" in bar for bar in bars(charts[0]))
    examples = table_rows(section(dom, "differences"))
    assert examples and all(row[0].startswith("http://127.0.0.1:") for row in examples)
    assert [row[0] for row in table_rows(section(dom, "hosts"))] == ["127.0.0.1"]


def test_demo_report_screenshot(demo_report, tmp_path):
    screenshot = tmp_path / "report.png"
    chromium(demo_report.as_uri(), tmp_path / "profile", f"--screenshot={screenshot}")
    width, height, pixels = png_pixels(screenshot.read_bytes())
    assert (width, height) == (1280, 2000)
    white = pixels[(255, 255, 255)]
    assert white < 0.97 * width * height, "the page looks blank"
    assert pixels[BAR_BLUE] > 2000 and pixels[BAR_ORANGE] > 200, "no chart bars drawn"
    assert pixels[MARK_YELLOW] > 50, "no marked difference shown"


# --- Long host names and right-to-left overrides stay in their cells (issue 37, item 5) -------------

LABEL = "a" * 63
LONG_HOSTS = {
    127: f"{LABEL}.{'b' * 63}",  # two labels of the most a label may have
    253: f"{LABEL}.{'b' * 63}.{'c' * 63}.{'d' * 61}",  # the most a host name may have
}
RLO = "\u202e"
LAYOUT_JS = """() => {
  const page = document.documentElement.clientWidth;
  const out = {page, scroll: document.documentElement.scrollWidth, cells: [], after: [], isolated: []};
  // Every line of a cell's text inside the cell and the page.
  for (const cell of document.querySelectorAll("td, th, h1, p.meta")) {
    const box = cell.getBoundingClientRect(), range = document.createRange();
    range.selectNodeContents(cell);
    for (const r of range.getClientRects()) {
      if (r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.right > page))
        out.cells.push([cell.textContent.slice(0, 40), box.left, box.right, r.left, r.right]);
    }
  }
  const charBox = (node, i) => {
    const range = document.createRange();
    range.setStart(node, i); range.setEnd(node, i + 1);
    return range.getBoundingClientRect();
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let node; (node = walker.nextNode());) texts.push(node);
  // The report's own words after a string with an override read left to right: each "AFTER".
  for (const node of texts) {
    for (let at = node.data.indexOf("AFTER"); at >= 0; at = node.data.indexOf("AFTER", at + 1)) {
      const lefts = [0, 1, 2, 3, 4].map(i => charBox(node, at + i).left);
      out.after.push([node.parentElement.tagName, lefts.every((x, i) => i === 0 || x > lefts[i - 1])]);
    }
  }
  // An isolated string with an override: the next character on its line is on its right.
  for (const element of document.querySelectorAll("bdi, .url")) {
    if (!element.textContent.includes("\\u202e")) continue;
    const box = element.getBoundingClientRect(), block = element.closest("td, th, h1, p, div");
    const next = texts.find(node => (element.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING)
                                    && !element.contains(node) && block.contains(node) && node.data.trim());
    if (!next) continue;
    const i = next.data.search(/\\S/), r = charBox(next, i);
    if (r.top < box.bottom - 1) out.isolated.push([element.textContent, next.data[i], box.right, r.left]);
  }
  return out;
}"""


def _hostile_report() -> str:
    from scrapy_whatwg_encoding.report import render_html
    from scrapy_whatwg_encoding.report.model import ReportData, first_difference

    data = ReportData(examples=5)
    urls = [f"http://{host}/page" for host in LONG_HOSTS.values()]
    urls += [f"http://ab{RLO}cd.example/", f"http://x.example/{RLO}path?{RLO}q"]
    for url in urls:
        decision = {"encoding": "windows-1251", "confidence": "certain", "source": "transport",
                    "label": f"cp{RLO}1251", "offset": None}
        data.add(url, decision, "cp1252", True, first_difference("Привет", "Ïðèâåò"))
    data.errors["ValueError"] += 1
    data.error_examples["ValueError"] = [urls[-1], urls[0]]
    return render_html(data, title=f"crawl {RLO}evil", details=[("dir", f"/tmp/{RLO}x"), ("AFTER", "1")])


@pytest.mark.parametrize("width", [1280, 800])
def test_long_hosts_and_overrides_stay_in_their_cells(tmp_path, width):
    """A legal 127- and 253-character host name, and U+202E RIGHT-TO-LEFT OVERRIDE in a host, a
    URL, the title and a detail: measured in Chromium, every cell's text stays inside the
    cell and the page (no horizontal scroll), and the report's own text after an override stays on
    its right, in reading order (the override is isolated)."""
    from playwright.sync_api import sync_playwright

    report = tmp_path / "report.html"
    report.write_text(_hostile_report(), "utf-8")
    assert_inert(report.read_text("utf-8"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": width, "height": 1000})
            page.goto(report.as_uri())
            layout = page.evaluate(LAYOUT_JS)
        finally:
            browser.close()
    assert layout["scroll"] <= layout["page"] == width, layout["scroll"]
    assert layout["cells"] == []
    assert layout["after"] == [["P", True]]  # the detail after the overridden one
    # The detail with text after it on its line (a label is shown by repr(): its override escaped).
    assert len(layout["isolated"]) == 1 and all(right <= left + 0.5 for *_, right, left in layout["isolated"]), \
        layout["isolated"]
