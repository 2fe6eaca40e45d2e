"""The URL form: ``python -m scrapy_whatwg_encoding explain URL`` and ``scrapy sniff URL`` (the
``scrapy.commands`` entry point) against an HTTP server on 127.0.0.1, fetched with Scrapy's
machinery (redirects, decompression, the project's settings) — all through subprocesses."""
from __future__ import annotations

import gzip
import http.server
import json
import socket
import subprocess
import sys
import threading
from typing import ClassVar

import pytest
from cases import scrapy_project

from scrapy_whatwg_encoding import ENCODINGS, decode, sniff

SJIS = "<html><head><title>日本語</title></head><body><p>これは日本語のページです。</p></body></html>".encode("shift_jis")
pytestmark = pytest.mark.crawl  # Scrapy fetches from a local server, in a process per test
ASCII = b"<html><head><title>t</title></head><body>plain ASCII only</body></html>"
KOI8 = "<p>Привет, мир</p>".encode("koi8-r")
FEED = '<?xml version="1.0" encoding="koi8-r"?><rss><title>Привет</title></rss>'.encode("koi8-r")
PAGES = {  # path → (status, headers, body)
    "/sjis": (200, {"Content-Type": "text/html"}, SJIS),
    "/ascii": (200, {"Content-Type": "text/html"}, ASCII),
    "/koi8": (200, {"Content-Type": "text/html; charset=KOI8-R"}, KOI8),
    "/gzip": (200, {"Content-Type": "text/html", "Content-Encoding": "gzip"}, gzip.compress(SJIS)),
    "/moved": (302, {"Location": "/koi8"}, b""),
    "/json": (200, {"Content-Type": "application/json"}, '{"a": "é"}'.encode()),
    "/missing": (404, {"Content-Type": "text/html"}, b"<p>not here</p>"),
    "/feed": (200, {"Content-Type": "application/rss+xml"}, FEED),
    "/untyped.xml": (200, {}, FEED),
}


