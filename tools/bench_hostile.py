"""Is ``sniff``'s work bounded by its settings on huge bodies? Times ``sniff`` on 50 MB bodies (and on
5 MB ones, to show the time does not grow with the body) with and without a label, and with the
detector's cap (``detect.DETECT_LIMIT``, 1 MiB) against the detector uncapped (the cap raised to the
body's size). Figures only, no pass/fail: the machine is shared.

    python tools/bench_hostile.py [--mb 50] [--repeat 3]

Bodies: Russian text in windows-1251 (non-ASCII everywhere: the detector's worst case), random
bytes, NUL bytes, ASCII markup with one non-ASCII byte at the very end, and ``<meta charset>``
repeated inside one ``<script>`` (the parser step's worst case: it tokenizes up to its limit). Rows: no label with the
detector "full" (default), "browser" and "off"; the label in the Content-Type (transport, certain:
no further step); a ``<meta charset>`` in the first 1024 bytes (prescan, then the parser step up
to ``parser_limit``); and ``detector="full"`` uncapped. For scale, the time to decode the body once.
"""
from __future__ import annotations

import argparse
import importlib
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from scrapy_whatwg_encoding import ENCODINGS, sniff

detect_module = importlib.import_module("scrapy_whatwg_encoding.sniffing.detect")
MB = 1_000_000


def bodies(size: int) -> dict[str, bytes]:
    russian = ("<p>Съешь же ещё этих мягких французских булок, да выпей чаю. " * 40 + "</p>\n").encode("windows-1251")
    rng = random.Random(6)
    return {
        "windows-1251 text": (russian * (size // len(russian) + 1))[:size],
        "random bytes": rng.randbytes(size),
        "NUL bytes": bytes(size),
        "ASCII, 1 byte 0xE9 at end": (b"<p>plain ascii markup</p>\n" * (size // 26 + 1))[:size - 1] + b"\xe9",
        # the parser step's worst case: "<meta" and "charset" everywhere, none a meta element
        "<meta> in <script>, repeated": (b" " * 1024 + b"<script>" + b"<meta charset=koi8-r>\xe9" * (size // 22 + 1))[:size],
    }


def best(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def rows(body: bytes):
    meta = b"<meta charset=windows-1251>" + body[27:]
    yield "no label, detector full (capped)", lambda: sniff(body, content_type="text/html")
    yield "no label, detector browser", lambda: sniff(body, content_type="text/html", detector="browser")
    yield "no label, detector off", lambda: sniff(body, content_type="text/html", detector="off")
    yield "label in Content-Type", lambda: sniff(body, content_type="text/html; charset=windows-1251")
    yield "<meta charset> in prescan", lambda: sniff(meta, content_type="text/html")

    def uncapped():
        saved = detect_module.DETECT_LIMIT, detect_module.STAT_LIMIT
        detect_module.DETECT_LIMIT = detect_module.STAT_LIMIT = max(len(body), saved[0])
        try:
            return sniff(body, content_type="text/html")
        finally:
            detect_module.DETECT_LIMIT, detect_module.STAT_LIMIT = saved
    yield "no label, detector full UNCAPPED", uncapped
    yield "(decode the whole body once)", lambda: ENCODINGS["windows-1251"].decode(body)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    sizes = (args.mb * MB // 10, args.mb * MB)
    print(f"sniff() time in ms, best of {args.repeat}; DETECT_LIMIT {detect_module.DETECT_LIMIT:,} bytes, "
          f"STAT_LIMIT {detect_module.STAT_LIMIT:,} bytes")
    header = f"{'body':<28} {'case':<38} " + " ".join(f"{s / MB:>5g} MB" for s in sizes) + "   decision (largest)"
    print(header)
    print("-" * len(header))
    by_size = {size: bodies(size) for size in sizes}
    sniff(b"<meta charset=utf-8>" * 100, content_type="text/html")  # warm up: load the parser and tables
    for kind in by_size[sizes[0]]:
        for (case, _), *per_size in zip(rows(b""), *(rows(by_size[s][kind]) for s in sizes)):
            figures = []
            result = None
            for _, function in per_size:
                figures.append(best(function, args.repeat) * 1000)
                result = function()
            what = "" if not hasattr(result, "source") else f"{result.encoding.name} ({result.source})"
            print(f"{kind:<28} {case:<38} " + " ".join(f"{f:>8.1f}" for f in figures) + f"   {what}", flush=True)
        print()


if __name__ == "__main__":
    main()
