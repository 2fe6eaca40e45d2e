"""Benchmark: Scrapy with vs without the add-on, side by side in one run.

Usage: python tools/bench_crawl.py [--pages 2400] [--rounds 2] [--repeat 5] [--concurrency 32]
       python tools/bench_crawl.py --rss [--pages 5000] [--runs 3] [--trace [N]]

Pages: the public corpus (tests/data/corpus) and the bundled demo site, each served twice: once
with the charset in ``Content-Type`` (labeled; the manifest's encoding, or the demo page's header)
and once as plain ``text/html`` (labels only in the document, or none at all).

1. Throughput: an HTTP server in a separate process serves ``--pages`` URLs cycling through those
   pages; the same crawl (callback reads ``title`` through a selector, so both decode the text) runs
   without and with ``ADDONS = {"scrapy_whatwg_encoding.Addon": 0}``, alternating, ``--rounds``
   times each. Prints pages/s of each run (wall clock, and per CPU second of the crawling process,
   which other load on the machine disturbs less) and the ratios (with / without; 1.0 = no slowdown).
2. Per-response cost, in process, timed as tools/bench_classes.py does (its ``best_pair``):
   Scrapy's own ``response.encoding`` + ``response.text`` against the add-on's two middlewares
   (stats on) + ``.text`` on identical fresh responses, best of ``--repeat`` per page, summed per
   group (tools/bench_classes.py has the finer classes of issue 17). Groups: *labeled* (charset in the
   header), *in-document* (no header charset, a BOM / <meta> / XML declaration), *unlabeled* (no
   label anywhere: Scrapy guesses, the add-on detects). Prints µs/page, the median over pages of
   each page's ratio (ours / Scrapy; below 1.0 = the typical page is cheaper than with Scrapy
   alone) and the ratio of the sums, and how much of ours is ``sniff()`` itself and the suspect-label
   check (``sniffing.mislabel.suspect_label``, run by the middleware on label-decided pages; the
   decode it may do is the one ``.text`` then reuses, so "ours" pays it once).
3. Peak memory (``--rss``, instead of 1 and 2): each crawl of ``--pages`` URLs (default 5,000) runs
   in a fresh interpreter of its own, so that peaks do not mix; without and with the add-on
   alternate (the first of each round alternating too), ``--runs`` times each. Prints, per crawl
   process, the RSS after the imports and before the crawl and the peak RSS (``VmHWM`` of
   ``/proc/self/status``, MB), then the medians, spread (min–max) and the ratio with / without.
   The package's bytecode is compiled first (as an installed wheel's); ``--package-dir DIR`` crawls
   with the package in DIR (e.g. ``git archive main scrapy_whatwg_encoding | tar -x -C DIR``).
   ``--trace`` adds one traced crawl of each kind (``tracemalloc`` from interpreter start, so
   import-time allocations count) and prints the Python memory still allocated after the crawl
   grouped by file, the files where with and without differ most first.
"""
from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
import tracemalloc
from importlib.util import find_spec
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus"
DEMO = REPO / "example_project" / "demo" / "site"


def load_pages() -> list[tuple[str, bytes, str]]:
    """``(name, body, content_type)``: each corpus and demo page labeled and bare (binary ones left out)."""
    pages = []
    for entry in json.loads((CORPUS / "manifest.json").read_text("utf-8")):
        body = (CORPUS / entry["path"]).read_bytes()
        if entry["encoding"]:
            pages.append((entry["path"], body, f"text/html; charset={entry['encoding']}"))
        pages.append((entry["path"], body, "text/html"))
    for path, info in json.loads((DEMO / "pages.json").read_text("utf-8")).items():
        if info["expect"] is None:
            continue
        body = (DEMO / path).read_bytes()
        if info["content_type"] and "charset" in info["content_type"]:
            pages.append((path, body, info["content_type"]))
        pages.append((path, body, (info["content_type"] or "text/html").split(";")[0]))
    return pages


# --- the server process -------------------------------------------------------------------

def serve() -> None:
    from twisted.internet import reactor
    from twisted.web import resource, server

    pages = load_pages()

    class Pages(resource.Resource):
        isLeaf = True

        def render(self, request):
            index = int(request.path.rsplit(b"/", 1)[-1])
            _, body, content_type = pages[index % len(pages)]
            request.setHeader(b"Content-Type", content_type.encode("latin-1"))
            return body

    site = server.Site(Pages())
    site.noisy = False
    port = reactor.listenTCP(0, site, interface="127.0.0.1")
    print(port.getHost().port, flush=True)
    reactor.run()


