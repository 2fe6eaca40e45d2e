"""The README's example crawl: ``scrapy crawl demo`` in example_project/ (a real subprocess), whose
items must carry the true encoding of every bundled page and whose log shows the decisions."""
from __future__ import annotations

import json
import subprocess
import sys

from whatwg_crawl_helpers import BUNDLED_SITE, REPO, SiteMap


def test_scrapy_crawl_demo(tmp_path):
    items_file = tmp_path / "items.jsonl"
    feeds = json.dumps({str(items_file): {"format": "jsonlines", "encoding": "utf-8"}})
    result = subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "demo", "-s", f"FEEDS={feeds}"],
        cwd=REPO / "example_project", capture_output=True, text=True, timeout=120, check=False)
    log = result.stderr
    assert result.returncode == 0, log[-3000:]
    items = [json.loads(line) for line in items_file.read_text("utf-8").splitlines()]
    site = SiteMap.load(BUNDLED_SITE)
    documents = [p for p, page in site.pages.items() if page.expect is not None]
    assert sorted(i["url"].split("/", 3)[3] for i in items) == sorted(documents)
    for item in items:
        assert set(item) >= {"url", "title", "encoding", "confidence", "source", "expected", "correct"}
        assert item["correct"], item
    assert f"Accuracy: {len(documents)} of {len(documents)} pages" in log
    assert log.count("[scrapy_whatwg_encoding] INFO: Encoding ") >= len(documents)
    assert "WHATWG encoding summary" in log
    # The Shift_JIS form page's link and form reached the server encoded as a browser would send them.
    assert "link request: target: /echo?q=%93%8C%8B%9E&snow=%26%239731%3B" in log
    assert "form request: target: /echo?q=%93%8C%8B%9E+%26%239731%3B" in log
    assert "ERROR" not in log
