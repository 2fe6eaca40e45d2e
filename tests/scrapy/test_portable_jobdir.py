"""Issue 12, item 2 and issue 21, item 1: a JOBDIR crawl paused with the add-on and resumed in a
process without it (one that never imports the package) crawls every queued request, with the
browser's URL and body.

Both runs are real ``CrawlerProcess`` crawls in subprocesses (``jobdir_pause_resume.py``) against a
local server that logs every request line and body. Run 1 reads a windows-1251 and a Shift_JIS hub
and is closed with the 16 requests built from them still queued (the server sees only the hubs);
run 2 must request exactly those 16 targets, percent-encoded in each page's encoding as a browser
would (computed here with Python's codecs), with no ``LookupError``. The requests Scrapy itself
builds with ``encoding=response.encoding`` carry Python's codec name (``cp1251``, ``cp932``) and
survive even without the add-on's spider middleware; a request given the package's
``whatwg-…`` codec name is lost without it.
"""
from __future__ import annotations

import json
import pickle
import re
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import quote_plus

import pytest
from whatwg_crawl_helpers import browser_query

SCRIPT = Path(__file__).with_name("jobdir_pause_resume.py")
#: WHATWG name -> Python's codec (every character of TEXT but ☃ is representable in both).
HUBS = {"windows-1251": "cp1251", "Shift_JIS": "shift_jis"}
#: What response.encoding is on the decided hubs: the name Scrapy alone reports.
SCRAPY_CODECS = {"windows-1251": "cp1251", "Shift_JIS": "cp932"}
TEXT = {"windows-1251": "Москва ☃", "Shift_JIS": "東京 ☃"}
#: The text of the form FormRequest.from_response reads: Python's codec encodes it (it raises
#: UnicodeEncodeError on ☃, as with Scrapy alone).
SCRAPY_TEXT = {"windows-1251": "Москва", "Shift_JIS": "東京"}
#: Links: follow, follow_all (all1, all2), drop-in LinkExtractor + Request(encoding=response.encoding)
#: (extract) and + Request(encoding=whatwg_encoding(response).codec_name) (codec).
LINKS = ("follow", "all1", "all2", "extract", "codec")


def hub(name: str) -> bytes:
    text = TEXT[name]
    links = "".join(f'<a class={"all" if via.startswith("all") else via} '
                    f'href="/leaf?page={name}&amp;via={via}&amp;q={text}">{via}</a>' for via in LINKS)
    forms = "".join(f'<form id={id_} method={method} action="/leaf-{method}"><input type=hidden name=page value={name}>'
                    f'<input type=hidden name=via value={via}><input name=q value="{value}"></form>'
                    for id_, method, via, value in (("get", "get", "get", text), ("post", "post", "post", text),
                                                    ("scrapy", "post", "from_response", SCRAPY_TEXT[name])))
    html = f'<!DOCTYPE html><meta charset="{name}"><title>hub</title>{links}{forms}'
    return html.encode(HUBS[name], "xmlcharrefreplace")