class Handler(http.server.BaseHTTPRequestHandler):
    seen: ClassVar[list] = []

    def do_GET(self):
        self.seen.append((self.path, self.headers.get("User-Agent")))
        status, headers, body = PAGES.get(self.path, (404, {}, b""))
        self.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A Scrapy project whose settings the commands must use."""
    settings = ('BOT_NAME = "sniffproj"\nSPIDER_MODULES = ["sniffproj.spiders"]\nROBOTSTXT_OBEY = False\n'
                'USER_AGENT = "sniff-test-agent"\nADDONS = {"scrapy_whatwg_encoding.Addon": 0}\n'
                'WHATWG_ENCODING_LOCALE = "ja"\nWHATWG_ENCODING_DETECTOR = "off"\n')
    return scrapy_project(tmp_path_factory.mktemp("project"), "sniffproj", settings, {
        "russian": "import scrapy\n\n\nclass Russian(scrapy.Spider):\n    name = 'russian'\n"
                   "    whatwg_encoding_locale = 'ru'\n    custom_settings = {'USER_AGENT': 'russian-agent'}\n",
        "broken": "import scrapy\n\n\nclass Broken(scrapy.Spider):\n    name = 'broken'\n"
                  "    custom_settings = {'WHATWG_ENCODING_PRESCAN_BYTES': 0}\n"})


def run(*args, cwd, module="scrapy_whatwg_encoding") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *args], check=False, capture_output=True, text=True,
                          encoding="utf-8", cwd=cwd, timeout=120)


def as_json(done) -> dict:
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


def test_explain_url_outside_a_project(server, tmp_path):
    report = as_json(run("explain", f"{server}/sjis", "--json", cwd=tmp_path))
    assert report["input"]["status"] == 200 and report["input"]["content_type"] == "text/html"
    assert report["input"]["bytes"] == len(SJIS)
    assert report["decision"] == sniff(SJIS, content_type="text/html", url=f"{server}/sjis").as_dict()
    assert report["decision"]["encoding"] == "Shift_JIS" and report["decision"]["source"] == "detector"
    assert report["text"] == decode(SJIS, ENCODINGS["Shift_JIS"])[0][:200]
    assert report["options"]["locale"] is None and report["options"]["detector"] == "full"
    # Outside a project the add-on is not enabled: the explanation says what it would do.
    assert report["input"]["middleware_enabled"] is False
    assert report["input"]["middleware"] == "the add-on is not enabled in these settings; its middleware would sniff it"
    assert report["kind"] == "html" and report["kind_from"] == "from the server's Content-Type"


def test_explain_says_what_the_middleware_would_leave_alone(server, tmp_path):
    report = as_json(run("explain", f"{server}/json", "--json", cwd=tmp_path))
    assert report["input"]["middleware"] == ("the add-on is not enabled in these settings; "
                                             "its middleware would leave it untouched: not HTML, XML or text")
    # No decision printed for what a crawl skips (issue 19).
    assert report["kind"] == "other" and report["decision"] is None and report["text"] is None
    assert report["skipped"] == "not HTML, XML or text: the MIME type is application/json"
    assert report["scrapy"]["response_class"] in ("TextResponse", "JsonResponse")  # JsonResponse: Scrapy 2.12+
    done = run("explain", f"{server}/json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Decision:" not in done.stdout and "))" not in done.stdout and "((" not in done.stdout
    assert ("Skipped: a crawl leaves this response as Scrapy made it (not HTML, XML or text: the MIME type is "
            "application/json); no decision") in done.stdout


def test_url_is_fetched_with_scrapy(server, tmp_path):
    # HttpCompressionMiddleware: the body explained is the decompressed one.
    report = as_json(run("explain", f"{server}/gzip", "--json", cwd=tmp_path))
    assert report["input"]["bytes"] == len(SJIS) and report["decision"]["encoding"] == "Shift_JIS"
    # RedirectMiddleware: the final response is explained, its charset comes from its header.
    report = as_json(run("explain", f"{server}/moved", "--json", cwd=tmp_path))
    assert report["input"]["final_url"] == f"{server}/koi8"
    assert report["decision"] == {"encoding": "KOI8-R", "confidence": "certain", "source": "transport",
                                  "label": "KOI8-R", "offset": None}
    assert report["text"] == "<p>Привет, мир</p>"
    # The text output names the final URL too (issue 19).
    lines = run("explain", f"{server}/moved", cwd=tmp_path).stdout.splitlines()
    assert lines[0].startswith(f"{server}/moved  (") and lines[1] == f"Final URL: {server}/koi8  (redirected)"


def test_project_settings_are_used(server, project):
    Handler.seen.clear()
    report = as_json(run("explain", f"{server}/ascii", "--json", cwd=project))
    assert ("/ascii", "sniff-test-agent") in Handler.seen  # the project's USER_AGENT
    assert report["input"]["middleware_enabled"] is True  # the project's ADDONS
    assert report["input"]["middleware"] == "the add-on's middleware sniffs it"
    assert report["options"]["locale"] == "ja" and report["options"]["detector"] == "off"
    assert report["decision"]["encoding"] == "Shift_JIS" and report["decision"]["source"] == "default"
    # Command-line options win over the settings.
    report = as_json(run("explain", f"{server}/ascii", "--json", "--locale", "ko", cwd=project))
    assert report["decision"]["encoding"] == "EUC-KR"


def test_scrapy_sniff_command(server, project):
    Handler.seen.clear()
    done = run("sniff", f"{server}/ascii", "--json", cwd=project, module="scrapy")
    report = as_json(done)
    assert ("/ascii", "sniff-test-agent") in Handler.seen
    assert report["input"]["spider"] == "default"
    assert report["decision"] == sniff(ASCII, content_type="text/html", locale="ja", detector="off").as_dict()
    # --spider: the spider's custom_settings for the fetch, its whatwg_encoding_locale for the decision.
    report = as_json(run("sniff", f"{server}/ascii", "--json", "--spider", "russian", cwd=project, module="scrapy"))
    assert ("/ascii", "russian-agent") in Handler.seen
    assert report["input"]["spider"] == "russian" and report["decision"]["encoding"] == "windows-1251"
    # Text output, and the listing of commands shows it.
    done = run("sniff", f"{server}/koi8", cwd=project, module="scrapy")
    assert done.returncode == 0 and "Decision: KOI8-R (certain), source transport" in done.stdout
    assert "Server's Content-Type: text/html; charset=KOI8-R; the add-on's middleware sniffs it" in done.stdout
    assert "sniff" in run(cwd=project, module="scrapy").stdout


def test_scrapy_sniff_reads_a_path_with_the_project_settings(project):
    (project / "page.html").write_bytes(ASCII)
    report = as_json(run("sniff", "page.html", "--json", cwd=project, module="scrapy"))
    assert report["input"]["path"] == "page.html" and report["decision"]["encoding"] == "Shift_JIS"


def test_scrapy_sniff_takes_explains_options(project, tmp_path):
    """Issue 19: docs/cli.rst says ``scrapy sniff`` takes ``explain``'s options, --html included."""
    (project / "page.html").write_bytes(ASCII)
    html = tmp_path / "sniff.html"
    done = run("sniff", "page.html", "--html", str(html), "--detector", "off", cwd=project, module="scrapy")
    assert done.returncode == 0, done.stderr
    assert "Decision: " in done.stdout and "<h1>Encoding of page.html</h1>" in html.read_text("utf-8")
    explain_help = run("explain", "--help", cwd=tmp_path).stdout
    sniff_help = run("sniff", "--help", cwd=project, module="scrapy").stdout
    for option in ("--content-type", "--locale", "--default", "--override", "--likely", "--detector",
                   "--prescan-bytes", "--json", "--html"):
        assert option in explain_help and option in sniff_help, option


