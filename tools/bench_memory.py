"""Benchmark: memory and latency of each decoder's first use, against CPython's nearest C codec.

Usage: python tools/bench_memory.py [--runs 5] [--names Big5 EUC-JP ...] [--package-dir DIR]

--package-dir DIR measures the package found in DIR instead (e.g. an older commit unpacked with
``git archive main scrapy_whatwg_encoding | tar -x -C DIR``), for a before/after table.

Each measurement runs in a fresh interpreter (``python -c``) that decodes one real page
(tests/data/corpus; the largest in the encoding, ISO-2022-JP an EUC-JP page re-encoded) and then
encodes its text, either with the package (imported first: its import cost is printed first) or
with CPython's nearest C codec (``bytes.decode(codec, "replace")``, the codec tools/bench_decoders.py
compares with; its first use imports the codec's module). Printed per encoding:

- *kept MB*: the Python memory the first decode allocates and keeps, the text itself left out
  (modules, tables, caches; ``tracemalloc``, in a traced interpreter of its own),
- *RSS MB*: the growth of the resident set (``VmRSS``) over the first decode (the text included),
- *1st ms*: the CPU time of the first decode (modules and tables loaded on the way), and *2nd ms*
  of a second decode of the same page; then the same for the first encode.

The package's bytecode is compiled beforehand, as an installed wheel's is (not at each import).
Times and RSS are the median of --runs untraced interpreters, ours and C's alternating, with the
spread (min–max) of the first decode's time.
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
import tempfile

from bench_decoders import corpus_inputs, corpus_pages, nearest

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"
SCRIPT = r"""
import gc, json, sys, time
name, c_codec, path, traced = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
data = open(path, "rb").read()
if traced:
    import tracemalloc
    tracemalloc.start()
def kept():  # after a collection, so that no earlier garbage is counted as freed
    if not traced:
        return 0.0
    gc.collect()
    return tracemalloc.get_traced_memory()[0] / 2**20
def rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
out = {}
if name != "-":  # ours: the package is imported first
    import scrapy_whatwg_encoding
    out["file"] = scrapy_whatwg_encoding.__file__
    encoding = scrapy_whatwg_encoding.ENCODINGS[name]
    decode, encode = encoding.decode, encoding.encode
else:
    def decode(data): return data.decode(c_codec, "replace")
    def encode(text): return text.encode(c_codec, "xmlcharrefreplace")
m0, r0 = kept(), rss()
t = time.process_time(); text = decode(data); out["decode_ms"] = (time.process_time() - t) * 1e3
r1 = rss()
t = time.process_time(); decode(data); out["again_ms"] = (time.process_time() - t) * 1e3
size = sys.getsizeof(text) / 2**20
m1 = kept() - size
t = time.process_time(); encoded = encode(text); out["encode_ms"] = (time.process_time() - t) * 1e3
r2 = rss()
t = time.process_time(); encode(text); out["encode_again_ms"] = (time.process_time() - t) * 1e3
m2 = kept() - size - sys.getsizeof(encoded) / 2**20
out.update(decode_mb=m1 - m0, encode_mb=m2 - m1, decode_rss=r1 - r0, encode_rss=r2 - r1)
print(json.dumps(out))
"""


IMPORT_SCRIPT = r"""
import gc, json, sys, time
traced = sys.argv[2] == "1"
if sys.argv[1] == "scrapy":  # what a crawl without the add-on has imported before the add-on's first import
    import scrapy.crawler, scrapy.downloadermiddlewares.httpcompression, scrapy.http, scrapy.spiders
if traced:
    import tracemalloc
    tracemalloc.start()
def rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
modules, r0, t = len(sys.modules), rss(), time.process_time()
if sys.argv[1] == "scrapy":
    import scrapy_whatwg_encoding.scrapy
else:
    import scrapy_whatwg_encoding
out = {"ms": (time.process_time() - t) * 1e3, "rss": rss() - r0, "modules": len(sys.modules) - modules}
if traced:
    gc.collect()
    out["kept"] = tracemalloc.get_traced_memory()[0] / 2**20
