"""The long fuzz run (not in CI): generated inputs through ``get_encoding``, every decoder and encoder,
``prescan``, ``sniff`` and the middleware, checking the properties of issue 6.

    python tools/fuzz.py [--inputs 100000] [--seed 6] [--out /tmp/fuzz-findings]

Inputs (a fixed mix, reproducible from ``--seed``): windows of ``tests/data/corpus`` pages and of the
html5lib-tests encoding cases, mutated (bytes flipped, NUL runs, high bytes, escape sequences, BOMs,
markup inserted, cut inside multi-byte sequences); pure random and NUL-heavy binary bodies; random
text with lone surrogates for the encoders; random labels; random ``Content-Type`` header bytes.
Every body goes through all 40 decoders (plus the codec, the incremental codec and "decode"),
``prescan``, ``sniff`` and the middleware; every text through all encoders; every label through
``get_encoding``.

Properties: nothing raises (the middleware's own error counter stays at 0); no lone surrogate in any
decoder output; at most one character per byte; an ASCII byte is never swallowed by an invalid lead
byte (exact in UTF-8, EUC-JP, x-user-defined and the single-byte encodings; a subsequence accounted
for by valid characters in GBK, gb18030, Big5, Shift_JIS, EUC-KR); the same result twice and through
every path; ``encode(decode(encode(s))) == encode(s)``. Prints the inputs run per target and every
finding (the first input of each kind is written to ``--out``).
"""
from __future__ import annotations

import argparse
import codecs
import collections
import json
import pathlib
import random
import re
import sys
import time
import traceback

REPO = pathlib.Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
sys.path.insert(0, str(REPO))

from scrapy.http import HtmlResponse, Request, Response, TextResponse

from scrapy_whatwg_encoding import ENCODINGS, WhatwgEncodingMiddleware, decode, get_encoding, prescan, sniff
from scrapy_whatwg_encoding.encoding.tables.labels import LABELS

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
HIGH_BYTES = bytes(range(0x80, 0x100))
EXACT_ASCII = [n for n in ENCODINGS if n not in ("UTF-16BE", "UTF-16LE", "replacement", "ISO-2022-JP", "GBK",
                                                    "gb18030", "Big5", "Shift_JIS", "EUC-KR")]
ASCII_TRAILS = {"GBK": 2, "gb18030": 2, "Big5": 1, "Shift_JIS": 1, "EUC-KR": 1}
INSERTS = [b"\x82", b"\x81\x30", b"\x81\x30\x81", b"\x8f\xa1", b"\x8e", b"\x1b$B", b"\x1b(J", b"\x1b(I", b"\x1b",
           b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xd8\x00",
           b"\x00\xdc", b"<meta charset=", b"koi8-r>", b'"', b"<script>", b"</script>", b"<!--", b"-->",
           b"<?xml version='1.0' encoding='", b"\x3c\x00\x3f\x00\x78\x00", b"\x00\x3c\x00\x3f\x00\x78", b"<meta http-equiv=content-type content='text/html;charset="]
HEADER_PARTS = [b"text/html", b"text/plain", b"application/xml", b"image/svg+xml", b"*/*", b"application/json", b";",
                b" ", b"charset", b"=", b'"', b"'", b"\\", b",", b"utf-8", b"koi8-r", b"iso-2022-kr", b"utf-16",
                b"x-user-defined", b"\xff", b"\xc3\xb6", b"\x00", b"\t"]


def load_seeds() -> list[bytes]:
    manifest = json.loads((DATA / "corpus" / "manifest.json").read_text("utf-8"))
    seeds = [(DATA / "corpus" / e["path"]).read_bytes() for e in manifest]
    for path in sorted((DATA / "html5lib-tests" / "encoding").rglob("*.dat")):
        for case in path.read_bytes().split(b"#data\n")[1:]:
            seeds.append(case.split(b"\n#encoding", 1)[0])
    return seeds


