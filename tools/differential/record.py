"""Record what headless Firefox ESR and Chromium say ``document.characterSet`` is for the
grammar's documents (tools/differential/grammar.py), into one JSON-lines file.

    python tools/differential/record.py --seed 18 --count 22000 --out tests/data/browsers/answers.jsonl

A threaded HTTP server on 127.0.0.1 serves ``/doc/<index>`` with the document's own
Content-Type (regenerated from the seed on each request); ``recorder.mjs`` (Node,
puppeteer-core, ``npm install`` in this folder) drives both browsers at once, each with
``--tabs`` pages loading at the same time. Each browser's run starts and ends with a check that
scripting is off (``<noscript>`` parses as markup, the page's ``<script>`` does not run); the
recording stops if it is not. Answers are appended to ``OUT.<browser>.raw`` as they come, so an
interrupted run resumes where it stopped. The output: a first line ``{"seed", "start", "count",
"host", "browsers": {name: version}, "docs_per_second": {...}, "tabs"}``, then one line per
document ``{"i": index, "family": ..., "firefox": name, "chromium": name}`` (a name, or ``null``
where the load failed: a download, a time-out).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import grammar

NOSCRIPT_CHECK = (b"<!doctype html><title>t</title><body><noscript><p id=inside>x</p></noscript>"
                  b"<script>document.title = 'script ran'</script>")


def serve(seed: int, document=None) -> ThreadingHTTPServer:
    """The document server on 127.0.0.1: ``/doc/<index>`` is document *index* of *seed* (or
    ``document(index)``, a ``(family, Content-Type or None, body)`` triple). A Content-Type of
    ``None`` sends no Content-Type header (an untyped response)."""
    build = document or (lambda index: grammar.document(seed, index))

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/noscript-check":
                content_type, body = "text/html", NOSCRIPT_CHECK
            elif self.path.startswith("/doc/") and self.path[5:].isdigit():
                _, content_type, body = build(int(self.path[5:]))
            else:
                self.send_error(404)
                return
            self.send_response(200)
            if content_type is not None:
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


def record(browser: str, origin: str, indices: list[int], tabs: int, raw: pathlib.Path) -> dict:
    """Run recorder.mjs over *indices*, appending its answer lines to *raw*; returns the closing
    check line (browser version, speed). Raises SystemExit if scripting was on or it failed."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as listing:
        json.dump(indices, listing)
    process = subprocess.Popen(["node", str(HERE / "recorder.mjs"), browser, origin, listing.name, str(tabs)],
                               stdout=subprocess.PIPE, text=True, cwd=HERE)
    checks = []
    assert process.stdout is not None
    with raw.open("a", encoding="utf-8") as out:
        for done, line in enumerate(process.stdout):
            item = json.loads(line)
            if "check" in item:
                checks.append(item)
                if not item["check"]["scriptingOff"]:
                    process.kill()
                    raise SystemExit(f"{browser}: scripting is not off: {item}")
                out.write(json.dumps(item) + "\n")
            else:
                out.write(json.dumps({"i": item["i"], "cs": item.get("cs"),
                                      **({"error": item["error"]} if "error" in item else {})}) + "\n")
            out.flush()
            if done % 1000 == 0:
                print(f"{browser}: {done}/{len(indices)}", file=sys.stderr, flush=True)
    pathlib.Path(listing.name).unlink()
    if process.wait() != 0 or len(checks) != 2:
        raise SystemExit(f"{browser}: recorder failed (exit {process.returncode})")
    return checks[-1]


def read_raw(raw: pathlib.Path) -> tuple[dict[int, str | None], list[dict]]:
    """The answers and check lines recorded so far in *raw*."""
    answers, checks = {}, []
    if raw.exists():
        for line in raw.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if "check" in item:
                checks.append(item)
            else:
                answers[item["i"]] = item["cs"]
    return answers, checks


def record_all(browsers: list[str], origin: str, indices: list[int], tabs: int, out: str) -> dict[str, tuple]:
    """Every browser of *browsers* records the documents *indices* served at *origin*, all at the
    same time, resumably (``OUT.<browser>.raw`` keeps what is recorded, see :func:`read_raw`);
    returns each browser's ``(answers, check lines)``."""
    raws = {browser: pathlib.Path(f"{out}.{browser}.raw") for browser in browsers}

    def run(browser):
        done = read_raw(raws[browser])[0]
        todo = [i for i in indices if i not in done]
        if todo:
            record(browser, origin, todo, tabs, raws[browser])

    threads = [threading.Thread(target=run, args=(browser,)) for browser in browsers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {browser: read_raw(raws[browser]) for browser in browsers}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--count", type=int, default=22000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--tabs", type=int, default=6, help="pages loading at once, per browser")
    parser.add_argument("--browsers", default="firefox,chromium")
    parser.add_argument("--host", default="127.0.0.1",
                        help="host name in the URLs (resolved to 127.0.0.1 in the browsers), for TLD hints")
    parser.add_argument("--family", help="record only the first --count documents of this family")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if args.family:
        indices = [i for i, family, _, _ in grammar.documents(args.seed, 50 * args.count, args.start)
                   if family == args.family][:args.count]
    else:
        indices = list(range(args.start, args.start + args.count))
    browsers = args.browsers.split(",")
    server = serve(args.seed)
    recorded = record_all(browsers, f"http://{args.host}:{server.server_address[1]}", indices, args.tabs, args.out)
    server.shutdown()
    results, versions, speed = {}, {}, {}
    for browser in browsers:
        answers, checks = recorded[browser]
        missing = [i for i in indices if i not in answers]
        if missing:
            raise SystemExit(f"{browser}: {len(missing)} documents not recorded")
        results[browser] = answers
        versions[browser] = checks[-1]["check"]["browser"]
        runs = [c for c in checks if "docsPerSecond" in c]
        # docs/s over the finished runs (an unfinished one, stopped and resumed, has no closing line)
        speed[browser] = round(sum(c["docs"] for c in runs) / sum(c["seconds"] for c in runs), 1) if runs else None
        print(f"{browser} {versions[browser]}: {len(indices)} documents, {speed[browser]} docs/s, "
              f"{sum(answers[i] is None for i in indices)} failed loads", file=sys.stderr)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(json.dumps({"seed": args.seed, "start": args.start, "count": len(indices), "host": args.host,
                              "browsers": versions, "docs_per_second": speed, "tabs": args.tabs}) + "\n")
        for index in indices:
            line = {"i": index, "family": grammar.document(args.seed, index)[0]}
            line.update({browser: results[browser][index] for browser in browsers})
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
