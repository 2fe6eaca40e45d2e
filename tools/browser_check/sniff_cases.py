"""Collect the documents for the sniffing check (html5lib-tests encoding cases and the corpus).

Usage: /work/venv/bin/python sniff_cases.py OUT.json
Each entry: {"set", "name", "route", "type", "body_b64", "expected"}; every body is served with a
Content-Type that has no charset parameter: text/html for "html5lib" and "corpus", and the corpus's
.xml files once more as application/xml ("corpus-xml"), and the corpus files that our sniff
leaves to the detector or default once more from hosts whatwg-encoding-check.<tld> ("corpus-tld"),
and an ASCII-only page from each of those hosts ("ascii-tld").
"""
import base64
import json
import pathlib
import sys

from scrapy_whatwg_encoding import sniff

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"
DATS = ["tests1.dat", "tests2.dat", "test-yahoo-jp.dat"]
# A country-code TLD for each corpus folder (by its language/script); "com" is added for every file.
TLDS = {"Big5": "tw", "CP949": "kr", "EUC-JP": "jp", "EUC-KR": "kr", "EUC-TW": "tw", "GB2312": "cn",
        "IBM855": "ru", "IBM866": "ru", "Johab": "kr", "KOI8-R": "ru", "MacCyrillic": "ru",
        "SHIFT_JIS": "jp", "TIS-620": "th", "iso-8859-1": "de", "iso-8859-2-croatian": "hr",
        "iso-8859-2-czech": "cz", "iso-8859-2-hungarian": "hu", "iso-8859-2-polish": "pl",
        "iso-8859-2-slovak": "sk", "iso-8859-5-bulgarian": "bg", "iso-8859-5-russian": "ru",
        "iso-8859-7-greek": "gr", "iso-8859-9-turkish": "tr", "windows-1250-czech": "cz",
        "windows-1250-hungarian": "hu", "windows-1250-slovak": "sk", "windows-1250-slovene": "si",
        "windows-1251-bulgarian": "bg", "windows-1251-russian": "ru", "windows-1252": "de",
        "windows-1254-turkish": "tr", "windows-1255-hebrew": "il"}


def html5lib_cases():
    """Yield (name, body, expected) for each #data/#encoding block (html5lib's .dat format)."""
    for dat in DATS:
        text = (DATA / "html5lib-tests/encoding" / dat).read_bytes()
        blocks = text.split(b"#data\n")[1:]
        for i, block in enumerate(blocks):
            data, _, rest = block.partition(b"\n#encoding\n")
            expected = rest.split(b"\n", 1)[0].decode().strip()
            yield f"{dat}#{i}", data, expected


def main(out):
    entries = []
    for name, body, expected in html5lib_cases():
        entries.append({"set": "html5lib", "name": name, "route": f"/h5/{len(entries)}",
                        "type": "text/html", "expected": expected,
                        "body_b64": base64.b64encode(body).decode()})
    manifest = json.loads((DATA / "corpus/manifest.json").read_text())
    for item in manifest:
        body = (DATA / "corpus" / item["path"]).read_bytes()
        entries.append({"set": "corpus", "name": item["path"], "route": "/corpus/" + item["path"],
                        "type": "text/html", "expected": item["encoding"],
                        "body_b64": base64.b64encode(body).decode()})
        if item["path"].endswith(".xml"):
            entries.append({"set": "corpus-xml", "name": item["path"], "route": "/corpus-xml/" + item["path"],
                            "type": "application/xml", "expected": item["encoding"],
                            "body_b64": base64.b64encode(body).decode()})
        # Documents our sniff leaves to the detector or the default: once more under host names
        # with a TLD (Firefox resolves them to 127.0.0.1 through network.dns.localDomains).
        if sniff(body, content_type="text/html", detector="browser").source in ("detector", "default"):
            folder = item["path"].split("/")[1]
            for tld in sorted({TLDS.get(folder, "com"), "com"}):
                entries.append({"set": "corpus-tld", "name": f"{item['path']} @.{tld}", "host": f"whatwg-encoding-check.{tld}",
                                "route": f"/corpus-tld/{tld}/" + item["path"], "type": "text/html",
                                "expected": item["encoding"], "body_b64": base64.b64encode(body).decode()})
    # An ASCII-only page under each TLD: Firefox's fallback for it follows the TLD.
    ascii_body = b"<!doctype html><title>ascii</title><p>Plain ASCII text, no declaration.</p>"
    for tld in sorted(set(TLDS.values()) | {"com"}):
        entries.append({"set": "ascii-tld", "name": f"ascii @.{tld}", "host": f"whatwg-encoding-check.{tld}",
                        "route": f"/ascii-tld/{tld}", "type": "text/html", "expected": None,
                        "body_b64": base64.b64encode(ascii_body).decode()})
    pathlib.Path(out).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(out).write_text(json.dumps(entries))
    print(f"{len(entries)} documents")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/sniff_cases.json")