class Generator:
    def __init__(self, seed: int, seeds: list[bytes]):
        self.rng = random.Random(seed)
        self.seeds = seeds

    def body(self) -> bytes:
        rng = self.rng
        kind = rng.random()
        if kind < 0.1:
            return rng.randbytes(rng.randrange(0, 2048))
        if kind < 0.15:  # NUL-heavy
            data = bytearray(rng.randrange(0, 4096))
            for _ in range(rng.randrange(0, 20)):
                if data:
                    data[rng.randrange(len(data))] = rng.randrange(256)
            return bytes(data)
        if kind < 0.2:  # repeated short pattern
            return rng.randbytes(rng.randrange(1, 16)) * rng.randrange(1, 300)
        seed = rng.choice(self.seeds)
        start = rng.randrange(len(seed)) if seed and rng.random() < 0.7 else 0
        data = bytearray(seed[start:start + rng.choice((64, 512, 2048, 8192))])
        for _ in range(rng.randrange(0, 8)):
            at = rng.randrange(len(data) + 1)
            op = rng.random()
            if op < 0.35 and data:
                data[min(at, len(data) - 1)] = rng.randrange(256)
            elif op < 0.7:
                data[at:at] = rng.choice(INSERTS)
            elif op < 0.8:
                data[at:at] = b"\x00" * rng.randrange(1, 500)
            elif op < 0.9:
                data[at:at] = bytes(rng.randrange(0x80, 0x100) for _ in range(rng.randrange(1, 8)))
            else:
                del data[at:]
        return bytes(data)

    def text(self) -> str:
        rng = self.rng
        pick = (lambda: rng.randrange(0x80), lambda: rng.randrange(0x110000), lambda: rng.randrange(0xD800, 0xE000),
                lambda: rng.randrange(0x3000, 0xA000), lambda: rng.randrange(0x80, 0x800))
        return "".join(chr(rng.choice(pick)()) for _ in range(rng.randrange(0, 120)))

    def label(self):
        rng = self.rng
        label = rng.choice(list(LABELS))
        op = rng.random()
        if op < 0.3:
            return "".join(rng.choice("\t\n\x0c\r \x0b\xa0") for _ in range(2)) + label.upper()
        if op < 0.5:
            return label[: rng.randrange(len(label) + 1)] + rng.choice(["", "\x00", "ſ", "\u212a", "-", "\u0130"])
        if op < 0.7:
            return rng.randbytes(rng.randrange(0, 20))
        return "".join(chr(rng.randrange(0x20, 0x250)) for _ in range(rng.randrange(0, 16)))

    def content_type(self):
        rng = self.rng
        if rng.random() < 0.1:
            return None
        if rng.random() < 0.2:
            return rng.randbytes(rng.randrange(0, 60))
        return b"".join(rng.choice(HEADER_PARTS) for _ in range(rng.randrange(1, 12)))


class Findings:
    def __init__(self, out: pathlib.Path):
        self.out = out
        self.kinds: collections.Counter[str] = collections.Counter()

    def add(self, kind: str, data, detail: str) -> None:
        self.kinds[kind] += 1
        if self.kinds[kind] == 1:
            self.out.mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", kind)[:80]
            (self.out / f"{name}.repr").write_text(f"{data!r}\n\n{detail}\n", encoding="utf-8")
            print(f"FINDING {kind}: {detail.splitlines()[-1] if detail else ''}", flush=True)


def _ascii_ok(name: str, data: bytes, text: str) -> bool:
    ascii_in = data.translate(None, HIGH_BYTES)
    ascii_out = text.encode("ascii", "ignore")
    if name in EXACT_ASCII:
        return ascii_out == ascii_in
    it = iter(ascii_in)
    if ascii_out != ascii_in and not all(c in it for c in ascii_out):
        return False
    errors = text.count("\ufffd")
    valid = len(text) - len(ascii_out) - errors
    if name in ("GBK", "gb18030"):  # see tests/oracles/test_fuzz.py: digits of four-byte sequences
        digits_in, digits_out = _digits(ascii_in), _digits(ascii_out)
        return (len(ascii_in) - digits_in - (len(ascii_out) - digits_out) <= valid
                and digits_in - digits_out <= 2 * (valid + errors))
    return len(ascii_in) - len(ascii_out) <= ASCII_TRAILS[name] * valid


def _digits(data: bytes) -> int:
    return len(data) - len(data.translate(None, b"0123456789"))


def check_body(data: bytes, rng: random.Random, findings: Findings) -> None:
    for name, encoding in ENCODINGS.items():
        try:
            text = encoding.decode(data)
            if LONE_SURROGATE.search(text):
                findings.add(f"lone-surrogate {name}", data, "")
            if len(text) > len(data):
                findings.add(f"longer-than-input {name}", data, "")
            if encoding.decode(data) != text or data.decode(encoding.codec_name) != text:
                findings.add(f"nondeterministic {name}", data, "")
            if name == "replacement":
                if text != ("\ufffd" if data else ""):
                    findings.add("replacement", data, text)
            elif name in ("GBK", "gb18030"):
                if not _ascii_ok(name, data + b"\n", encoding.decode(data + b"\n")):
                    findings.add(f"ascii-swallowed {name}", data, "")
            elif name not in ("UTF-16BE", "UTF-16LE", "ISO-2022-JP") and not _ascii_ok(name, data, text):
                findings.add(f"ascii-swallowed {name}", data, "")
            incremental = codecs.getincrementaldecoder(encoding.codec_name)()
            cut = rng.randrange(len(data) + 1)
            if incremental.decode(data[:cut]) + incremental.decode(data[cut:], final=True) != text:
                findings.add(f"incremental {name}", data, str(cut))
            if LONE_SURROGATE.search(decode(data, encoding)[0]):
                findings.add(f"decode-hook {name}", data, "")
        except Exception:  # noqa: BLE001 — a finding
            findings.add(f"exception decode {name}", data, traceback.format_exc())


