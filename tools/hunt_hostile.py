"""Search for hostile bodies: pages on which the add-on's work per byte is large (issue 37 item 1).

A candidate body is a *head*, a *unit* repeated to the size, and a *tail* (``unit`` holding
``%d`` makes every copy distinct: 0, 1, 2 ...), each a sequence of fragments drawn from a
grammar of what the sniffing code reads (:data:`FRAGMENTS`: comments, ``<!``, ``</``, ``<?``,
tags with and without attributes and quotes, ``<meta>`` with charset/http-equiv/content and
labels, character references, elements of text, foreign content, template, frameset, CDATA,
NUL, non-ASCII bytes, BOMs and UTF-16 text, ISO-2022-JP escapes, XML declarations, whitespace,
``=``, quotes, ``/``, ``>``), served as ``text/html`` (now and then another Content-Type).

Each candidate is timed through both profiles' middlewares as a crawl builds them
(:class:`bench_classes.Ours`, warmed as tools/bench_hostile.py warms it), on fresh responses,
with the add-on's per-text caches emptied before each call (a new page of a crawl; untimed), at
16 KiB and 64 KiB, best of ``--repeat``; Scrapy alone on the same 64 KiB body and on a plain
ASCII 64 KiB page (the calibration: the machine is shared, so figures are taken relative to it).
Per profile: ``norm`` = ours at 64 KiB / calibration; ``ratio`` = ours / Scrapy alone on the
same body; ``growth`` = ours at 64 KiB / ours at 16 KiB (4 is linear; more is superlinear).
The score is the worst profile's ``norm × max(1, growth / 4)`` (for reference, the bound of 2 ms
at 64 KiB is a norm near 10 on an idle machine).

Search: random candidates and hill-climbing (mutations of a niche's worst: replace, insert,
delete or double a fragment, toggle distinct copies, swap head or tail, cross two units), one
elite per niche (the decision's encoding where it is decoded by a multi-byte or ISO-2022-JP
decoder, else "markup"), so that one finding does not crowd out the others. Families the lead
already handles (``<meta`` with an unclosed quote in the unit; a unit of attribute soup without
``<`` or ``>``) and the giant tags this search found (a tag name or attributes over 2,000
bytes) are tagged ``known`` and weigh a third in the elites (``--fresh``: a hundredth, and the
decoder niches too, so that the search looks for other families). Every so often and at the
end the elites are timed again, best of 5. Results: ``--out`` (JSON lines of every candidate, and
``<out>.top.json`` of the elites).

    python tools/hunt_hostile.py [--minutes 30] [--seed 1] [--repeat 3] [--out /tmp/hunt.jsonl]
    python tools/hunt_hostile.py --show /tmp/hunt.jsonl.top.json [--top 10] [--sizes 64,1024]
    python tools/hunt_hostile.py --profile /tmp/hunt.jsonl.top.json --index 0 [--sizes 64]

A timed call is stopped after :data:`CAP` (1 s) while searching (SIGALRM; its time is then a
lower bound), so that a quadratic body costs the search seconds, not minutes; only each niche's
best two are timed again, and not those stopped at the cap.

``--show`` prints, for the best of each niche in a top file, the ms at each size (best of 5,
calls stopped at 20 s) of Scrapy alone and each profile, with the bodies as Python bytes
literals; ``--profile`` prints cProfile's top functions by own time for one of them, in each
profile, and who calls the top three (a regex's caller names the regex). One process at a time:
the figures are only as good as the machine is quiet.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import re
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_classes import Ours, Page, scrapy_side
from bench_hostile import bodies as known_bodies

from scrapy_whatwg_encoding.scrapy.scrapy_default import COMPARE_FIRST

KIB = 1024
LABELS = (b"utf-8", b"koi8-r", b"windows-1251", b"windows-1252", b"shift_jis", b"euc-jp", b"euc-kr", b"big5",
          b"gb18030", b"gbk", b"iso-2022-jp", b"utf-16le", b"utf-16be", b"x-user-defined", b"iso-2022-kr", b"zz",
          b"iso-8859-8-i", b"UTF-8")


def _meta_fragments() -> tuple[bytes, ...]:
    found = [b"<meta ", b"<meta>", b"<meta", b"<META ", b"<meta/", b"<meta name=viewport content=x>",
             b"<meta charset=", b'<meta charset="', b"<meta http-equiv=content-type content=",
             b'<meta http-equiv="Content-Type" content="text/html; charset=', b"<meta content=",
             b"<meta charset=&#x75;tf-8>", b'<meta http-equiv=content-type content="charset=&quot;koi8-r&quot;">',
             b"<meta\x00charset=koi8-r>", b"<meta charset=koi8-r\x00>"]
    for label in LABELS:
        found += [b"<meta charset=" + label + b">", b'<meta charset="' + label + b'">', b"charset=" + label,
                  b"<meta http-equiv=content-type content='text/html; charset=" + label + b"'>",
                  b"<meta content=charset=" + label + b" http-equiv=Content-Type>", label]
    return tuple(found)


#: The grammar: fragments by kind (no "%" in any: a unit's "%d" is the copy's number).
FRAGMENTS: dict[str, tuple[bytes, ...]] = {
    "comment": (b"<!--", b"-->", b"<!---->", b"<!-->", b"<!--->", b"--!>", b"<!-", b"<!", b"-", b"--", b"<!-- x -->",
                b"<!doctype html>", b"<!DOCTYPE", b"<![CDATA[", b"]]>", b"<!x>"),
    "bogus": (b"</", b"</a>", b"</x", b"<?", b"<?x", b"?>", b"</ >", b"</>", b"</3", b"</p>", b"</head>",
              b"</body>", b"</html>", b"</select>", b"</table>", b"</td>", b"</div>", b"</b>"),
    "tag": (b"<a>", b"<a ", b"<a", b"<div>", b"<div ", b"<p>", b"<b>", b"<i>", b"<table>", b"<td>", b"<tr>", b"<br/>",
            b"<a/b>", b"<a/b='>'>", b"<html>", b"<head>", b"<body>", b"<link rel=x>", b"<base href=x>", b"<object>",
            b"<form>", b"<select>", b"<option>", b"<input>", b"<image>", b"<li>", b"<h1>", b"<frameset>",
            b"<frame>", b"<col>", b"<colgroup>", b"<caption>", b"<button>", b"<nobr>", b"<font>", b"<hr>",
            b"<img src=x>", b"<x y=z>", b"<A B=C>"),
    "attribute": (b" a=b", b" c='d'", b' e="f"', b" g", b"=", b"'", b'"', b"/", b">", b" ", b"\t", b"\n", b"\x0c",
                  b"a=", b"x", b"http-equiv", b"content", b"=utf-8", b" charset", b"charset", b" =", b"= ",
                  b"/>", b" />", b"=>", b"='", b'="', b"a", b"\r"),
    "meta": _meta_fragments(),
    "reference": (b"&", b"&amp;", b"&#", b"&#x", b"&#65;", b"&#x3c;", b"&lt", b"&quot;", b"&notin;", b"&not",
                  b"&#0;", b"&#xd800;", b"&a", b"&" + b"a" * 40, b"&#99999999999;", b"&#x20;", b"&Tab;",
                  b"&#9;", b"&NewLine;", b"&#X63;harset"),
    "text_element": (b"<script>", b"</script>", b"<script", b"</script", b"<script x='>'>", b"<style>", b"</style>",
                     b"<title>", b"</title>", b"<textarea>", b"</textarea>", b"<plaintext>", b"<xmp>", b"</xmp>",
                     b"<iframe>", b"</iframe>", b"<noembed>", b"</noembed>", b"<noframes>", b"</noframes>",
                     b"<noscript>", b"</noscript>", b"<script><!--", b"<!--<script>", b"</script>-->"),
    "foreign": (b"<svg>", b"</svg>", b"<math>", b"</math>", b"<template>", b"</template>", b"<foreignObject>",
                b"<desc>", b"<mi>", b"<annotation-xml encoding=text/html>", b"<svg><title>", b"<font color=red>",
                b"<svg/>", b"<math><mtext>", b"</foreignObject>"),
    "byte": (b"\x00", b"\xe9", b"\xc3\xa9", b"\x81", b"\x81<", b"\x82\x3c", b"\xff", b"\xfe", b"\xef\xbb\xbf",
             b"\x8f", b"\xa1", b"\xa1\xa1", b"\x81\x30", b"\x81\x30\x81\x30", b"\xe3\x81\x82", b"\xed\xa0\x80",
             b"\xf0\x9f\x98\x80", b"\xc0", b"\x80"),
    "escape": (b"\x1b$B", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b", b"\x0e", b"\x0f", b"\x1b$B<", b"\x1b$B$\"",
               b"\x1b$(D"),
    "utf16": (b"\xff\xfe", b"\xfe\xff", "<meta charset=koi8-r>".encode("utf-16-le"), "<!--".encode("utf-16-le"),
              "<!---->".encode("utf-16-le"), "<".encode("utf-16-be"), b"<\x00", b"\x00<", "<?x".encode("utf-16-le"),
              "\ud7ff".encode("utf-16-le"), b"\x00\xd8", b"\xd8\x00"),
    "xml": (b'<?xml version="1.0" encoding="koi8-r"?>', b"<?xml encoding=", b"<?xml ", b"<?x", b"<?xml",
            b"encoding=", b'encoding="', b"?>", b"<?xml version='1.0' encoding='shift_jis'?>"),
    "text": (b" ", b"\n", b"x", b"text ", b"\r\n", b";", b"<", b"<<", b"a < b", b">", b"  ", b"0"),
}
KINDS = tuple(FRAGMENTS)
#: Fragments a head favours: what changes how the rest is read.
HEAD_FRAGMENTS = (b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b'<?xml version="1.0" encoding="koi8-r"?>', b"<?xml ",
                  b"<script>", b"<svg>", b"<math>", b"<template>", b"<plaintext>", b"<!--", b"\x1b$B", b"\x1b(B",
                  b"<meta charset=", b"<div ", b"<title>", b"<textarea>", b"<select>", b"<frameset>", b"<head>",
                  b"<html>", b"<table>", b"<noscript>", b"<style>", b" " * 1100, b"<p>" + b"x" * 1100, b"<!doctype html>",
                  b"<body>", b"<svg><foreignObject>", b"<math><mi>")
#: Fragments a tail favours: a late label, or what closes what the units left open.
TAIL_FRAGMENTS = (b"", b"<meta charset=koi8-r>", b'<meta charset="shift_jis">', b"-->", b"</script>", b">", b'"', b"'",
                  b"\x1b(B<meta charset=koi8-r>", b"\xe9", b"</svg><meta charset=koi8-r>", b"</template>", b"]]>",
                  b"?>", b"</title>", b"</textarea>", b"&amp;")
CONTENT_TYPES = ("text/html", "text/html", "text/html", "text/html", "text/html", "text/html", "", "text/plain",
                 "application/xml", "text/html; charset=zz")
DISTINCT = b"%d"
_GIANT_TAG = re.compile(rb"<[A-Za-z][^>]{2000}")
#: Kinds of construct a unit may hold, each a letter of its niche's name.
CONSTRUCTS = {"?": re.compile(rb"<\?"), "/": re.compile(rb"</(?![A-Za-z])"), "!": re.compile(rb"<!(?!--)"),
              "c": re.compile(rb"<!--|-->"), "t": re.compile(rb"</?[A-Za-z]"), "&": re.compile(rb"&"),
              "e": re.compile(rb"[\x0e\x0f\x1b]"), "8": re.compile(rb"[\x80-\xff]"), "0": re.compile(rb"\x00"),
              "<": re.compile(rb"<(?![A-Za-z/!?])")}
#: ns after which a timed call is stopped while searching (its time is then a lower bound).
CAP = 1_000_000_000
MULTI_BYTE = frozenset(("Shift_JIS", "EUC-JP", "EUC-KR", "Big5", "gb18030", "GBK", "ISO-2022-JP"))


@dataclass(frozen=True)
class Candidate:
    """A body shape: *head* + *unit* repeated (each copy's ``%d`` its number) + *tail*."""

    head: tuple[bytes, ...]
    unit: tuple[bytes, ...]
    tail: tuple[bytes, ...]
    content_type: str = "text/html"

    @property
    def parts(self) -> tuple[bytes, bytes, bytes]:
        return b"".join(self.head), b"".join(self.unit), b"".join(self.tail)

    def body(self, size: int) -> bytes:
        """The body of about *size* bytes (whole copies of the unit only)."""
        head, unit, tail = self.parts
        room = max(size - len(head) - len(tail), 0)
        if DISTINCT not in unit:
            return head + unit * max(room // max(len(unit), 1), 1) + tail
        copies, total, count = [], 0, 0
        while True:
            copy = unit.replace(DISTINCT, b"%d" % count)
            if total + len(copy) > room and count:
                return head + b"".join(copies) + tail
            copies.append(copy)
            total += len(copy)
            count += 1

    def known(self) -> str:
        """The family the lead already handles, or "": an unclosed quote in a unit with
        ``<meta``; a unit of attribute soup (no ``<`` nor ``>``, an ``=`` or a quote)."""
        _, unit, _ = self.parts
        if b"<meta" in unit.lower() and (unit.count(b'"') % 2 or unit.count(b"'") % 2):
            return "meta with an unclosed quote"
        if b"<" not in unit and b">" not in unit and (b"=" in unit or b'"' in unit or b"'" in unit):
            return "attribute soup"
        if _GIANT_TAG.search(self.body(16 * KIB)):
            return "giant tag"  # found by this search: a tag name or attributes over 2,000 bytes
        return ""

    def literal(self) -> str:
        head, unit, tail = self.parts
        return f"head={head!r} unit={unit!r} tail={tail!r} content_type={self.content_type!r}"

    def as_json(self) -> dict:
        return {"head": [f.hex() for f in self.head], "unit": [f.hex() for f in self.unit],
                "tail": [f.hex() for f in self.tail], "content_type": self.content_type}

    @classmethod
    def from_json(cls, data: dict) -> Candidate:
        return cls(*(tuple(bytes.fromhex(f) for f in data[key]) for key in ("head", "unit", "tail")),
                   data["content_type"])


def page(candidate: Candidate, size: int) -> Page:
    return Page("hunt", "hunt", "http://example.com/", candidate.content_type, candidate.body(size), None)


# --- the grammar's draws and mutations ----------------------------------------------------

def fragment(rng: random.Random) -> bytes:
    return rng.choice(FRAGMENTS[rng.choice(KINDS)])


def random_candidate(rng: random.Random) -> Candidate:
    unit = tuple(fragment(rng) for _ in range(rng.randint(1, 5)))
    if rng.random() < 0.15:
        unit = _with_distinct(unit, rng)
    head = tuple(rng.choice(HEAD_FRAGMENTS) if rng.random() < 0.6 else fragment(rng) for _ in range(rng.randint(0, 3)))
    tail = tuple(rng.choice(TAIL_FRAGMENTS) for _ in range(rng.randint(0, 2)))
    return Candidate(head, unit, tail, rng.choice(CONTENT_TYPES) if rng.random() < 0.1 else "text/html")


def _with_distinct(unit: tuple[bytes, ...], rng: random.Random) -> tuple[bytes, ...]:
    if DISTINCT in unit:
        return tuple(f for f in unit if f != DISTINCT) or (b"x",)
    at = rng.randint(0, len(unit))
    return (*unit[:at], DISTINCT, *unit[at:])


def _edit(parts: tuple[bytes, ...], rng: random.Random, draw: Callable[[], bytes], most: int) -> tuple[bytes, ...]:
    items = list(parts)
    action = rng.choice(("replace", "insert", "delete", "double", "swap"))
    if action == "insert" or not items:
        if len(items) < most:
            items.insert(rng.randint(0, len(items)), draw())
    elif action == "replace":
        items[rng.randrange(len(items))] = draw()
    elif action == "delete" and len(items) > 1:
        del items[rng.randrange(len(items))]
    elif action == "double" and len(items) < most:
        at = rng.randrange(len(items))
        items.insert(at, items[at])
    elif action == "swap" and len(items) > 1:
        i, j = rng.sample(range(len(items)), 2)
        items[i], items[j] = items[j], items[i]
    return tuple(items)


def mutate(parent: Candidate, rng: random.Random, other: Candidate | None = None) -> Candidate:
    """One to three edits of *parent* (mostly its unit), or a cross with *other*'s unit."""
    head, unit, tail, content_type = parent.head, parent.unit, parent.tail, parent.content_type
    if other is not None and rng.random() < 0.15:
        cut_a, cut_b = rng.randint(0, len(unit)), rng.randint(0, len(other.unit))
        unit = (unit[:cut_a] + other.unit[cut_b:])[:8] or unit
    for _ in range(rng.randint(1, 3)):
        where = rng.random()
        if where < 0.6:
            unit = _edit(unit, rng, lambda: fragment(rng), 8) or (b"x",)
        elif where < 0.7:
            unit = _with_distinct(unit, rng)
        elif where < 0.85:
            head = _edit(head, rng, lambda: rng.choice(HEAD_FRAGMENTS) if rng.random() < 0.5 else fragment(rng), 4)
        elif where < 0.97:
            tail = _edit(tail, rng, lambda: rng.choice(TAIL_FRAGMENTS) if rng.random() < 0.5 else fragment(rng), 3)
        else:
            content_type = rng.choice(CONTENT_TYPES)
    return Candidate(head, unit, tail, content_type)


# --- timing -------------------------------------------------------------------------------

def _cold_caches() -> None:
    """Empty the add-on's caches keyed by a page's text or its tags' attributes (a new page of a
    crawl would not find its own there): repeated calls on one body would otherwise hit them."""
    from scrapy_whatwg_encoding.sniffing.browsers import forget

    forget()


class Overtime(BaseException):
    """A timed call ran past its cap (a BaseException: the middleware's guard, which catches
    Exception so that nothing fails a crawl, lets it through)."""


def _overtime(signum, frame) -> None:
    raise Overtime


def capped(call: Callable[[], object], cap: int) -> int:
    """ns that *call* takes, or *cap* where it is stopped there (SIGALRM; the regex engine checks
    for signals as it goes)."""
    clock = time.perf_counter_ns
    signal.signal(signal.SIGALRM, _overtime)
    try:
        signal.setitimer(signal.ITIMER_REAL, cap / 1e9)
        start = clock()
        call()
        elapsed = clock() - start
        signal.setitimer(signal.ITIMER_REAL, 0)
    except Overtime:
        signal.setitimer(signal.ITIMER_REAL, 0)
        elapsed = cap
    return elapsed


@dataclass
class Figures:
    """One candidate's times (ns, best of) and what each profile decided."""

    calibration: int = 0  # Scrapy alone on a plain ASCII page of 64 KiB
    scrapy: int = 0  # Scrapy alone on the 64 KiB body
    ours_16: dict[str, int] = field(default_factory=dict)
    ours_64: dict[str, int] = field(default_factory=dict)
    decisions: dict[str, str] = field(default_factory=dict)

    def norm(self, profile: str) -> float:
        return self.ours_64[profile] / self.calibration

    def growth(self, profile: str) -> float:
        return self.ours_64[profile] / max(self.ours_16[profile], 1)

    def score(self) -> float:
        return max(self.norm(p) * max(1.0, self.growth(p) / 4) for p in self.ours_64)

    def niche(self, candidate: Candidate) -> str:
        """The decision's encoding where a multi-byte or ISO-2022-JP decoder decodes the body,
        else "markup" and which kinds of construct the unit holds (:data:`CONSTRUCTS`)."""
        multi = sorted({d.split(" ")[0] for d in self.decisions.values()} & MULTI_BYTE)
        if multi:
            return multi[0]
        unit = candidate.parts[1]
        return "markup " + "".join(name for name, pattern in CONSTRUCTS.items() if pattern.search(unit))

    def summary(self) -> str:
        cells = " ".join(f"{p} {self.ours_64[p] / 1e6:.2f} ms (norm {self.norm(p):.1f}, ratio "
                         f"{self.ours_64[p] / max(self.scrapy, 1):.1f}, growth {self.growth(p):.1f})"
                         for p in self.ours_64)
        return f"score {self.score():.1f}: Scrapy {self.scrapy / 1e6:.2f} ms, {cells}"


class Bench:
    """Both profiles' middlewares, warmed, and the calibration page."""

    def __init__(self):
        self.sides = {"standard": Ours(), "browsers": Ours({"WHATWG_ENCODING_PROFILE": "browsers"})}
        self.plain = Page("hunt", "plain", "http://example.com/", "text/html",
                          (b"<p>plain ascii markup</p>\n" * (64 * KIB // 26 + 1))[:64 * KIB], None)
        warm = list(known_bodies(4 * KIB).values()) + [
            b"\xef\xbb\xbfx" * 100, b'<?xml version="1.0" encoding="koi8-r"?><p>x</p>', b"<meta charset=shift_jis>\x81<",
            b"\xfe\xff\x00<\x00p"]
        for ours in self.sides.values():
            # Load the parser and tables; past the "differs from Scrapy alone" statistic's replays
            # of the first COMPARE_FIRST pages of each decision source (as bench_hostile.py).
            for body in warm:
                for content_type in ("text/html", "", "text/plain", "application/xml"):
                    hostile = Page("hunt", "warm", "http://example.com/", content_type, body, None)
                    for _ in range(COMPARE_FIRST + 1):
                        ours.side(hostile)()

    def fresh(self, profile: str, hostile: Page) -> Callable[[], str]:
        _cold_caches()
        return self.sides[profile].side(hostile)

    @staticmethod
    def best(factories: list[Callable[[], Callable[[], object]]], repeat: int, enough: int = 30_000_000,
             cap: int = CAP) -> list[int]:
        """Best ns of each factory's calls, *repeat* rounds (the order turning each round); a
        side already over *enough* ns is not called again (it is plainly slow), and a call is
        stopped after *cap* ns (then *cap* is its time: a lower bound)."""
        best = [sys.maxsize] * len(factories)
        for round_ in range(repeat):
            order = list(range(len(factories)))
            if round_ % 2:
                order.reverse()
            for i in order:
                if best[i] < enough or best[i] == sys.maxsize:
                    best[i] = min(best[i], capped(factories[i](), cap))
        return best

    def measure(self, candidate: Candidate, repeat: int) -> Figures:
        small, large = page(candidate, 16 * KIB), page(candidate, 64 * KIB)
        profiles = list(self.sides)
        factories: list[Callable[[], Callable[[], object]]] = [
            lambda: scrapy_side(self.plain), lambda: scrapy_side(large)]
        for profile in profiles:
            factories.append(lambda profile=profile: self.fresh(profile, small))
            factories.append(lambda profile=profile: self.fresh(profile, large))
        times = self.best(factories, repeat)
        figures = Figures(times[0], times[1])
        for i, profile in enumerate(profiles):
            figures.ours_16[profile], figures.ours_64[profile] = times[2 + 2 * i], times[3 + 2 * i]
            call = self.fresh(profile, large if times[3 + 2 * i] < 100_000_000 else small)
            capped(call, CAP)
            decision = call.request.meta.get("whatwg_encoding") or {}  # type: ignore[attr-defined]
            figures.decisions[profile] = f"{decision.get('encoding')} ({decision.get('source')})"
        return figures


# --- the search ---------------------------------------------------------------------------

@dataclass
class Entry:
    candidate: Candidate
    figures: Figures

    #: Factors of the weight of a known family's entry and a decoder niche's (``--fresh``).
    known_factor: ClassVar[float] = 1 / 3
    decoder_factor: ClassVar[float] = 1.0

    @property
    def weight(self) -> float:
        decoder = not self.figures.niche(self.candidate).startswith("markup")
        return (self.figures.score() * (self.known_factor if self.candidate.known() else 1)
                * (self.decoder_factor if decoder else 1))


class Elites:
    """The best *size* entries of each niche."""

    def __init__(self, size: int = 6):
        self.size = size
        self.niches: dict[str, list[Entry]] = {}

    def add(self, entry: Entry) -> bool:
        entries = self.niches.setdefault(entry.figures.niche(entry.candidate), [])
        if any(e.candidate == entry.candidate for e in entries):
            return False
        entries.append(entry)
        entries.sort(key=lambda e: -e.weight)
        del entries[self.size:]
        return entry in entries

    def pick(self, rng: random.Random) -> tuple[Entry, Entry] | None:
        if not self.niches:
            return None
        names = sorted(self.niches)  # a niche's chance grows with its best score, slowly
        entries = self.niches[rng.choices(names, [self.niches[n][0].weight ** 0.5 for n in names])[0]]
        ranked = [entries[min(int(rng.expovariate(0.5)), len(entries) - 1)] for _ in range(2)]
        return ranked[0], ranked[1]

    def all(self) -> list[Entry]:
        return [entry for entries in self.niches.values() for entry in entries]


def hunt(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    bench = Bench()
    elites, seen = Elites(), set()
    out = open(args.out, "a", encoding="utf-8")  # noqa: SIM115 — written through the run
    deadline = time.monotonic() + 60 * args.minutes
    tried = 0
    next_check = time.monotonic() + 300
    while time.monotonic() < deadline:
        picked = elites.pick(rng)
        if picked is None or rng.random() < args.explore:
            candidate = random_candidate(rng)
        else:
            candidate = mutate(picked[0].candidate, rng, picked[1].candidate)
        if candidate in seen:
            continue
        seen.add(candidate)
        try:
            figures = bench.measure(candidate, args.repeat)
        except Exception as exc:  # noqa: BLE001 — a candidate that breaks the bench is a finding too
            print(f"ERROR {exc!r} on {candidate.literal()}", flush=True)
            continue
        tried += 1
        entry = Entry(candidate, figures)
        out.write(json.dumps({"candidate": candidate.as_json(), "figures": asdict(figures),
                              "score": figures.score(), "niche": figures.niche(candidate), "known": candidate.known()}) + "\n")
        if elites.add(entry) and figures.score() > args.report:
            print(f"[{tried}] {figures.niche(candidate)} {candidate.known() or 'new'} {figures.summary()}\n    "
                  f"{candidate.literal()}", flush=True)
        if time.monotonic() > next_check:
            remeasure(bench, elites, 5)
            save(elites, args.out)
            next_check = time.monotonic() + 300
            print(f"... {tried} candidates, {len(seen)} seen; niches: "
                  + ", ".join(f"{n} {e[0].figures.score():.1f}" for n, e in sorted(elites.niches.items())), flush=True)
    remeasure(bench, elites, 5)
    save(elites, args.out)
    out.close()
    print(f"{tried} candidates timed")
    for niche, entries in sorted(elites.niches.items()):
        print(f"\n== {niche}")
        for entry in entries[:args.top]:
            print(f"  {entry.candidate.known() or 'new'} {entry.figures.summary()}\n    {entry.candidate.literal()}")


def remeasure(bench: Bench, elites: Elites, repeat: int, most: int = 2) -> None:
    """The *most* best of each niche timed again, best of *repeat* (a lucky or unlucky first
    timing evens out), but those stopped at the cap (plainly slow: timing them again costs
    seconds and changes nothing)."""
    for niche, entries in elites.niches.items():
        for entry in entries[:most]:
            if max(entry.figures.ours_64.values()) < CAP:
                entry.figures = bench.measure(entry.candidate, repeat)
        entries.sort(key=lambda e: -e.weight)
        elites.niches[niche] = entries


def save(elites: Elites, out: str) -> None:
    top = {niche: [{"candidate": e.candidate.as_json(), "figures": asdict(e.figures), "score": e.figures.score(),
                    "known": e.candidate.known(), "literal": e.candidate.literal()} for e in entries]
           for niche, entries in elites.niches.items()}
    Path(out + ".top.json").write_text(json.dumps(top, indent=1), encoding="utf-8")


# --- reading a top file -------------------------------------------------------------------

def load_top(path: str, top: int) -> list[tuple[str, dict]]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return [(niche, item) for niche, items in sorted(data.items()) for item in items[:top]]


def show(args: argparse.Namespace) -> None:
    """ms at each size of Scrapy alone and both profiles (best of 5), per candidate of a top file."""
    bench = Bench()
    sizes = [int(s) * KIB for s in args.sizes.split(",")]
    for index, (niche, item) in enumerate(load_top(args.show, args.top)):
        candidate = Candidate.from_json(item["candidate"])
        if args.index is not None and index != args.index:
            continue
        print(f"[{index}] {niche} {item['known'] or 'new'}: {candidate.literal()}")
        for size in sizes:
            hostile = page(candidate, size)
            profiles = list(bench.sides)
            factories = [lambda hostile=hostile: scrapy_side(hostile)] + [
                lambda profile=profile, hostile=hostile: bench.fresh(profile, hostile) for profile in profiles]
            times = bench.best(factories, 5, enough=2_000_000_000, cap=20_000_000_000)
            cells = "  ".join(f"{p} {t / 1e6:8.2f}" for p, t in zip(profiles, times[1:]))
            print(f"    {size // KIB:>5} KiB  Scrapy {times[0] / 1e6:8.2f}  {cells}  ms", flush=True)


def profile(args: argparse.Namespace) -> None:
    """cProfile's top functions by own time, one candidate, each profile."""
    bench = Bench()
    niche, item = load_top(args.profile, args.top)[args.index or 0]
    candidate = Candidate.from_json(item["candidate"])
    print(f"{niche}: {candidate.literal()}")
    for size in (int(s) * KIB for s in args.sizes.split(",")):
        for name in bench.sides:
            hostile = page(candidate, size)
            bench.fresh(name, hostile)()
            call = bench.fresh(name, hostile)
            profiler = cProfile.Profile()
            profiler.enable()
            call()
            profiler.disable()
            stream = io.StringIO()
            stats = pstats.Stats(profiler, stream=stream).sort_stats("tottime")
            stats.print_stats(args.lines)
            stats.print_callers(3)  # who calls the top three (which regex: the caller's line)
            print(f"--- {name}, {size // KIB} KiB")
            print("\n".join(line for line in stream.getvalue().splitlines()[6:] if line.strip()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30, help="how long to search")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of, per candidate while searching")
    parser.add_argument("--explore", type=float, default=0.35, help="share of random candidates (else mutations)")
    parser.add_argument("--report", type=float, default=5, help="print new elites scoring over this")
    parser.add_argument("--out", default="/tmp/hunt_hostile.jsonl", help="JSON lines of every candidate")
    parser.add_argument("--top", type=int, default=5, help="entries per niche shown")
    parser.add_argument("--show", metavar="TOP_JSON", help="time a top file's entries at --sizes instead")
    parser.add_argument("--profile", metavar="TOP_JSON", help="cProfile one entry (--index) of a top file")
    parser.add_argument("--index", type=int, help="with --show or --profile: that entry only")
    parser.add_argument("--sizes", default="64,1024", help="with --show or --profile: sizes in KiB")
    parser.add_argument("--lines", type=int, default=18, help="with --profile: functions shown")
    parser.add_argument("--fresh", action="store_true",
                        help="weigh the families found so far down (known ones and decoder niches: a hundredth)")
    args = parser.parse_args(argv)
    if args.fresh:
        Entry.known_factor = Entry.decoder_factor = 0.01
    if args.show:
        show(args)
    elif args.profile:
        profile(args)
    else:
        hunt(args)


if __name__ == "__main__":
    main()
