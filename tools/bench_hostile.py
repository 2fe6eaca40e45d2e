"""Is the add-on's work bounded per byte on hostile markup? Times each hostile body through the
add-on's two downloader middlewares (as a crawl builds them, :class:`bench_classes.Ours`: the
handler's then ``WhatwgEncodingMiddleware.process_response``, then ``.text``), in both profiles,
against Scrapy alone (``response.encoding`` then ``.text``). Figures only, no pass/fail: the
machine is shared, so the ratios (ours / Scrapy alone on the same body) matter more than the ms.

    python tools/bench_hostile.py [--sizes 64,1024] [--repeat 5] [--profile]

Rows: hostile bodies at each size in KiB (issue 37 item 1): ``<!---->`` repeated then a
``<meta charset>``; ``<meta http-equiv=content-type content="text/html;charset=zz">`` repeated;
``<script><meta charset=koi8-r></script>`` repeated; one ``<script>`` holding ``<meta
charset>`` repeated (the parser step's worst case before); the same floods with no two tokens
alike (numbered); many ``<``; an ISO-2022-JP body of 0x3C bytes in jis0208 (pairs, no ``<``), and one of short jis0208 runs
each holding a pair of NEC's row 13 (hunted)
then a ``<meta charset>``; attribute soup, closed and not; an open comment, an open
attribute value and an open ``<script>`` holding ``<meta charset>`` repeated; ``<meta>`` tags
each naming a different non-label (charset and http-equiv); ``<meta charset>`` in comments;
``<meta>`` with NUL bytes; ``<meta>`` tags whose quoted values run into the next tag, with and
without a ">" at the end; one tag of attribute soup (a ``<meta>`` that names an encoding, or a
``<div>`` before one); one tag name of many ``<a``; ``<meta`` repeated inside one tag, a ``&``
after it; one ``<meta>`` whose charset or content value is a tag's worth of distinct character
references; bogus comments (``</>``, ``<?x>``) then a ``<meta>``; floods that keep the tree builder
on (``<a>``, ``<b>``, ``<option>`` in a ``<template>``, stray ``<`` in ``<svg>``); script data's
escaped sections in a script that never ends, and whole scripts with them; ``<meta>`` tags that
name nothing with text between them; copies of a ``<meta>`` that names nothing (a NUL after its
label) in a head, alone, two after references to whitespace, or after one in a ``<noscript>``;
references to whitespace between other text after an unquoted ``content=``; ``<META`` tags with the
next ones inside them, in repeated units and in numbered ones; copies of a ``<meta>`` that names
nothing with numbered text between them, and numbered units whose ``<meta>`` holds the next one
in a quoted value; bogus comments in ``<foreignObject>``; bogus comments and
ignored end tags before the ``<html>`` element; one DOCTYPE that runs to the last tag; one tag name of non-ASCII characters that does; text of ``&#`` repeated; the multi-byte
decoders' errors (tools/hunt_hostile.py found these last ones), a pair Big5's C codec lacks (``\x87\xa1``)
alone and between errors, one EUC-JP's lacks between spaces (``\xad\xa1 ``), split tokens off their token boundaries (EUC-JP ``8F A2 B7`` and Big5
``A2 41`` each after a leading byte, no sync byte), gb18030's four-byte tokens one by one, and random bytes 0x80-0xFF (seed 7)
after a ``<meta charset>`` of each multi-byte encoding; hunted too (stop 59), an ISO-2022-JP
``<meta>`` in jis0208 after an empty katakana run, repeated (a change of state every 15 bytes, a pair
CPython lacks and a null pointer in each), and Big5 scripts of errors each before a pair with an
ASCII trail (``0xFF ' 0xFF 0xD7 ]``), comments left open, of ``-`` and of ``<!--``, and
references to a quote each before one to another code point (``&quot;&#0;``); hunted in stop 63, end tags whose
names hold non-ASCII characters in text (``</x😀a < b``) and ``<svg><title>`` in a ``<template>`` holding
ISO-2022-JP escapes and numbered ``<form>`` tags; hunted in stop 64, floods of end tags (``</>``, ``</style>``)
after 2 KiB of text; hunted in stop 65, ``<b><b>`` and whitespace repeated in a ``<template>``, and scripts whose
escaped text never comes back to script data (``<script><!--<script>``); UTF-16LE comments with and without a BOM; and the bodies that were
here before: Russian text in windows-1251, random bytes, NUL bytes, ASCII with one 0xE9 at the
end. Columns:
ms, best of ``--repeat`` fresh responses (with the readings the body's earlier calls cached
forgotten: a crawl meets each page once), for Scrapy alone, the standard profile and the browsers
profile, and each profile's ratio to Scrapy alone; the decisions. The middlewares are warmed to a
crawl's steady state first (past the statistic's replays of the first pages of each decision
source, ``COMPARE_FIRST``; then one page in ``COMPARE_EVERY`` is replayed, which best-of hides). ``--profile``
prints cProfile call counts (load-independent) of the sniffing functions per body instead.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_classes import Ours, Page, alternate, scrapy_side

from scrapy_whatwg_encoding.scrapy.scrapy_default import COMPARE_FIRST
from scrapy_whatwg_encoding.sniffing.browsers import forget

KIB = 1024


def _repeat(unit: bytes, size: int) -> bytes:
    """*unit* repeated whole, then spaces, to *size* bytes."""
    return (unit * (size // len(unit))).ljust(size)


def _repeat_distinct(template: bytes, size: int) -> bytes:
    """*template* (one ``%d``) with 0, 1, 2 ... until *size* bytes, then spaces: no two alike."""
    parts, total, count = [], 0, 0
    while True:
        part = template % count
        if total + len(part) > size:
            return b"".join(parts).ljust(size)
        parts.append(part)
        total += len(part)
        count += 1


def _around(head: bytes, unit: bytes, tail: bytes, size: int) -> bytes:
    """*head*, *unit* repeated (then spaces), *tail*: *size* bytes."""
    return head + _repeat(unit, size - len(head) - len(tail)) + tail


def _tag(start: bytes, unit: bytes, size: int) -> bytes:
    """One tag of *size* bytes: *start*, *unit* repeated whole, spaces, ">"."""
    return start + _repeat(unit, size - len(start) - 1) + b">"


def _random_high(seed: int, size: int) -> bytes:
    """*size* bytes 0x80-0xFF drawn by ``random.Random(seed)``: a binary file or a mislabelled page."""
    return bytes(random.Random(seed).choices(range(0x80, 0x100), k=size))


def bodies(size: int) -> dict[str, bytes]:
    """The hostile bodies of *size* bytes."""
    russian = ("<p>Съешь же ещё этих мягких французских булок, да выпей чаю. " * 40 + "</p>\n").encode("windows-1251")
    meta = b"<meta charset=koi8-r>"
    soup = b"a=b c='d' e "
    return {
        "<!----> x N, then <meta>": _repeat(b"<!---->", size - len(meta)) + meta,
        "bad http-equiv <meta> x N": _repeat(b'<meta http-equiv=content-type content="text/html;charset=zz">', size),
        "<script><meta></script> x N": _repeat(b"<script><meta charset=koi8-r></script>", size),
        "<script> + <meta> x N": (b" " * 1024 + b"<script>" + _repeat(b"<meta charset=koi8-r>\xe9", size))[:size],
        "<!--N--> x N, then <meta>": _repeat_distinct(b"<!--%d-->", size - len(meta)) + meta,
        '"</ ><</ > x N, then <meta>': _around(b'"', b"</ ><</ >", b'<meta charset="shift_jis">', size),
        "</svg>N\\x810\\x810&Tab; x N (detector's GBK)": b"\x00<\x00<" + _repeat_distinct(
            b"  </svg>%d\x810\x810&Tab;", size - 55) + b'>\x1b(B<meta charset=koi8-r><meta charset="shift_jis">',
        "<script>N<meta></script> x N": _repeat_distinct(b"<script>%d<meta charset=koi8-r></script>", size),
        "<meta charset=koi8-r NUL> x N": _around(b"  ", b"<meta charset=koi8-r\x00>", b'\x1b$B$"' + meta, size),
        "&#9;&#9;<meta NUL><meta NUL> x N": _around(b" ", b"&#9;&#9;<meta charset=koi8-r\x00><meta charset=koi8-r\x00>",
                                                    b'\x1b$B$"' + meta, size),
        "<noscript>&NewLine;<meta NUL> x N": _around(b"<noscript><meta content=", b"&NewLine;<meta charset=koi8-r\x00>",
                                                     meta, size),
        "<meta content=<textarea> &#9;\xa1\xa1&#9; x N": _around(b"<noscript><meta content=<textarea>",
                                                                 b"&#9;\xa1\xa1&#9;&#9;&#9;", b'<meta charset="shift_jis">', size),
        "<META <META <META charset= x N": _around(b"<meta content=charset=zz http-equiv=Content-Type><svg><template><template>",
                                                 b"charset=koi8-r<br/>\xa1\xa1</<META <META <META ",
                                                 b'<meta charset="shift_jis"><meta charset="shift_jis">', size),
        "<META <META %d charset= x N": (b"<svg><template><template>" + _repeat_distinct(
            b"charset=koi8-r<br/>\xa1\xa1</<META <META %d", size - 60) + b'<meta charset="shift_jis">').ljust(size),
        "many <": b"<" * size,
        "<meta charset=koi8-r NUL> %d x N": _repeat_distinct(b"<meta charset=koi8-r\x00>\x00%d&Tab;&Tab;&<h1>", size),
        '<font color=red><meta charset="%d x N': b"a < b" + _repeat_distinct(
            b'<font color=red><meta charset="%d', size - 27) + b'<meta charset=koi8-r>"'.rjust(22),
        '<meta charset="<p> %d x N': (b"?>\xa1<meta charset=" + _repeat_distinct(
            b'\xe3\x81\x82%d\x1b(J<meta charset="<p>\x0f', size - 56) + b"?></title>\x1b(B<meta charset=koi8-r>").ljust(size),
        "ISO-2022-JP 0x3C pairs, <meta>": b"\x1b$B" + _repeat(b"<", size - 6 - len(meta)) + b"\x1b(B" + meta,
        "ISO-2022-JP ESC $ B <?>--> x N": _around(b"0;", b"\x1b$B<?>-->", b"</title>\x1b(B" + meta, size),
        "ISO-2022-JP ESC ( I ' ESC ( B NUL < x N": _repeat(b"\x1b(I'\x1b(B\x00<", size),
        "ESC $ B < 0x82 < 0x82 < (stray <) x N": _around(b"\xa1\xa1", b"\x1b$B<\x82<\x82<", b"?></title>\x1b(B" + meta, size),
        "ISO-2022-JP ESC(I ESC$B <meta> ESC(B x N": _repeat(b'\x1b(I\x1b$B<meta charset="iso-2022-jp">\x1b(B', size),
        "<math><meta> &quot;&#0; x N": _around(b'<\x00!\x00-\x00-\x00-\x00-\x00>\x00<math><meta charset="iso-2022-jp">',
                                               b"&quot;&#0;", b"", size),
        "Big5 <script> 0xFF ' 0xFF 0xD7 ] x N": _around(
            b"<style><meta http-equiv=content-type content='text/html; charset=big5'><script>",
            b"\xff'\xff\xd7]]><script>", b"</script>", size),
        # (hunted, stop 60: a meta tag a turn of the tree builder's loop, its second content read as
        # Chromium reads it (stop 61: the first, as the tree builder does); references to whitespace,
        # each read for up to 16 items and a label, in each text's hints)
        "hunted: <meta content=ESC%d ... charset=gb18030'> x N": (b"&NewLine;<meta charset=" + _repeat_distinct(
            b"</ ><meta content=\x1b%d<!DOCTYPE\x1b<meta http-equiv=content-type content='text/html; charset=gb18030'>",
            size - 27) + b"?>?>").ljust(size),
        "hunted: <meta charset=<template>, xx&#x20;&#x20; x N": _around(b"<meta charset=<template>\xc3\xa9",
                                                                        b"xx&#x20;&#x20;", b"<!-->", size),
        "<a b=c d='e' f> x N": _repeat(b"<a b=c d='e' f>", size),
        "open tag, attribute soup": (b"<div " + _repeat(b"a=b c='d' e ", size))[:size],
        "open comment": (b"<!--" + _repeat(b"- x -> ", size))[:size],
        "open comment of - x N": _around(b"<!--\xef\xbb\xbf&Tab;<svg><foreignObject>", b"----",
                                         b'\x1b(B<meta charset=koi8-r><meta charset="shift_jis">', size),
        "<!-- x N (one comment)": _around(b"<math><noscript>\xef\xbb\xbf", b"<!--", b"\x1b(B<meta charset=koi8-r>" * 2, size),
        "open attribute value": (b'<meta charset="' + _repeat(b"x> ", size))[:size],
        "open <script>, <meta> x N": b"<script>" + _repeat(meta, size - 8),
        "<meta charset=other> x N": _repeat_distinct(b"<meta charset=koi8-%d>", size),
        "<meta http-equiv other> x N": _repeat_distinct(b'<meta http-equiv=content-type content="charset=x%d">', size),
        "<!--<meta charset>--> x N": _repeat(b"<!--<meta charset=koi8-r>-->", size),
        "<meta> x N, NUL bytes": _repeat(b"<meta\x00charset=koi8-r\x00>", size),
        '<meta charset=utf-8 a=" x N': _repeat(b'<meta charset=utf-8 a="', size),
        '<meta charset=utf-8 a=" x N, >': _repeat(b'<meta charset=utf-8 a="', size - 1) + b">",
        '<meta charset="utf-8 x N, >': _repeat(b'<meta charset="utf-8', size - 1) + b">",
        '<meta http-equiv a=" x N, >': _repeat(b'<meta http-equiv=content-type content="charset=utf-8" a="', size - 1) + b">",
        "<meta charset>, soup, >": _tag(b"<meta charset=utf-8 ", soup, size),
        "<meta http-equiv>, soup, >": _tag(b'<meta http-equiv=content-type content="charset=koi8-r" ', soup, size),
        "<div soup>, then <meta>": _tag(b"<div ", soup, size - len(meta)) + meta,
        "<meta charset=&#N;...> (one tag)": _repeat_distinct(b"&#%d;", size - 16).join((b"<meta charset=", b">")),
        '<meta content="&#N;..."> (one tag)': _repeat_distinct(b"&#%d;", size - 50).join(
            (b'<meta http-equiv=content-type content="', b'">')),
        "<a<a<a... (one tag name)": _repeat(b"<a", size - len(meta) - 1) + b">" + meta,
        "<meta charset=<meta <meta ...>&": (b"<meta charset=" + _repeat(b"<meta ", size - 16))[:size - 2] + b">&",
        "</> x N, then <meta>": _repeat(b"</>", size - len(meta)) + meta,
        "<?x> x N, then <meta>": _repeat(b"<?x>", size - len(meta)) + meta,
        "<template> <a> x N": _around(b"<template>", b"<a>", b"</template>" + meta, size),
        "<template> <b> x N": _around(b"<template>", b"<b>", b"</template>" + meta, size),
        "<template><select> <option> x N": _around(b"<template><select>", b"<option>", b"</select></template>" + meta, size),
        "<svg> NUL< x N": _around(b"<svg>", b"\x00<", b"</svg>" + meta, size),
        "<svg> < x N": _around(b"<svg>", b"<", b"</svg>" + meta, size),
        "</<meta charset= --> x N": _around(b"", b"</<meta charset= -->", meta, size),
        "<script><script> <!---> x N": _around(b"<script><script>", b"=\xa1\xa1\xff<!---><!--->", meta, size),
        "<script><!--<a></script> x N": _around(b"", b"<script><!--<a>x</script>", meta, size),
        "<?x<meta charset=koi8-r NUL> x N": _around(b"<frameset><noscript>", b"<?x<meta charset=koi8-r\x00><!-- x -->", b"", size),
        "<foreignObject> </></>< ? x N": _around(b"<svg><foreignObject>", b"</></><\x00?\x00x\x00", b"</svg>" + meta, size),
        "<?xml N<meta></xmp> x N": _repeat_distinct(b"<?xml %d<meta charset=&#x75;tf-8></xmp></xmp>", size),
        "<html> &# x N (text)": _around(b"<html>", b"&#", meta, size),
        "<svg> one tag name, non-ASCII": _around(b"<svg>", b"\x00<x\xef\xbb\xbf\xe3\x81\x82<?xml", b"</svg>" + meta, size),
        # (hunted, stop 63: end tags of non-ASCII names in text; a template's svg titles holding ISO-2022-JP escapes)
        "hunted: </x\U0001f600a < b x N, </script><meta>": _around(b"", "</x\U0001f600a < b".encode(),
                                                                  b'</script><meta charset="shift_jis">', size),
        "hunted: <template><svg><title>ESC$B<%d<form> x N": (b'\xe9 e="f"<template>' + _repeat_distinct(
            b"<svg><title>\x1b$B<%d<form><form><form></svg>\x1b$(D\x1b$B<", size - 80)
            + b"</svg><meta charset=koi8-r></svg><meta charset=koi8-r>").ljust(size),
        # (hunted, stop 64: a flood of end tags after 2 KiB of text, which the runs read in one match)
        "hunted: <html>, 2 KiB of spaces, </></> x N": _around(b"<html>" + b" " * 2200, b"</></>",
                                                               b"\x1b(B<meta charset=koi8-r>", size),
        "hunted: <html>, 2 KiB of spaces, </style> x N": _around(b"<html>" + b" " * 2200, b"</style></style>",
                                                                b"\x1b(B<meta charset=koi8-r><foreignObject>", size),
        "hunted: <template>, <b><b> CRLF x N": _around(b"<template>", b"<b><b>\r\n",
                                                       b'<meta charset="shift_jis"><meta charset="shift_jis"></script>', size),
        "hunted: <template>, <script><!--<script> x N": _around(
            b"<template>a < b<template>", b"<b><b><script><!--<script><!--a < b<script><!--\xef\xbb\xbf</x",
            b'<meta charset="shift_jis">&</script>', size),
        "<!DOCTYPE\\x81\\x82< x N (one DOCTYPE)": _around(b"<!DOCTYPE\x82<\x1b$B", b"<!DOCTYPE\x81\x82<", meta, size),
        **{f"<meta charset={label}>, {unit!r} x N": _around(b"<meta charset=%s>" % label.encode(), unit, b"", size)
           for label, unit in [("shift_jis", b"\x81<"), ("euc-kr", b"\xff"), ("big5", b"\xff"), ("euc-jp", b"\xff"),
                               ("gb18030", b"\xff"), ("iso-2022-jp", b"\x1b$B<"), ("big5", b"\x81\x81"),
                               ("shift_jis", b"\x85@"), ("big5", b"\x81\x81\x82\x83"), ("big5", b"\xa4\xa4\xff"),
                               ("big5", b"\x87\xe0"), ("shift_jis", b"\x82@"), ("gbk", b"\xa1\xa1\x80"),
                               ("big5", b"\x87\xa1"), ("big5", b"\x87\xa1\xff"),
                               ("euc-jp", b"\xa1\x8f\xa2\xb7"), ("big5", b"\xa1\xa2A"), ("gbk", b"\x810\x810=>\n"),
                               ("big5", b"\xa2A"), ("big5", b"\xa2A\xa1\xfe"), ("euc-jp", b"\x8f\xa2\xb7"),
                               ("euc-jp", b"\x8f\xa2\xb7~"), ("euc-jp", b"\xad\xa1 "), ("iso-2022-jp", b"\x1b$B<\x1b(B<")]},
        **{f"<meta charset={label}>, random 0x80-0xFF": (b"<meta charset=%s>" % label.encode() + _random_high(7, size))[:size]
           for label in ("big5", "euc-jp", "shift_jis", "euc-kr", "gb18030")},
        "<!----> x N, UTF-16LE": _repeat("<!---->".encode("utf-16-le"), size - 42) + "<meta charset=koi8-r>".encode("utf-16-le"),
        "<!----> x N, UTF-16LE BOM": b"\xff\xfe" + _repeat("<!---->".encode("utf-16-le"), size - 2),
        "windows-1251 text": _repeat(russian, size),
        "random bytes": random.Random(6).randbytes(size),
        "NUL bytes": bytes(size),
        "ASCII, 0xE9 at end": _repeat(b"<p>plain ascii markup</p>\n", size - 1) + b"\xe9",
    }


def page(body: bytes) -> Page:
    return Page("hostile", "hostile", "http://example.com/", "text/html", body, None)


def cold(ours: Ours, hostile: Page):
    """A fresh response, with nothing cached from the same body's earlier calls (a crawl meets
    each page once): the readings of its ``<meta>`` tags and its last hint are forgotten."""
    forget()
    return ours.side(hostile)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="64,1024", help="body sizes in KiB, comma-separated")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="cProfile call counts instead of times")
    parser.add_argument("--rows", default="", help="only the rows whose name holds this text")
    args = parser.parse_args(argv)
    sizes = [int(s) * KIB for s in args.sizes.split(",")]
    sides = {"standard": Ours(), "browsers": Ours({"WHATWG_ENCODING_PROFILE": "browsers"})}
    for ours in sides.values():
        # Load the parser and tables; and reach the steady state of a crawl: the "differs from
        # Scrapy alone" statistic replays Scrapy's inference on the first COMPARE_FIRST pages of
        # each decision source (every source the bodies get).
        for body in bodies(4 * KIB).values():
            for _ in range(COMPARE_FIRST + 1):
                ours.side(page(body))()
    if args.profile:
        return print_profile(sizes, sides, args.rows)
    print(f"ms per page through the middlewares, best of {args.repeat}; ratio = ours / Scrapy alone")
    header = (f"{'body':<30} {'KiB':>5} {'Scrapy':>8} {'standard':>9} {'ratio':>6} {'browsers':>9} {'ratio':>6}"
              "   decision (standard / browsers)")
    print(header)
    print("-" * len(header))
    for size in sizes:
        for name, body in bodies(size).items():
            if args.rows not in name:
                continue
            hostile = page(body)
            cells: list[int] = []
            decisions: list[str] = []
            scrapy = sys.maxsize
            for ours in sides.values():
                scrapy_ns, ours_ns = alternate((partial(scrapy_side, hostile), partial(cold, ours, hostile)), args.repeat)
                scrapy = min(scrapy, scrapy_ns)
                cells.append(ours_ns)
                call = ours.side(hostile)
                call()
                decision = call.request.meta["whatwg_encoding"]  # type: ignore[attr-defined]  # a dict (docs/logging.rst)
                decisions.append(f"{decision.get('encoding')} ({decision.get('source')})")
            print(f"{name:<30} {size // KIB:>5} {scrapy / 1e6:>8.2f} {cells[0] / 1e6:>9.2f} {cells[0] / scrapy:>6.1f} "
                  f"{cells[1] / 1e6:>9.2f} {cells[1] / scrapy:>6.1f}   {' / '.join(decisions)}", flush=True)
        print()


def print_profile(sizes: list[int], sides: dict[str, Ours], rows: str = "") -> None:
    """Function calls (cProfile's count, which load does not change) per page, each profile, of the
    rows whose name holds *rows*."""
    for size in sizes:
        for name, body in bodies(size).items():
            if rows not in name:
                continue
            counts = []
            for ours in sides.values():
                ours.side(page(body))()  # warm: first-use imports and caches
                call = ours.side(page(body))
                profiler = cProfile.Profile()
                profiler.enable()
                call()
                profiler.disable()
                counts.append(pstats.Stats(profiler).total_calls)  # type: ignore[attr-defined]
            print(f"{name:<30} {size // KIB:>5} KiB  calls: standard {counts[0]:>8,}  browsers {counts[1]:>8,}",
                  flush=True)


if __name__ == "__main__":
    main()
