"""Measure when an unlabeled body that is not valid UTF-8 should still decode as UTF-8 (issue 21,
item 6): the figures behind :data:`scrapy_whatwg_encoding.sniffing.detect.STRAY_RULE`.

Usage: python tools/stray_bytes.py [--seed N] [--examples N]

Every body is counted as UTF-8 by :func:`~scrapy_whatwg_encoding.sniffing.detect.utf_8_sequences`:
V valid multi-byte sequences, I invalid sequences (the U+FFFD a UTF-8 decoder makes). A rule
"V >= N and I <= max(k, p% of V)" is judged on:

- UTF-8 pages with stray bytes (what should become UTF-8): the corpus's UTF-8 pages without a BOM and
  every other corpus page transcoded to UTF-8 (its true text), each with,
  at seeded random positions: n random bytes 0x80-0xFF (n = 1, 2, 5, 10, 20, 50), the body cut inside
  a multi-byte sequence, one latin-1 word (``caf\\xe9``), and 1 or 5 windows-1252 smart-quote pairs;
- legacy text (what must not become UTF-8): the corpus's legacy pages whole, every slice of them of
  128, 512, 2048 and 8192 bytes (step: half the length) as short pages, and hypothesis-generated
  text (words of each legacy encoding's letters and punctuation, some ASCII, encoded).

Bodies that are valid UTF-8 (I = 0) are UTF-8 before any rule and are left out of the legacy counts.
Prints, per candidate rule, the share of stray-byte pages read as UTF-8 and the legacy bodies read
as UTF-8 by mistake.
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import sys

from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from sniff_accuracy import CORPUS, strip_declarations

from scrapy_whatwg_encoding import ENCODINGS, decode, sniff
from scrapy_whatwg_encoding.sniffing import detect as detect_module
from scrapy_whatwg_encoding.sniffing.detect import utf_8_sequences

SINGLE_BYTE_LEGACY = ("windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254",
                      "windows-1255", "windows-1256", "windows-1257", "windows-874", "ISO-8859-2",
                      "ISO-8859-5", "ISO-8859-7", "ISO-8859-15", "KOI8-R", "KOI8-U", "IBM866",
                      "x-mac-cyrillic", "macintosh")
MULTI_BYTE_LEGACY = ("Shift_JIS", "EUC-JP", "EUC-KR", "Big5", "GBK")
CANDIDATES = [(n, k, p) for n in (1, 3, 5, 10) for k in (1, 2, 3, 5) for p in (1, 2, 5, 10, 20, 50)]


def counts(body: bytes) -> tuple[int, int]:
    return utf_8_sequences(body)


def passes(rule, valid: int, invalid: int) -> bool:
    n, k, p = rule
    return valid >= n and invalid * 100 <= max(k * 100, p * valid)


def corpus():
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    for entry in manifest:
        if entry["encoding"] is not None:
            truth = ENCODINGS[entry["encoding"]]
            yield truth, entry["path"], strip_declarations((CORPUS / entry["path"]).read_bytes())


def utf_8_pages():
    """(name, UTF-8 body): the corpus's UTF-8 pages without a BOM, the others transcoded."""
    for truth, path, body in corpus():
        if body.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
            continue
        text = decode(body, truth)[0]
        if truth.name == "UTF-8" or text.isascii():
            yield path, body
        else:
            yield f"{path} (as UTF-8)", text.encode("utf-8")


def insert(body: bytes, rng: random.Random, piece: bytes, ascii_only: bool = False) -> bytes:
    for _ in range(100):
        at = rng.randrange(len(body) + 1)
        if not ascii_only or at == len(body) or body[at] < 0x80 and (at == 0 or body[at - 1] < 0x80):
            break
    return body[:at] + piece + body[at:]


def injections(body: bytes, rng: random.Random):
    """(kind, body with a defect) for one UTF-8 body."""
    for n in (1, 2, 5, 10, 20, 50):
        damaged = body
        for _ in range(n):
            damaged = insert(damaged, rng, bytes([rng.randrange(0x80, 0x100)]))
        yield f"{n} random byte(s)", damaged
    leads = [i for i, byte in enumerate(body) if byte >= 0xC2]
    if leads:
        yield "cut inside a sequence", body[:rng.choice(leads) + 1]
    yield "latin-1 word caf\\xe9", insert(body, rng, b" caf\xe9 ", ascii_only=True)
    for n in (1, 5):
        damaged = body
        for _ in range(n):
            damaged = insert(damaged, rng, b"\x93quoted\x94", ascii_only=True)
        yield f"{n} cp1252 quote pair(s)", damaged


