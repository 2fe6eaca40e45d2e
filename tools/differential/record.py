"""Record what headless Firefox ESR and Chromium say ``document.characterSet`` is for the
grammar's documents (tools/differential/grammar.py), into one JSON-lines file.

    python tools/differential/record.py --seed 18 --count 22000 --out tests/data/browsers/answers.jsonl

A threaded HTTP server on 127.0.0.1 serves ``/doc/<index>`` with the document's own
Content-Type (regenerated from the seed on each request); ``recorder.mjs`` (Node,
puppeteer-core, ``npm install`` in this folder) drives each browser with several tabs at once.
Each browser's run starts and ends with a check that scripting is off (``<noscript>`` parses as
markup, the page's ``<script>`` does not run); the recording fails if it is not. The output: a
first line ``{"seed", "count", "browsers": {name: version}, "docs_per_second": {...}}``, then
one line per document ``{"i": index, "family": ..., "firefox": name, "chromium": name}`` (a
name, or ``null`` where the load failed: a download, a time-out).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import grammar  # noqa: E402

NOSCRIPT_CHECK = (b"<!doctype html><title>t</title><body><noscript><p id=inside>x</p></noscript>"
                  b"<script>document.title = 'script ran'</script>")


def serve(seed: int) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            if self.path == "/noscript-check":
                content_type, body = "text/html", NOSCRIPT_CHECK
            elif self.path.startswith("/doc/") and self.path[5:].isdigit():
                _, content_type, body = grammar.document(seed, int(self.path[5:]))
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def record(browser: str, origin: str, start: int, count: int, tabs: int, progress=None) -> tuple[dict, dict]:
    """Run recorder.mjs; returns ({index: characterSet or None}, the closing check line)."""
    process = subprocess.Popen(["node", str(HERE / "recorder.mjs"), browser, origin, str(start), str(count),
                                str(tabs)], stdout=subprocess.PIPE, text=True, cwd=HERE)
    answers: dict[int, str | None] = {}
    checks = []
    assert process.stdout is not None
    for line in process.stdout:
        item = json.loads(line)
        if "check" in item:
            checks.append(item)
            if not item["check"]["scriptingOff"]:
                process.kill()
                raise SystemExit(f"{browser}: scripting is not off: {item}")
            continue
        answers[item["i"]] = item.get("cs")
        if progress and len(answers) % 1000 == 0:
            progress(f"{browser}: {len(answers)}/{count}")
    if process.wait() != 0 or len(checks) != 2:
        raise SystemExit(f"{browser}: recorder failed (exit {process.returncode})")
    return answers, checks[-1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--count", type=int, default=22000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--tabs", type=int, default=6, help="pages loading at once, per browser")
    parser.add_argument("--browsers", default="firefox,chromium")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    server = serve(args.seed)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    results, versions, speed, checks = {}, {}, {}, {}

    def run(browser):  # the browsers record at the same time, each with --tabs pages
        results[browser], checks[browser] = record(browser, origin, args.start, args.count, args.tabs,
                                                   progress=lambda s: print(s, file=sys.stderr, flush=True))

    threads = [threading.Thread(target=run, args=(b,)) for b in args.browsers.split(",")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for browser in args.browsers.split(","):
        answers, check = results[browser], checks[browser]
        versions[browser] = check["check"]["browser"]
        speed[browser] = round(check["docsPerSecond"], 1)
        print(f"{browser} {versions[browser]}: {args.count} documents, {speed[browser]} docs/s, "
              f"{sum(v is None for v in answers.values())} failed loads", file=sys.stderr)
    server.shutdown()
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(json.dumps({"seed": args.seed, "start": args.start, "count": args.count,
                              "browsers": versions, "docs_per_second": speed, "tabs": args.tabs}) + "\n")
        for index in range(args.start, args.start + args.count):
            line = {"i": index, "family": grammar.document(args.seed, index)[0]}
            line.update({browser: results[browser].get(index) for browser in results})
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