# --- 1. throughput ------------------------------------------------------------------------

def start_server() -> tuple[subprocess.Popen, str]:
    """:func:`serve` in its own process; the process and the base URL of its pages."""
    proc = subprocess.Popen([sys.executable, __file__, "--serve"], stdout=subprocess.PIPE, text=True)
    return proc, f"http://127.0.0.1:{proc.stdout.readline().strip()}/p/"


def bench_spider(base: str, pages: int, read_title: bool):
    """A spider class requesting ``base + str(i)`` for i < *pages*; its callback reads the title
    through a selector (decoding the text) when *read_title*."""
    import scrapy
    from scrapy.http import TextResponse

    class Bench(scrapy.Spider):
        name = "bench"

        async def start(self):
            for i in range(pages):
                yield scrapy.Request(f"{base}{i}", dont_filter=True)

        def parse(self, response):
            if read_title and isinstance(response, TextResponse):
                response.xpath("//title/text()").get()

    return Bench


def crawl_settings(concurrency: int) -> dict:
    """The settings both benchmarks crawl with (no add-on)."""
    return {"LOG_LEVEL": "ERROR", "CONCURRENT_REQUESTS": concurrency, "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
            "TELNETCONSOLE_ENABLED": False, "REMOTE_CONTROL_ENABLED": False, "ROBOTSTXT_OBEY": False}


def throughput(args) -> list[tuple[str, float]]:
    from scrapy.crawler import CrawlerRunner
    from scrapy.utils.log import configure_logging
    from scrapy.utils.reactor import install_reactor

    install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    from twisted.internet import defer, reactor

    proc, base = start_server()
    Bench = bench_spider(base, args.pages, args.callback == "text")
    configure_logging({"LOG_LEVEL": "ERROR"})
    common = crawl_settings(args.concurrency)
    runs = []

    @defer.inlineCallbacks
    def run_all():
        try:
            for _ in range(args.rounds):
                for label, extra in (("without", {}), ("with", {"ADDONS": {"scrapy_whatwg_encoding.Addon": 0}})):
                    runner = CrawlerRunner({**common, **extra})
                    crawler = runner.create_crawler(Bench)
                    cpu = time.process_time()
                    yield runner.crawl(crawler)
                    cpu = time.process_time() - cpu
                    stats = crawler.stats.get_stats()
                    seconds = (stats["finish_time"] - stats["start_time"]).total_seconds()
                    assert stats.get("response_received_count") == args.pages, stats
                    if label == "with":
                        assert stats.get("whatwg_encoding/responses") == args.pages, stats
                        assert "whatwg_encoding/errors" not in stats, stats
                    runs.append((label, args.pages / seconds, args.pages / cpu))
        finally:
            reactor.stop()

    reactor.callWhenRunning(run_all)
    reactor.run()
    proc.terminate()
    proc.wait()
    return runs


# --- 2. per-response cost -----------------------------------------------------------------

def per_response(args) -> dict[str, tuple[int, float, float, float, float, float]]:
    from bench_classes import Ours, Page, best_pair  # the per-page timing of tools/bench_classes.py

    from scrapy_whatwg_encoding import sniff
    from scrapy_whatwg_encoding.sniffing.mislabel import suspect_label

    ours = Ours()
    groups: dict[str, list[float]] = {name: [0, 0.0, 0.0, 0.0, 0.0] for name in ("labeled", "in-document", "unlabeled")}
    page_ratios: dict[str, list[float]] = {name: [] for name in groups}
    clock = time.perf_counter
    for i, (name, body, content_type) in enumerate(load_pages()):
        url = f"http://127.0.0.1/p/{i}"
        decision = sniff(body, content_type=content_type, url=url)
        source = decision.source
        group = ("labeled" if source == "transport" else
                 "unlabeled" if source in ("detector", "default") else "in-document")
        best_sniff = best_suspect = float("inf")
        for _ in range(args.repeat):
            start = clock()
            sniff(body, content_type=content_type, url=url)
            best_sniff = min(best_sniff, clock() - start)
            start = clock()
            suspect_label(body, decision, url=url)
            best_suspect = min(best_suspect, clock() - start)
        best_scrapy, best_ours = best_pair(Page(group, name, url, content_type, body, None), ours, args.repeat)
        entry = groups[group]
        entry[0] += 1
        entry[1] += best_scrapy / 1e9
        entry[2] += best_ours / 1e9
        entry[3] += best_sniff
        entry[4] += best_suspect
        page_ratios[group].append(best_ours / best_scrapy)
    assert ours.errors() == 0
    return {k: (*v, statistics.median(page_ratios[k]) if page_ratios[k] else float("nan")) for k, v in groups.items()}