def legacy_bodies():
    """(kind, body) for the corpus's legacy pages, whole and sliced."""
    for truth, path, body in corpus():
        if truth.name in ("UTF-8", "UTF-16LE", "UTF-16BE"):
            continue
        yield "whole page", body
        for length in (128, 512, 2048, 8192):
            for start in range(0, max(len(body) - length, 0) + 1, length // 2):
                yield f"{length}-byte slice", body[start:start + length]


def generated_bodies(examples: int):
    """(encoding name, body) drawn by hypothesis: words of the encoding's non-ASCII letters and
    punctuation mixed with ASCII, encoded (no shrinking: a sample, not a search)."""
    out = []
    for name in SINGLE_BYTE_LEGACY + MULTI_BYTE_LEGACY:
        encoding = ENCODINGS[name]
        if name in SINGLE_BYTE_LEGACY:
            letters = sorted({ch for b in range(0x80, 0x100) for ch in decode(bytes([b]), encoding)[0]
                              if ch != "\ufffd" and not ch.isspace()})
        else:
            sample = "".join(decode(body, encoding)[0] for truth, _, body in corpus() if truth is encoding)
            letters = sorted({ch for ch in sample if not ch.isascii() and ch != "\ufffd"})
        word = st.text(st.sampled_from(letters) | st.sampled_from("aeinorst"), min_size=1, max_size=10)
        strategy = st.lists(word | st.sampled_from(["the", "and", "<p>", "</a>", "2024", "."]),
                            min_size=1, max_size=200).map(" ".join)
        _draw(strategy, encoding, examples, out)
    return out


def decisions(variants: dict) -> None:
    """Print, per kind of stray-byte page, the share that sniff() reads as UTF-8 per detector mode,
    with the package's rule and without it (what the package did before it)."""
    rule = detect_module.STRAY_RULE
    print(f"\nsniff() of the stray-byte pages, share read as UTF-8 (%), rule {rule} off -> on:")
    print(f"{'':<26}{'full':>16}{'browser':>16}")
    for kind, bodies in variants.items():
        cells = []
        for mode in ("full", "browser"):
            shares = []
            for setting in ((sys.maxsize, 0, 0), rule):
                detect_module.STRAY_RULE = setting
                utf_8 = sum(sniff(body, detector=mode).encoding.name == "UTF-8" for body in bodies)
                shares.append(100 * utf_8 / len(bodies))
            cells.append(f"{shares[0]:.1f} -> {shares[1]:.1f}")
        detect_module.STRAY_RULE = rule
        print(f"{kind:<26}" + "".join(f"{cell:>16}" for cell in cells))


def _draw(strategy, encoding, examples: int, out: list) -> None:
    @settings(max_examples=examples, phases=[Phase.generate], database=None, deadline=None,
              derandomize=True)
    @given(strategy)
    def draw(text):
        out.append((encoding.name, encoding.encode(text)))

    draw()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--examples", type=int, default=300, help="hypothesis examples per encoding")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    stray = collections.defaultdict(list)
    variants = collections.defaultdict(list)
    for _, body in utf_8_pages():
        for kind, damaged in injections(body, rng):
            valid, invalid = counts(damaged)
            if invalid:
                stray[kind].append((valid, invalid))
                variants[kind].append(damaged)
    legacy = collections.defaultdict(list)
    already = collections.Counter()
    for kind, body in legacy_bodies():
        valid, invalid = counts(body)
        if invalid:
            legacy[kind].append((valid, invalid))
        elif not body.isascii():
            already[kind] += 1
    for name, body in generated_bodies(args.examples):
        valid, invalid = counts(body)
        kind = "generated " + ("single-byte" if name in SINGLE_BYTE_LEGACY else "multi-byte")
        if invalid:
            legacy[kind].append((valid, invalid))
        elif not body.isascii():
            already[kind] += 1
    print("stray-byte UTF-8 bodies (should be UTF-8):", {k: len(v) for k, v in stray.items()})
    print("legacy bodies with an invalid sequence (must not be UTF-8):", {k: len(v) for k, v in legacy.items()})
    print("legacy bodies that are valid UTF-8 already (UTF-8 before any rule):", dict(already))
    for kind, rows in legacy.items():
        best = max(rows, key=lambda r: (r[0] / r[1], r[0]))
        best5 = max((r for r in rows if r[0] >= 5), key=lambda r: r[0] / r[1], default=(0, 1))
        print(f"  {kind}: highest V/I {best[0]}/{best[1]}, with V >= 5 {best5[0]}/{best5[1]}; "
              f"V >= I in {sum(v >= i for v, i in rows)}")
    print()
    kinds = list(stray)
    print(f"{'N k p%':<10}{'stray: share read as UTF-8 (%)':<{8 * len(kinds)}}| legacy read as UTF-8")
    print(f"{'':<10}" + "".join(f"{k[:7]:>8}" for k in kinds) + " | " + "  ".join(legacy))
    for rule in CANDIDATES:
        row = [100 * sum(passes(rule, v, i) for v, i in stray[k]) / len(stray[k]) for k in kinds]
        wrong = [sum(passes(rule, v, i) for v, i in legacy[k]) for k in legacy]
        print(f"{' '.join(map(str, rule)):<10}" + "".join(f"{x:>8.1f}" for x in row) + " | "
              + "  ".join(f"{w:>{len(k)}}" for w, k in zip(wrong, legacy)))
    decisions(variants)


if __name__ == "__main__":
    sys.exit(main())
