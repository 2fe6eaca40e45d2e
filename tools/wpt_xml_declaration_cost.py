"""Cost of "get an XML encoding" on 50 MB bodies whose ``<?xml`` declaration runs far (the
search reads to the first ``>`` wherever it lies, as browsers do). Prints seconds per call.

    python tools/wpt_xml_declaration_cost.py
"""
from __future__ import annotations

import time

from scrapy_whatwg_encoding import sniff
from scrapy_whatwg_encoding.sniffing.xml_encoding import get_xml_encoding, xml_declared_encoding

SIZE = 50 * 1024 * 1024


def _time(function, body, repeat=5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function(body)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    filler = b"x" * SIZE
    spaces = b" " * (SIZE // 2)
    bodies = {
        "no '>' at all": b"<?xml version='1.0' " + filler,
        "'>' at the end, no encoding": b"<?xml version='1.0' " + filler + b"?>",
        "encoding at the end": b"<?xml version='1.0' " + filler + b" encoding='koi8-r'?>",
        "spaces around '='": b"<?xml encoding" + spaces + b"=" + spaces + b"'koi8-r'?>",
        "value without closing quote": b"<?xml encoding='" + filler + b">",
        "'encoding' repeated": b"<?xml " + b"encodin" * (SIZE // 7) + b">",
        "UTF-16LE form, '>' at the end": "<?xml version='1.0' ".encode("utf-16le") + filler + ">".encode("utf-16le"),
    }
    print(f"{'body (50 MB)':34} {'get_xml_encoding':>17} {'xml kind':>9} {'sniff html':>11}")
    for name, body in bodies.items():
        found = get_xml_encoding(body)
        t_get = _time(get_xml_encoding, body)
        t_xml = _time(xml_declared_encoding, body, repeat=2)
        t_sniff = _time(lambda b: sniff(b, detector="browser"), body, repeat=2)
        label = found[0].name if found else "-"
        print(f"{name:34} {t_get * 1000:14.1f} ms {t_xml * 1000:6.1f} ms {t_sniff * 1000:8.1f} ms  {label}")


if __name__ == "__main__":
    main()
