"""Benchmark: memory and first-use latency of each multi-byte decoder and encoder.

Usage: python tools/bench_memory.py [--runs 5] [--names Big5 EUC-JP ...] [--package-dir DIR]

--package-dir DIR measures the package found in DIR instead (e.g. an older commit unpacked with
``git archive main scrapy_whatwg_encoding | tar -x -C DIR``), for a before/after table.

Each measurement runs in a fresh interpreter (``python -c``) that imports the package, then
decodes one real page (tests/data/corpus) with the encoding, then encodes its text: prints the
Python memory the first decode and the first encode allocate and keep (tracemalloc, MB), the
peak RSS growth of each step (MB, ru_maxrss), and the first decode's and first encode's CPU time
(ms, table loading included; a second decode of the same page is given for comparison). Median
of --runs fresh interpreters; the spread (min–max) of the times is shown too.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import site
import statistics
import subprocess
import sys

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"
SCRIPT = r"""
import json, resource, sys, time, tracemalloc
name, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
tracemalloc.start()
import scrapy_whatwg_encoding
from scrapy_whatwg_encoding import ENCODINGS
enc = ENCODINGS[name]
def rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out = {"file": scrapy_whatwg_encoding.__file__}
m0, r0 = tracemalloc.get_traced_memory()[0], rss()
t = time.process_time(); text = enc.decode(data); out["decode_ms"] = (time.process_time() - t) * 1e3
m1, r1 = tracemalloc.get_traced_memory()[0], rss()
t = time.process_time(); enc.decode(data); out["again_ms"] = (time.process_time() - t) * 1e3
t = time.process_time(); enc.encode(text); out["encode_ms"] = (time.process_time() - t) * 1e3
m2, r2 = tracemalloc.get_traced_memory()[0], rss()
out.update(decode_mb=(m1 - m0) / 2**20, encode_mb=(m2 - m1) / 2**20, decode_rss=r1 - r0, encode_rss=r2 - r1)
print(json.dumps(out))
"""
PAGES = {"Big5": "Big5", "EUC-JP": "EUC-JP", "Shift_JIS": "Shift_JIS", "EUC-KR": "EUC-KR",
         "gb18030": "GBK", "GBK": "GBK", "ISO-2022-JP": "EUC-JP"}


def page(name: str) -> pathlib.Path:
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    paths = [CORPUS / e["path"] for e in manifest if e["encoding"] == PAGES[name]]
    return max(paths, key=lambda p: p.stat().st_size)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--names", nargs="*", default=list(PAGES))
    parser.add_argument("--package-dir")
    args = parser.parse_args()
    command, env = [sys.executable], None
    if args.package_dir:  # no site hooks (the editable install's), the package dir first
        command.append("-S")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([args.package_dir, *site.getsitepackages()]))
    print(f"Median of {args.runs} fresh interpreters (spread of times min–max)")
    print(f"{'encoding':12} {'decode MB':>9} {'RSS MB':>6} {'1st decode ms':>20} {'2nd ms':>6} "
          f"{'encode MB':>9} {'RSS MB':>6} {'1st encode ms':>20}")
    first = True
    for name in args.names:
        data_path = page(name)
        if name == "ISO-2022-JP":  # an EUC-JP page re-encoded
            from scrapy_whatwg_encoding import ENCODINGS
            data_path = pathlib.Path("/tmp/bench_memory_iso2022jp.html")
            data_path.write_bytes(ENCODINGS[name].encode(ENCODINGS["EUC-JP"].decode(page("EUC-JP").read_bytes())))
        rows = [json.loads(subprocess.run([*command, "-c", SCRIPT, name, str(data_path)], check=True,
                                          capture_output=True, text=True, env=env, cwd="/").stdout) for _ in range(args.runs)]
        if first:
            print(f"(package: {rows[0]['file']})")
            first = False

        def med(key, rows=rows):
            return statistics.median(r[key] for r in rows)

        def spread(key, rows=rows):
            values = [r[key] for r in rows]
            return f"{med(key):6.1f} ({min(values):.1f}–{max(values):.1f})"

        print(f"{name:12} {med('decode_mb'):9.2f} {med('decode_rss'):6.1f} {spread('decode_ms'):>20} "
              f"{med('again_ms'):6.2f} {med('encode_mb'):9.2f} {med('encode_rss'):6.1f} {spread('encode_ms'):>20}")


if __name__ == "__main__":
    main()
