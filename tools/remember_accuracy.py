"""Pages decoded with their true encoding with ``WHATWG_ENCODING_REMEMBER`` off and on, on
tests/data/corpus (manifest.json gives each file's true encoding; ``null`` ones are not judged).

Usage: python tools/remember_accuracy.py [--orders N] [--least K] [--share S]

Two kinds of site, each page decided exactly as the middleware does (``sniff``; with memory, the
rule of :mod:`scrapy_whatwg_encoding.scrapy.memory` over no store (this process only), then ``learn``):

- *mixed*: the whole corpus served from one host as ``text/html`` without a charset (as
  tests/scrapy/test_scrapy_corpus.py serves it): the host declares some 15 encodings;
- *consistent*: for each legacy encoding with at least 6 pages, a host serving only those pages,
  the even ones (in path order) labeled with ``Content-Type: text/html; charset=<true encoding>``
  and the odd ones without a charset and with their in-band declarations stripped (the XML
  declaration's ``encoding`` and every ``<meta>`` naming a charset).

A crawl decides pages in the order their responses arrive, and memory only knows what was
decided before; so each site is decided in path order (what a crawl of the manifest does with
one request at a time), in reverse, and in N random orders: the minimum and maximum over orders
are printed beside REMEMBER off.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import random
import statistics

from sniff_accuracy import strip_declarations

from scrapy_whatwg_encoding import ENCODINGS, sniff
from scrapy_whatwg_encoding.scrapy import memory as site_memory
from scrapy_whatwg_encoding.scrapy.memory import SiteMemory
from scrapy_whatwg_encoding.sniffing.decision import DECLARED_SOURCES
from scrapy_whatwg_encoding.sniffing.mislabel import suspect_label

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"
LEAST_PAGES = 6


def mixed_site(manifest: list[dict]) -> list[tuple[str, bytes, str, str | None]]:
    """``(path, body, content type, true encoding)`` for every corpus file, one host."""
    return [(e["path"], (CORPUS / e["path"]).read_bytes(), "text/html", e["encoding"]) for e in manifest]


def consistent_sites(manifest: list[dict]) -> dict[str, list[tuple[str, bytes, str, str | None]]]:
    """A site per legacy encoding with ≥ LEAST_PAGES pages: even pages labeled, odd ones stripped."""
    by_encoding: dict[str, list[dict]] = {}
    for entry in manifest:
        if entry["encoding"] and not entry["encoding"].startswith("UTF-"):
            by_encoding.setdefault(entry["encoding"], []).append(entry)
    sites = {}
    for name, entries in sorted(by_encoding.items()):
        if len(entries) < LEAST_PAGES:
            continue
        pages = []
        for index, entry in enumerate(sorted(entries, key=lambda e: e["path"])):
            body = (CORPUS / entry["path"]).read_bytes()
            if index % 2:
                pages.append((entry["path"], strip_declarations(body), "text/html", name))
            else:
                pages.append((entry["path"], body, f"text/html; charset={name}", name))
        sites[name] = pages
    return sites


def write_site(pages, root: pathlib.Path) -> None:
    """Write *pages* (as :func:`consistent_sites` gives them) to *root* with a ``pages.json`` giving
    each one's Content-Type and true encoding: a site the demo server serves
    (``python -m demo.site_server ROOT`` in example_project/)."""
    described = {}
    for path, body, content_type, truth in pages:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(body)
        described[path] = {"content_type": content_type, "expect": truth}
    (root / "pages.json").write_text(json.dumps(described, indent=1), "utf-8")


def decide(pages, memory: SiteMemory | None, url: str = "http://127.0.0.1:8000/") -> dict[str, str]:
    """Each page's decided encoding name, in the given order, as the middleware decides."""
    found = {}
    for path, body, content_type, _ in pages:
        page_url = url + path
        decision = sniff(body, content_type=content_type, url=page_url)
        if memory is not None:
            likely = memory.likely(page_url, body, decision)
            if likely is not None:
                decision = sniff(body, content_type=content_type, url=page_url, likely=likely)
            memory.learn(page_url, decision, trusted=suspect_label(body, decision, url=page_url) is None)
        found[path] = decision.encoding.name
    return found


def right(pages, found: dict[str, str]) -> int:
    """Pages decided with their true encoding."""
    return sum(found[path] == truth for path, _, _, truth in pages if truth)