def test_scrapy_sniff_outside_a_project(server, tmp_path):
    done = run("sniff", f"{server}/koi8", cwd=tmp_path, module="scrapy")
    assert done.returncode == 0, done.stderr
    assert "the add-on's middleware sniffs it" not in done.stdout
    assert ("Server's Content-Type: text/html; charset=KOI8-R; the add-on is not enabled in these settings; "
            "its middleware would sniff it") in done.stdout


def test_feed_kind_from_the_servers_content_type(server, tmp_path):
    report = as_json(run("explain", f"{server}/feed", "--json", cwd=tmp_path))
    assert report["kind"] == "xml" and report["kind_from"] == "from the server's Content-Type"
    assert report["decision"] == {"encoding": "KOI8-R", "confidence": "certain", "source": "xml-declaration",
                                  "label": "koi8-r", "offset": 0}
    # No Content-Type at all: HTML, whatever the URL's extension (a URL is no file name).
    report = as_json(run("explain", f"{server}/untyped.xml", "--json", cwd=tmp_path))
    assert report["kind"] == "html" and report["kind_from"] == "by default: no Content-Type"
    assert report["decision"] == sniff(FEED).as_dict()
    done = run("explain", f"{server}/feed", "--content-type", "text/html", cwd=tmp_path)
    assert done.returncode == 0 and "Document kind: HTML (from --content-type)" in done.stdout


@pytest.mark.parametrize("where, args, message", [
    ("project", ["-s", "WHATWG_ENCODING_DETECTOR=fast"], "WHATWG_ENCODING_DETECTOR: invalid value 'fast'"),
    ("outside", ["-s", "WHATWG_ENCODING_DETECTOR=fast"], "WHATWG_ENCODING_DETECTOR: invalid value 'fast'"),
    ("project", ["--spider", "broken"], "WHATWG_ENCODING_PRESCAN_BYTES: invalid value 0"),
    ("project", ["-s", "WHATWG_ENCODING_LOCALE=not a tag"], "WHATWG_ENCODING_LOCALE"),
])
def test_scrapy_sniff_invalid_setting_is_a_usage_error(server, project, tmp_path, where, args, message):
    # With the add-on (project) its middleware refuses the value when the crawl starts; without
    # it (outside) the command reads the settings itself: a usage error either way.
    done = run("sniff", f"{server}/ascii", *args, cwd=project if where == "project" else tmp_path, module="scrapy")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: invalid setting: ") and message in lines[0], done.stderr


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("module", ["scrapy_whatwg_encoding", "scrapy"])
def test_fetch_failures_exit_1_with_one_line(server, project, tmp_path, module):
    command = "explain" if module == "scrapy_whatwg_encoding" else "sniff"
    for url, message in ((f"{server}/missing", "HTTP status 404"),
                         (f"http://127.0.0.1:{_closed_port()}/", "Connection was refused")):
        done = run(command, url, cwd=project if module == "scrapy" else tmp_path, module=module)
        assert done.returncode == 1, done.stderr
        assert done.stdout == ""
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: cannot fetch {url}") and message in lines[0]


def test_scrapy_sniff_usage_error(project):
    done = run("sniff", cwd=project, module="scrapy")
    assert done.returncode == 2 and "Traceback" not in done.stderr