def browser_requests() -> set[tuple[str, str, str]]:
    """(method, request target, body) a browser sends for each link and form of the hubs: the
    query percent-encoded in the page's encoding, ``%26%23N%3B`` for ☃ (URL Standard); forms as
    application/x-www-form-urlencoded of the encoder's bytes, ``&#9731;`` for ☃ (HTML)."""
    expected = set()
    for name, codec in HUBS.items():
        text = TEXT[name]
        query = browser_query(text, codec)
        form = quote_plus(text.encode(codec, "xmlcharrefreplace"))
        expected |= {("GET", f"/leaf?page={name}&via={via}&q={query}", "") for via in LINKS}
        expected.add(("GET", f"/leaf-get?page={name}&via=get&q={form}", ""))
        expected.add(("POST", "/leaf-post", f"page={name}&via=post&q={form}"))
        expected.add(("POST", "/leaf-post", f"page={name}&via=from_response&q={quote_plus(SCRAPY_TEXT[name].encode(codec))}"))
    return expected


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # persistent connections, as Scrapy's HTTP/1.1 client expects
    log: ClassVar[list] = []

    def do_GET(self):
        self.respond()

    def do_POST(self):
        self.respond()

    def respond(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("ascii") if length else ""
        self.log.append((self.command, self.path, body))
        name = self.path[len("/hub-"):-len(".html")] if self.path.startswith("/hub-") else None
        data = hub(name) if name in HUBS else b"ok"
        self.send_response(200)
        self.send_header("Content-Type", "text/html" if name else "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def site():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    Handler.log = []
    yield f"http://127.0.0.1:{httpd.server_address[1]}/", Handler.log
    httpd.shutdown()
    httpd.server_close()


def run(base: str, jobdir: Path, phase: str, tmp_path: Path, settings: dict | None = None) -> tuple[dict, str]:
    stats_path = tmp_path / f"{phase}-stats.json"
    result = subprocess.run([sys.executable, str(SCRIPT), base, str(jobdir), phase, str(stats_path),
                             json.dumps(settings or {})], capture_output=True, text=True, cwd=tmp_path,
                            timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(stats_path.read_text("utf-8")), result.stderr


def queued(jobdir: Path, tmp_path: Path) -> list[dict]:
    """The request dicts in JOBDIR's disk queues (read from a copy: reading pops them)."""
    from queuelib import LifoDiskQueue

    copy = tmp_path / "queue-copy"
    shutil.copytree(jobdir / "requests.queue", copy)
    dicts = []
    for path in copy.rglob("*"):  # one file per priority (and slot): Scrapy's PickleLifoDiskQueue
        if not path.is_file() or path.suffix == ".json":
            continue
        queue = LifoDiskQueue(str(path))
        while (data := queue.pop()) is not None:
            dicts.append(pickle.loads(data))
        queue.close()
    return dicts


def test_paused_crawl_resumes_without_the_addon(site, tmp_path):
    base, log = site
    jobdir = tmp_path / "job"
    hubs = {("GET", f"/hub-{name}.html", "") for name in HUBS}

    first, _ = run(base, jobdir, "pause", tmp_path)
    assert first["stats"]["finish_reason"] == "paused"
    assert set(log) == hubs and len(log) == 2  # nothing else left the scheduler
    in_queue = queued(jobdir, tmp_path)
    assert len(in_queue) == len(browser_requests()) == 16
    # follow, follow_all, from_response and Request(encoding=response.encoding): Python's codec
    # name; form_request and the request made portable by the spider middleware: UTF-8.
    assert sorted(d["encoding"] for d in in_queue) == sorted(
        [codec for codec in SCRAPY_CODECS.values() for _ in range(5)] + ["utf-8"] * 6)
    del log[:]

    second, stderr = run(base, jobdir, "resume", tmp_path)
    assert second["imported"] == []
    stats = second["stats"]
    assert "LookupError" not in stderr and "ERROR" not in stderr, stderr[-3000:]
    assert sorted(log) == sorted(browser_requests())  # every queued request, as a browser sends it
    assert stats["finish_reason"] == "finished"
    assert stats["scheduler/dequeued/disk"] == stats["response_received_count"] == 16
    print(f"queued {len(in_queue)} / resumed {stats['scheduler/dequeued/disk']} / crawled {len(log)}")


def test_without_the_spider_middleware_only_whatwg_names_are_lost(site, tmp_path):
    """Without the add-on's spider middleware, Scrapy's own ``from_response`` and ``Request(url,
    encoding=response.encoding)`` still carry Python's codec name and are crawled; only the
    requests given ``encoding=whatwg_encoding(response).codec_name`` carry ``whatwg-…`` and are
    lost in a process without the package (the issue's failure, kept as a control)."""
    base, log = site
    jobdir = tmp_path / "job"
    off = {"SPIDER_MIDDLEWARES": {"scrapy_whatwg_encoding.scrapy.requests.portable.PortableRequestsMiddleware": None}}
    run(base, jobdir, "pause", tmp_path, off)
    in_queue = queued(jobdir, tmp_path)
    assert sorted(d["encoding"] for d in in_queue) == sorted(
        [codec for codec in SCRAPY_CODECS.values() for _ in range(5)] + ["utf-8"] * 4
        + ["whatwg-shift_jis", "whatwg-windows-1251"])
    del log[:]
    second, stderr = run(base, jobdir, "resume", tmp_path)
    assert "LookupError: unknown encoding: whatwg-" in stderr
    lost = browser_requests() - set(log)
    assert sorted(re.search("via=([a-z_]+)", target + body)[1] for _, target, body in lost) == ["codec", "codec"]
    assert second["stats"]["finish_reason"] == "finished"  # (as the issue says)
    assert second["stats"]["response_received_count"] == 14