def right_text(pages, found: dict[str, str]) -> int:
    """Pages whose text is the true encoding's (KOI8-U for a KOI8-R page without the differing bytes)."""
    return sum(found[path] == truth or ENCODINGS[found[path]].decode(body) == ENCODINGS[truth].decode(body)
               for path, body, _, truth in pages if truth)


def measure(pages, orders: int, least: int, share: float) -> dict:
    """Right pages off; on in path order, reverse and *orders* random orders (min, median, max)."""
    decided_off = decide(pages, None)
    off, text_off = right(pages, decided_off), right_text(pages, decided_off)
    runs = {"path order": list(pages), "reverse": list(reversed(pages))}
    for seed in range(orders):
        shuffled = list(pages)
        random.Random(seed).shuffle(shuffled)
        runs[f"random {seed}"] = shuffled
    on, text_on = {}, []
    for name, order in runs.items():
        found = decide(order, SiteMemory(least=least, share=share))
        on[name] = right(pages, found)
        text_on.append(right_text(pages, found))
    values = list(on.values())
    return {"judged": sum(1 for *_, truth in pages if truth), "off": off, "path order": on["path order"],
            "reverse": on["reverse"], "min": min(values), "median": statistics.median(values), "max": max(values),
            "text off": text_off, "text min": min(text_on)}


def worst_case(pages, least: int, share: float, url: str = "http://127.0.0.1:8000/") -> tuple[list, list]:
    """Order-free bounds: the pages that *some* crawl order could lose (decided right with REMEMBER
    off, wrong with it) or gain. Declarations do not depend on memory, so the memory can only ever
    hold an encoding the site declares at least *least* times, and alone (rule 1) if it comes first."""
    declared: dict[str, int] = {}
    decisions = []
    for path, body, content_type, truth in pages:
        decision = sniff(body, content_type=content_type, url=url + path)
        decisions.append(decision)
        if decision.source in DECLARED_SOURCES:
            declared[decision.encoding.name] = declared.get(decision.encoding.name, 0) + 1
    lose, gain = [], []
    for (path, body, content_type, truth), decision in zip(pages, decisions):
        if not truth:
            continue
        for name, count in declared.items():
            if count < least:
                continue
            memory = SiteMemory(least=least, share=share)
            memory.add("127.0.0.1:8000", {name: least})
            likely = memory.likely(url + path, body, decision)
            if likely is None:
                continue
            if decision.encoding.name == truth != likely.name:
                lose.append((path, truth, likely.name))
            elif decision.encoding.name != truth == likely.name:
                gain.append((path, truth, likely.name))
    return lose, gain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=int, default=20, help="random orders per site (default 20)")
    parser.add_argument("--least", type=int, default=site_memory.MIN_DECLARATIONS,
                        help="declarations before a host is remembered")
    parser.add_argument("--share", type=float, default=site_memory.SIBLING_SHARE,
                        help="largest share of differing non-ASCII characters for siblings")
    args = parser.parse_args()
    manifest = json.loads((CORPUS / "manifest.json").read_text("utf-8"))
    print(f"rule: remembered after {args.least} declarations of one encoding and none of another; "
          f"siblings differ in <= {args.share:.0%} of non-ASCII characters; {args.orders} random orders")
    keys = ("judged", "off", "path order", "reverse", "min", "median", "max", "text off", "text min")
    print(f"{'site':<26}" + "".join(f"{key:>11}" for key in keys))
    rows = [("mixed (one host)", mixed_site(manifest))]
    rows += [(f"consistent {name}", pages) for name, pages in consistent_sites(manifest).items()]
    total = dict.fromkeys(keys, 0)
    for label, pages in rows:
        m = measure(pages, args.orders, args.least, args.share)
        print(f"{label:<26}" + "".join(f"{m[key]:>11}" for key in keys))
        if label.startswith("consistent"):
            for key in keys:
                total[key] += m[key]
    print(f"{'consistent, all':<26}" + "".join(f"{total[key]:>11}" for key in keys))
    lose, gain = worst_case(rows[0][1], args.least, args.share)
    print(f"mixed (one host), any order: {len(lose)} (page, encoding remembered) pairs could lose a page, "
          f"{len(gain)} could gain one")
    for path, truth, name in lose:
        print(f"  could lose {path} ({truth}) if {name} were remembered first")
    print("(off, on in path order / reverse / min-median-max over all orders: pages decoded with their true "
          "encoding; text: pages whose text is the true encoding's, off and the minimum over orders)")

if __name__ == "__main__":
    main()