# --- 3. peak memory -----------------------------------------------------------------------

def proc_status_mb(field: str) -> float:
    """*field* (``VmRSS``, ``VmHWM``) of ``/proc/self/status``, in MB (2**20 bytes)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise LookupError(field)


def crawl_once(args) -> None:
    """One crawl in this (fresh) interpreter; prints a JSON line with its memory figures."""
    if args.trace:
        tracemalloc.start()
    from scrapy.crawler import CrawlerRunner
    from scrapy.utils.log import configure_logging
    from scrapy.utils.reactor import install_reactor

    install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    from twisted.internet import defer, reactor

    Bench = bench_spider(args.crawl_once, args.pages, args.callback == "text")
    configure_logging({"LOG_LEVEL": "ERROR"})
    extra = {"ADDONS": {"scrapy_whatwg_encoding.Addon": 0}} if args.addon else {}
    out: dict = {"before_mb": proc_status_mb("VmRSS"), "file": find_spec("scrapy_whatwg_encoding").origin}

    @defer.inlineCallbacks
    def run():
        try:
            runner = CrawlerRunner({**crawl_settings(args.concurrency), **extra})
            crawler = runner.create_crawler(Bench)
            cpu = time.process_time()
            yield runner.crawl(crawler)
            out["cpu_s"] = time.process_time() - cpu
            stats = crawler.stats.get_stats()
            assert stats.get("response_received_count") == args.pages, stats
            if args.addon:
                assert stats.get("whatwg_encoding/responses") == args.pages, stats
                assert "whatwg_encoding/errors" not in stats, stats
        finally:
            reactor.stop()

    reactor.callWhenRunning(run)
    reactor.run()
    out.update(peak_mb=proc_status_mb("VmHWM"), after_mb=proc_status_mb("VmRSS"))
    if args.trace:
        gc.collect()
        out["traced_mb"] = tracemalloc.get_traced_memory()[0] / 2**20
        out["by_file"] = {stat.traceback[0].filename: stat.size
                          for stat in tracemalloc.take_snapshot().statistics("filename")}
    print(json.dumps(out), flush=True)


def peak_memory(args) -> None:
    """Interleaved crawls, each in its own interpreter; prints the table of peaks and the ratio."""
    from bench_memory import compile_package, interpreter

    python, env = interpreter(args.package_dir)
    compile_package(python, env)
    proc, base = start_server()
    runs: dict[str, list[dict]] = {"without": [], "with": []}

    def crawl(label: str, trace: bool = False) -> dict:
        command = [*python, __file__, "--crawl-once", base, "--pages", str(args.pages),
                   "--concurrency", str(args.concurrency), "--callback", args.callback]
        command += ["--addon"] * (label == "with") + ["--trace"] * trace
        output = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout
        row = json.loads(output.splitlines()[-1])
        if not trace:
            if not runs["with"] and not runs["without"]:
                print(f"(package: {row['file']})")
            runs[label].append(row)
            print(f"  {label:<8} add-on  before crawl {row['before_mb']:6.1f} MB  peak {row['peak_mb']:6.1f} MB  "
                  f"after {row['after_mb']:6.1f} MB  CPU {row['cpu_s']:5.1f} s", flush=True)
        return row

    print(f"Peak RSS, {args.pages} pages per crawl, concurrency {args.concurrency}, one interpreter per crawl")
    try:
        for i in range(args.runs):
            for label in (("without", "with") if i % 2 == 0 else ("with", "without")):
                crawl(label)
        traced = {label: crawl(label, trace=True) for label in ("without", "with")} if args.trace else None
    finally:
        proc.terminate()
        proc.wait()

    def summary(key: str, label: str) -> str:
        values = [row[key] for row in runs[label]]
        return f"{statistics.median(values):6.1f} ({min(values):.1f}–{max(values):.1f})"

    print(f"\n  {'MB, median (min–max)':<22} {'without':>18} {'with':>18} {'with − without':>15} {'ratio':>6}")
    for key, name in (("before_mb", "RSS before the crawl"), ("peak_mb", "peak RSS (VmHWM)"),
                      ("after_mb", "RSS after the crawl")):
        without = statistics.median(row[key] for row in runs["without"])
        with_ = statistics.median(row[key] for row in runs["with"])
        print(f"  {name:<22} {summary(key, 'without'):>18} {summary(key, 'with'):>18} "
              f"{with_ - without:>+15.1f} {with_ / without:>6.3f}")
    if traced:
        print(f"\nPython memory allocated after the crawl (tracemalloc from start, one traced crawl each): "
              f"without {traced['without']['traced_mb']:.1f} MB, with {traced['with']['traced_mb']:.1f} MB")
        files = set(traced["without"]["by_file"]) | set(traced["with"]["by_file"])
        diff = sorted(((traced["with"]["by_file"].get(f, 0) - traced["without"]["by_file"].get(f, 0), f)
                       for f in files), key=lambda d: -abs(d[0]))
        print(f"  {'with − without KB':>18}  file")
        for delta, name in diff[:args.trace]:
            print(f"  {delta / 1024:>+18.1f}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, help="URLs per crawl (default 2400; 5000 with --rss)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--callback", choices=("text", "none"), default="text",
                        help="what the crawl's callback does: read the title (default) or nothing")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--skip-crawl", action="store_true", help="only the per-response part")
    parser.add_argument("--rss", action="store_true", help="only the peak memory of crawls (default --pages 5000)")
    parser.add_argument("--runs", type=int, default=3, help="crawls of each kind with --rss")
    parser.add_argument("--trace", type=int, nargs="?", const=25, default=0,
                        help="with --rss: one traced crawl each, the N files that differ most (default 25)")
    parser.add_argument("--crawl-once", metavar="BASE", help=argparse.SUPPRESS)
    parser.add_argument("--addon", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--package-dir", help="with --rss: crawl with the package found in this directory "
                        "(e.g. an older commit, from git archive) instead")
    args = parser.parse_args()
    if args.serve:
        return serve()
    if args.crawl_once:
        return crawl_once(args)
    if args.rss:
        args.pages = args.pages or 5000
        return peak_memory(args)
    args.pages = args.pages or 2400

    print(f"Per-response cost (best of {args.repeat}), Scrapy .encoding+.text vs the middlewares+.text:")
    print(f"  {'group':<12} {'pages':>5} {'Scrapy µs':>10} {'ours µs':>10} {'per-page':>8} {'total':>6}"
          f"   (of ours: sniff() µs, suspect_label() µs)")
    for group, (count, scrapy_s, ours_s, sniff_s, suspect_s, per_page) in per_response(args).items():
        if count:
            print(f"  {group:<12} {count:>5} {1e6 * scrapy_s / count:>10.1f} {1e6 * ours_s / count:>10.1f} "
                  f"{per_page:>8.2f} {ours_s / scrapy_s:>6.2f}   ({1e6 * sniff_s / count:.1f}, {1e6 * suspect_s / count:.1f})")
    if args.skip_crawl:
        return
    runs = throughput(args)
    print(f"\nThroughput, {args.pages} pages per crawl, concurrency {args.concurrency}, "
          f"callback {'reads the title' if args.callback == 'text' else 'does nothing'}:")
    print(f"  {'':<15} {'pages/s':>8} {'pages/CPU-s':>12}")
    for label, rate, cpu_rate in runs:
        print(f"  {label:<8} add-on {rate:8.1f} {cpu_rate:12.1f}")
    for column, name in ((1, "wall clock"), (2, "crawler CPU time")):
        without = [run[column] for run in runs if run[0] == "without"]
        with_ = [run[column] for run in runs if run[0] == "with"]
        print(f"  ratio with / without ({name}, mean of rounds): "
              f"{sum(with_) / len(with_) / (sum(without) / len(without)):.3f}")


if __name__ == "__main__":
    main()
