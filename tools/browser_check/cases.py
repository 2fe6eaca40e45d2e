"""Generate decoder test inputs for every encoding (bytes as hex, one JSON file per encoding).

Usage: /work/venv/bin/python cases.py OUTDIR
Deterministic (fixed seed). Inputs are plain bytes; the browser and our decoders are run over them
with no BOM handling (Encoding Standard "run"/"process" with end-of-stream).
"""
import json
import pathlib
import random
import sys

from scrapy_whatwg_encoding import ENCODINGS

SEED = 20261121
RANDOM_STRINGS = 3000
MULTI_BYTE = {"GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR"}
BOMS = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe")


def common(rng):
    out = [b""]
    for b in range(256):
        out.append(bytes([b]))
        out.append(bytes([b, 0x41]))
    for _ in range(RANDOM_STRINGS):
        out.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 32))))
    # Biased random: mostly high bytes, so multi-byte sequences are often formed.
    for _ in range(1000):
        out.append(bytes(rng.choice((rng.randrange(0x80, 0x100), rng.randrange(0x80, 0x100),
                                     rng.randrange(0x21, 0x7f), rng.randrange(256)))
                         for _ in range(rng.randint(1, 24))))
    return out


def two_byte_grid():
    return [bytes([lead, trail]) for lead in range(0x80, 0x100) for trail in range(256)]


def gb18030_extra(rng):
    out = []
    for _ in range(20000):
        out.append(bytes([rng.randrange(0x81, 0xff), rng.randrange(0x30, 0x3a),
                          rng.randrange(0x81, 0xff), rng.randrange(0x30, 0x3a)]))
    # Every four-byte sequence with first byte 0x81..0x84 (BMP ranges, pointers 0..39419).
    for b1 in range(0x81, 0x85):
        for b2 in range(0x30, 0x3a):
            for b3 in range(0x81, 0xff):
                for b4 in range(0x30, 0x3a):
                    out.append(bytes([b1, b2, b3, b4]))
    # Supplementary boundary (0x90 30 81 30) and beyond the last valid pointer.
    for b1 in (0x8f, 0x90, 0xe3, 0xe4, 0xfd, 0xfe):
        for b2 in (0x30, 0x32, 0x39):
            for b3 in (0x81, 0x8a, 0xfe):
                for b4 in (0x30, 0x39):
                    out.append(bytes([b1, b2, b3, b4]))
    # Malformed third/fourth bytes.
    for b in range(256):
        out.append(bytes([0x81, 0x30, b]))
        out.append(bytes([0x81, 0x30, b, 0x41]))
        out.append(bytes([0x81, 0x30, 0x81, b]))
        out.append(bytes([0x81, 0x30, 0x81, b, 0x41]))
    return out


def euc_jp_extra():
    out = [bytes([0x8f, b2, b3]) for b2 in range(0xa1, 0xff) for b3 in range(0xa1, 0xff)]
    for b in range(256):
        out.append(bytes([0x8f, b]))
        out.append(bytes([0x8f, b, 0x41]))
        out.append(bytes([0x8f, 0xa1, b]))
    return out