def check_text(text: str, findings: Findings) -> None:
    scalar = LONE_SURROGATE.sub("\ufffd", text)
    for name, encoding in ENCODINGS.items():
        try:
            data = encoding.encode(text)
            if data != encoding.encode(scalar) or text.encode(encoding.codec_name) != data:
                findings.add(f"encode-surrogates {name}", text, "")
            output = encoding.output_encoding
            back = output.decode(data)
            if LONE_SURROGATE.search(back) or output.encode(back) != data:
                findings.add(f"encode-roundtrip {name}", text, "")
        except Exception:  # noqa: BLE001
            findings.add(f"exception encode {name}", text, traceback.format_exc())


def check_label(label, findings: Findings) -> None:
    try:
        found = get_encoding(label)
        if get_encoding(label) is not found:
            findings.add("get_encoding nondeterministic", label, "")
        text = label.decode("latin-1") if isinstance(label, bytes) else label
        if found is not None and not text.strip("\t\n\x0c\r ").isascii():
            findings.add("get_encoding non-ASCII match", label, found.name)
    except Exception:  # noqa: BLE001
        findings.add("exception get_encoding", label, traceback.format_exc())


CLASSES = (HtmlResponse, TextResponse, Response)


def check_document(data: bytes, content_type, rng: random.Random, middleware, findings: Findings) -> None:
    end = rng.choice((1024, 1, 0, 5000, rng.randrange(2048)))
    try:
        found = prescan(data, end)
        if prescan(data, end) is not found:
            findings.add("prescan nondeterministic", data, str(end))
    except Exception:  # noqa: BLE001
        findings.add("exception prescan", (data, end), traceback.format_exc())
    options = {"content_type": content_type, "detector": rng.choice(("off", "browser", "full")),
               "prescan_bytes": rng.choice((1024, 1, 4096)), "locale": rng.choice((None, "ja", "ru", "zh-TW")),
               "url": rng.choice((None, "https://example.jp/", "http://пример.рф/", "http://[::1]/"))}
    try:
        decision = sniff(data, **options)
        if sniff(data, **options) != decision:
            findings.add("sniff nondeterministic", (data, options), "")
        if LONE_SURROGATE.search(decode(data, decision.encoding)[0]):
            findings.add("sniff lone surrogate", (data, options), "")
    except Exception:  # noqa: BLE001
        findings.add("exception sniff", (data, options), traceback.format_exc())
    cls = rng.choice(CLASSES)
    headers = {} if content_type is None else {b"Content-Type": content_type}
    try:
        response = cls("https://example.com/fuzz", body=data, headers=headers)
        request = Request(response.url)
        errors = sum(middleware.report.errors.values())
        out = middleware.process_response(request, response)
        if sum(middleware.report.errors.values()) != errors:
            findings.add("middleware caught an exception", (data, content_type, cls.__name__), "")
        if out.body != data:
            findings.add("middleware changed the body", (data, content_type), "")
        decision = request.meta.get("whatwg_encoding")
        if decision is not None and out.text != decode(data, get_encoding(decision["encoding"]))[0]:
            findings.add("middleware text", (data, content_type), "")
    except Exception:  # noqa: BLE001
        findings.add("exception middleware", (data, content_type), traceback.format_exc())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="bodies (each also runs text, label, header)")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--out", default="/tmp/fuzz-findings")
    args = parser.parse_args(argv)
    generator = Generator(args.seed, load_seeds())
    findings = Findings(pathlib.Path(args.out))
    middleware = WhatwgEncodingMiddleware()
    counts: collections.Counter[str] = collections.Counter()
    rng = generator.rng
    started = time.perf_counter()
    for i in range(args.inputs):
        data = generator.body()
        check_body(data, rng, findings)
        counts["bodies x 40 decoders"] += 1
        check_document(data, generator.content_type(), rng, middleware, findings)
        counts["bodies through prescan, sniff, middleware"] += 1
        check_text(generator.text(), findings)
        counts["texts x 40 encoders"] += 1
        check_label(generator.label(), findings)
        counts["labels"] += 1
        if (i + 1) % 10_000 == 0:
            print(f"  {i + 1} inputs, {time.perf_counter() - started:.0f} s, findings {sum(findings.kinds.values())}",
                  flush=True)
    elapsed = time.perf_counter() - started
    print(f"\nfuzz run: seed {args.seed}, {elapsed:.0f} s")
    for what, count in counts.items():
        print(f"  {what:<45} {count:>9,}")
    print(f"  {'generated inputs in all':<45} {sum(counts.values()) - counts['bodies through prescan, sniff, middleware']:>9,}")
    print(f"  {'decoder runs':<45} {counts['bodies x 40 decoders'] * len(ENCODINGS):>9,}")
    print(f"findings: {sum(findings.kinds.values())} in {len(findings.kinds)} kinds")
    for kind, count in findings.kinds.most_common():
        print(f"  {count:>7}  {kind}")
    return 1 if findings.kinds else 0


if __name__ == "__main__":
    sys.exit(main())
