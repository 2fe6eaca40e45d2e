"""Generate encoder test strings (scalar values only) for every encoding that has an encoder.

Usage: /work/venv/bin/python encoder_cases.py OUTDIR
Each string is set as the query of an <a href> in a document of that encoding; the URL parser
encodes the query with the document's encoding (html error mode, errors as %26%23NNNN%3B).
"""
import json
import pathlib
import random
import sys

from scrapy_whatwg_encoding import ENCODINGS

SEED = 20261121
SKIP = {"UTF-16BE", "UTF-16LE", "replacement"}  # their output encoding is UTF-8 (covered by UTF-8)
KANA = [chr(c) for c in range(0xFF61, 0xFFA0)]
JIS_SPECIAL = ["\u00a5", "\u203e", "\u2212", "\uff5e", "\u301c", "\u2225", "\uffe0", "a", "~", "\\"]


def scalar(rng):
    while True:
        c = rng.randrange(0x80, 0x110000)
        if not 0xD800 <= c < 0xE000:
            return chr(c)


def generate(name, rng):
    out = [chr(c) for c in range(0x80, 0x10000) if not 0xD800 <= c < 0xE000]
    out += [scalar(rng) for _ in range(3000)]
    out += [chr(c) for c in (0x10000, 0x1FFFF, 0x20000, 0x20087, 0x2A6D6, 0x10FFFF, 0xE5E5, 0xE7C7)]
    for _ in range(2000):
        out.append("".join(rng.choice(("a", scalar(rng), chr(rng.randrange(0x80, 0x3000)),
                                        chr(rng.randrange(0x4E00, 0xA000))))
                           for _ in range(rng.randint(1, 12))))
    if name == "ISO-2022-JP":
        out += [chr(c) + "a" for c in range(0x80, 0x10000) if not 0xD800 <= c < 0xE000]
        pool = KANA + JIS_SPECIAL + [chr(c) for c in range(0x3041, 0x3097)] + ["\u4e00", "\u6f22", "\U00020000"]
        for _ in range(5000):
            out.append("".join(rng.choice(pool) for _ in range(rng.randint(1, 10))))
    return out


def main(outdir):
    outdir = pathlib.Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    for i, name in enumerate(ENCODINGS):
        if name in SKIP:
            continue
        rng = random.Random(f"{SEED}-enc-{name}")
        strings = generate(name, rng)
        (outdir / f"{i:02d}_{name}.json").write_text(json.dumps({"encoding": name, "strings": strings}))
        print(f"{name}: {len(strings)} strings")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/enc_cases")