ESCAPES = [b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$B", b"\x1b", b"\x1b(", b"\x1b$",
           b"\x1b$A", b"\x1b(C", b"\x1b(K"]


def iso_2022_jp_extra(rng):
    out = []
    for lead in range(256):
        for trail in range(256):
            out.append(b"\x1b$B" + bytes([lead, trail]))
    for esc in (b"\x1b(I", b"\x1b(J", b"\x1b$@"):
        for b in range(256):
            out.append(esc + bytes([b]))
            out.append(esc + bytes([b, 0x41]))
    for first in ESCAPES:
        for second in ESCAPES:
            out.append(first + second)
            out.append(first + b"A" + second)
            out.append(first + second + b"$B")
    tokens = ESCAPES + [b"\x0e", b"\x0f", b"\n", b"\r", b"A", b"~", b"\\", b"\x80", b"\xff"]
    for _ in range(5000):
        parts = []
        for _ in range(rng.randint(1, 10)):
            kind = rng.randrange(4)
            if kind == 0:
                parts.append(rng.choice(tokens))
            elif kind == 1:
                parts.append(bytes([rng.randrange(0x21, 0x7f), rng.randrange(0x21, 0x7f)]))
            elif kind == 2:
                parts.append(bytes([rng.randrange(256)]))
            else:
                parts.append(rng.choice(ESCAPES[:5]))
        out.append(b"".join(parts))
    return out


def utf_8_extra(rng):
    out = [bytes([b1, b2, b3]) for b1 in range(0xe0, 0xf0) for b2 in range(0x80, 0xc0)
           for b3 in range(0x80, 0xc0)]
    for b1 in range(0xf0, 0xf8):
        for b2 in range(256):
            out.append(bytes([b1, b2, 0x80, 0x80]))
            out.append(bytes([b1, b2, 0x80]))
    for _ in range(20000):
        out.append(bytes([rng.randrange(0xf0, 0xf5), rng.randrange(0x80, 0xc0),
                          rng.randrange(0x80, 0xc0), rng.randrange(0x80, 0xc0)]))
    for b1 in range(0xe0, 0xf0):
        for b2 in range(256):
            out.append(bytes([b1, b2]))
            out.append(bytes([b1, b2, 0x41]))
    return out


def utf_16_extra(rng, big):
    def unit(u):
        return u.to_bytes(2, "big" if big else "little")

    out = [unit(u) for u in range(0x10000)]
    for _ in range(10000):
        out.append(unit(rng.randrange(0xd800, 0xdc00)) + unit(rng.randrange(0xdc00, 0xe000)))
    special = [0x0041, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xfeff, 0xfffe]
    for a in special:
        for b in special:
            out.append(unit(a) + unit(b))
            for c in special:
                out.append(unit(a) + unit(b) + unit(c))
            out.append(unit(a) + unit(b) + b"\x41")
        out.append(unit(a) + b"\x00")
        out.append(unit(a) + b"\xd8")
    for _ in range(3000):
        out.append(b"".join(unit(rng.choice(special + [rng.randrange(0x10000)]))
                            for _ in range(rng.randint(1, 8))) + (b"\x00" if rng.random() < 0.2 else b""))
    return out


def generate(name, rng):
    cases = common(rng)
    if name in MULTI_BYTE:
        cases += two_byte_grid()
    if name in ("GBK", "gb18030"):
        cases += gb18030_extra(rng)
    elif name == "EUC-JP":
        cases += euc_jp_extra()
    elif name == "ISO-2022-JP":
        cases += iso_2022_jp_extra(rng)
    elif name == "UTF-8":
        cases += two_byte_grid() + utf_8_extra(rng)
    elif name in ("UTF-16BE", "UTF-16LE"):
        cases += utf_16_extra(rng, name == "UTF-16BE")
    seen = set()
    unique = []
    for c in cases:
        if c not in seen:
            seen.add(c)
            unique.append(c)
    if name == "replacement":
        # Checked through XHR, whose "decode" sniffs a BOM first: leave BOM-led inputs out.
        unique = [c for c in unique if not c.startswith(BOMS)][:1500]
    return unique


def main(outdir):
    outdir = pathlib.Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    for i, name in enumerate(ENCODINGS):
        rng = random.Random(f"{SEED}-{name}")
        cases = generate(name, rng)
        label = "iso-2022-kr" if name == "replacement" else name
        mode = "xhr" if name == "replacement" else "textdecoder"
        doc = {"encoding": name, "label": label, "mode": mode, "cases": [c.hex() for c in cases]}
        (outdir / f"{i:02d}_{name}.json").write_text(json.dumps(doc))
        print(f"{name}: {len(cases)} inputs")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/cases")