print(json.dumps(out))
"""
IMPORTS = {"package": "import scrapy_whatwg_encoding (fresh interpreter)",
           "scrapy": "import scrapy_whatwg_encoding.scrapy (Scrapy imported)"}


def interpreter(package_dir: str | None) -> tuple[list[str], dict | None]:
    """The command (a list) and environment of child interpreters: this one's, or with the package
    found in *package_dir* first (no site hooks: the editable install's would win)."""
    if not package_dir:
        return [sys.executable], None
    return [sys.executable, "-S"], dict(os.environ, PYTHONPATH=os.pathsep.join([package_dir, *site.getsitepackages()]))


def compile_package(command: list[str], env: dict | None) -> None:
    """Compile the package's bytecode (its ``__pycache__``, ignored by git) as installing a wheel
    does, so that child interpreters do not compile the source at each import (as they would
    under PYTHONDONTWRITEBYTECODE). *command*: the interpreter and its options."""
    code = ("import compileall, importlib.util, os; compileall.compile_dir(os.path.dirname("
            "importlib.util.find_spec('scrapy_whatwg_encoding').origin), quiet=1)")
    subprocess.run([*command, "-c", code], env=env, check=True, cwd="/")


def pages(names: list[str], directory: pathlib.Path) -> dict[str, pathlib.Path]:
    """name -> a file holding the largest corpus page in that encoding."""
    inputs = corpus_inputs(corpus_pages(CORPUS))
    result = {}
    for name in names:
        path = directory / f"{name}.html"
        path.write_bytes(max(inputs[name], key=len))
        result[name] = path
    return result


def default_names() -> list[str]:
    """The encodings the corpus has pages of, and the multi-byte ones it has not (gb18030, ISO-2022-JP)."""
    from scrapy_whatwg_encoding import get_encoding

    own = {get_encoding(e["encoding"]).name for e in json.loads((CORPUS / "manifest.json").read_text())
           if e["encoding"]}
    return [*sorted(own, key=str.lower), "gb18030", "ISO-2022-JP"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--names", nargs="*")
    parser.add_argument("--package-dir")
    args = parser.parse_args()
    names = args.names or default_names()
    command, env = interpreter(args.package_dir)

    def child(name: str, path: pathlib.Path, ours: bool, traced: bool) -> dict:
        argv = [*command, "-c", SCRIPT, name if ours else "-", nearest(name), str(path), "1" if traced else "0"]
        return json.loads(subprocess.run(argv, check=True, capture_output=True, text=True, env=env, cwd="/").stdout)

    compile_package(command, env)
    with tempfile.TemporaryDirectory() as directory:
        paths = pages(names, pathlib.Path(directory))
        rows: dict[tuple[str, bool], list[dict]] = {(name, ours): [] for name in names for ours in (True, False)}
        for run in range(args.runs):
            for name in names:
                for ours in ((True, False) if run % 2 == 0 else (False, True)):
                    rows[name, ours].append(child(name, paths[name], ours, traced=False))
        traced = {(name, ours): child(name, paths[name], ours, traced=True) for name in names for ours in (True, False)}

    def med(key: str, name: str, ours: bool) -> float:
        return statistics.median(r[key] for r in rows[name, ours])

    def spread(key: str, name: str, ours: bool) -> str:
        values = [r[key] for r in rows[name, ours]]
        return f"{statistics.median(values):6.1f} ({min(values):.1f}–{max(values):.1f})"

    print(f"package: {rows[names[0], True][0]['file']}")
    print(f"Import cost (median of {args.runs} fresh interpreters; kept: tracemalloc, in one more)")
    for kind, title in IMPORTS.items():
        runs = [json.loads(subprocess.run([*command, "-c", IMPORT_SCRIPT, kind, "0"], check=True, capture_output=True,
                                          text=True, env=env, cwd="/").stdout) for _ in range(args.runs)]
        kept = json.loads(subprocess.run([*command, "-c", IMPORT_SCRIPT, kind, "1"], check=True, capture_output=True,
                                         text=True, env=env, cwd="/").stdout)["kept"]
        times = [r["ms"] for r in runs]
        print(f"  {title:56} {statistics.median(times):6.1f} ms CPU ({min(times):.1f}–{max(times):.1f}), "
              f"{runs[0]['modules']:3} modules, kept {kept:5.2f} MB, RSS +{statistics.median(r['rss'] for r in runs):.1f} MB")
    for step in ("decode", "encode"):
        print(f"\nFirst {step} in a fresh interpreter: ours vs CPython's C codec "
              f"(times and RSS: median of {args.runs}, spread of the first {step} min–max)")
        print(f"{'encoding':14} {'C codec':12} | {'kept MB':>7} {'RSS MB':>6} {'1st ms':>20} {'2nd ms':>6} | "
              f"{'kept MB':>7} {'RSS MB':>6} {'1st ms':>20} {'2nd ms':>6} | {'1st ours/C':>10}")
        again = "again_ms" if step == "decode" else "encode_again_ms"
        for name in names:
            cells = [f"{traced[name, ours][f'{step}_mb']:7.2f} {med(f'{step}_rss', name, ours):6.1f} "
                     f"{spread(f'{step}_ms', name, ours):>20} {med(again, name, ours):6.2f}" for ours in (True, False)]
            ratio = med(f"{step}_ms", name, True) / max(med(f"{step}_ms", name, False), 1e-3)
            print(f"{name:14} {nearest(name):12} | {cells[0]} | {cells[1]} | {ratio:10.1f}")


if __name__ == "__main__":
    main()
