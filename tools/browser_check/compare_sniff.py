"""Compare Firefox's document.characterSet (sniff.mjs) with scrapy_whatwg_encoding.sniff.

Usage: python compare_sniff.py CASES.json FIREFOX.json[,MORE.json] [--json REPORT]
html5lib cases: sniff(body, content_type="text/html", detector="off"); mismatches where our decision
source is "default" or "detector" are expected (Firefox runs its own detector) and listed apart.
Corpus: sniff(body, content_type="text/html", detector="browser", url=<the 127.0.0.1 URL served>);
corpus-xml: the .xml files as application/xml, sniff(body, content_type="application/xml", ...).
ascii-tld: one ASCII-only page from each TLD's host.
corpus-tld: the files our sniff leaves to the detector/default, served from whatwg-encoding-check.<tld> (site.com is HSTS-preloaded: Firefox went to https).
Where our source is "detector" or "default", the column "whole" is chardetng over the whole body (the URL's TLD
as hint, no UTF-8 guess): a model of what Firefox was seen to do, for comparison with our "browser" mode.
"""
import base64
import collections
import json
import pathlib

import chardetng_py
from common import run

from scrapy_whatwg_encoding import get_encoding, sniff

EXPECTED_DIFF = {"default", "detector"}


def norm(name):
    enc = get_encoding(name) if name else None
    return enc.name if enc else name


def whole_body_guess(body, url):
    host = url.split("/")[2].split(":")[0]
    tld = host.rsplit(".", 1)[-1].encode() if not host.replace(".", "").isdigit() else None
    name = chardetng_py.detect(body, allow_utf8=False, tld=tld)
    # chardetng-py answers with Python codec names for two encodings.
    return {"cp874": "windows-874", "gb18030": "GBK"}.get(name, norm(name))


def main(cases_file, ff_file, report=None):
    cases = json.loads(pathlib.Path(cases_file).read_text())
    ff = {}
    for name in ff_file.split(","):  # several result files may be given, comma-separated
        ff.update(json.loads(pathlib.Path(name).read_text())["results"])
    rows = []
    missing = [c["route"] for c in cases if c["route"] not in ff]
    if missing:
        print(f"{len(missing)} documents have no Firefox result (skipped), e.g. {missing[0]}")
    for c in cases:
        if c["route"] not in ff:
            continue
        body = base64.b64decode(c["body_b64"])
        got = ff[c["route"]]
        if c["set"] == "html5lib":
            d = sniff(body, content_type=c["type"], detector="off")
        else:
            d = sniff(body, content_type=c["type"], detector="browser", url=got["url"])
        rows.append({"set": c["set"], "name": c["name"], "expected": norm(c["expected"]),
                     "firefox": norm(got.get("characterSet")), "firefox_first": norm(got.get("first")),
                     "ours": d.encoding.name, "source": d.source,
                     "error": (got.get("error") or "").split("\n")[0][:200] or None,
                     "whole": whole_body_guess(body, got["url"]) if d.source in ("detector", "default") else None})
    summary = {}
    for kind in ("html5lib", "corpus", "corpus-xml", "corpus-tld", "ascii-tld"):
        sel = [r for r in rows if r["set"] == kind]
        if not sel:
            continue
        by_source = collections.defaultdict(lambda: [0, 0])
        for r in sel:
            by_source[r["source"]][0] += 1
            by_source[r["source"]][1] += r["firefox"] == r["ours"]
        agree = sum(r["firefox"] == r["ours"] for r in sel)
        errors = sum(bool(r["error"]) for r in sel)
        print(f"== {kind}: {len(sel)} documents, Firefox == ours: {agree}"
              + (f" ({errors} did not load in Firefox)" if errors else ""))
        for src, (n, ok) in sorted(by_source.items()):
            note = " (mismatch expected: Firefox's fallback/detector)" if kind == "html5lib" and src in EXPECTED_DIFF else ""
            print(f"   source {src:16} {ok}/{n} agree{note}")
        for src in ("detector", "default"):
            det = [r for r in sel if r["source"] == src]
            if det and kind in ("corpus", "corpus-tld", "ascii-tld"):
                print(f"   {src} rows: Firefox == ours {sum(r['firefox'] == r['ours'] for r in det)}/{len(det)}, "
                      f"Firefox == chardetng over the whole body {sum(r['firefox'] == r['whole'] for r in det)}/{len(det)}")
        if kind in ("corpus", "corpus-xml", "corpus-tld"):
            with_truth = [r for r in sel if r["expected"]]
            print(f"   vs manifest truth ({len(with_truth)} with a Web encoding): "
                  f"Firefox {sum(r['firefox'] == r['expected'] for r in with_truth)}, "
                  f"ours {sum(r['ours'] == r['expected'] for r in with_truth)}")
        elif kind == "html5lib":
            print(f"   vs html5lib expectation: Firefox {sum(r['firefox'] == r['expected'] for r in sel)}, "
                  f"ours {sum(r['ours'] == r['expected'] for r in sel)}")
        for r in sel:
            if r["firefox"] != r["ours"]:
                tag = "expected" if kind == "html5lib" and r["source"] in EXPECTED_DIFF else "MISMATCH"
                print(f"   {tag} {r['name']}: firefox {r['firefox']} (first read {r['firefox_first']}), "
                      f"ours {r['ours']} [{r['source']}], truth {r['expected']}"
                      + (f", whole-body chardetng {r['whole']}" if r["whole"] else "")
                      + (f" error {r['error']}" if r["error"] else ""))
        summary[kind] = {"documents": len(sel), "agree": agree, "by_source": dict(by_source)}
    if report:
        pathlib.Path(report).write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))


if __name__ == "__main__":
    run(main, ["out/sniff_cases.json", "out/sniff_firefox.json"])
