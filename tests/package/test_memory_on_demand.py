"""Memory on demand: what is not needed loads on first use (each check in a fresh interpreter, so
that nothing the test run imported counts). The figures are measured by tools/bench_memory.py and
tools/bench_crawl.py --rss."""
from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys

import pytest


def fresh(script: str) -> dict:
    """Run *script* in a fresh interpreter; it prints one JSON object, returned."""
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_version_is_read_on_first_use():
    """``import scrapy_whatwg_encoding`` does not import importlib.metadata (~3.5 MB, tens of ms);
    ``__version__`` still gives the distribution's version, as an attribute and by ``from`` import."""
    found = fresh("""
import json, sys
import scrapy_whatwg_encoding
before = "importlib.metadata" in sys.modules
from scrapy_whatwg_encoding import __version__
print(json.dumps({"before": before, "version": __version__, "again": scrapy_whatwg_encoding.__version__,
                  "listed": "__version__" in scrapy_whatwg_encoding.__all__}))
""")
    version = importlib.metadata.version("scrapy-whatwg-encoding")
    assert found == {"before": False, "version": version, "again": version, "listed": True}


@pytest.mark.slow  # a crawl in a new process
def test_report_loads_only_for_a_crawl_that_writes_one(tmp_path):
    """The Scrapy layer imports the HTML report's modules only when ``WHATWG_ENCODING_REPORT`` is set
    (a Stats with a path), and that report is still written with the decisions counted."""
    path = tmp_path / "report.html"
    found = fresh(f"""
import json, sys
from scrapy_whatwg_encoding import sniff
from scrapy_whatwg_encoding.scrapy.stats import Stats
import scrapy_whatwg_encoding.scrapy
loaded = lambda: sorted(m for m in sys.modules if m.startswith("scrapy_whatwg_encoding.report"))
off = Stats(None, 10)
off.decision("http://a.test/", sniff(b"<meta charset=koi8-r>"), False)
off.write_html()
without = loaded()
on = Stats(None, 10, html_path={str(path)!r})
on.decision("http://a.test/", sniff(b"<meta charset=koi8-r>\\xf0"), True, b"<meta charset=koi8-r>\\xf0", "koi8-r")
on.write_html()
print(json.dumps({{"without": without, "with": loaded()}}))
""")
    assert found["without"] == []
    assert "scrapy_whatwg_encoding.report.render" in found["with"]
    assert "KOI8-R" in path.read_text("utf-8")


def test_tables_load_on_first_use():
    """Importing the package loads only the label table; a single-byte decode loads the single-byte
    indexes, a multi-byte decode its index and fixes but no encoder table (tests/oracles/test_decoder_fast_path
    checks the encoder tables of every multi-byte encoding)."""
    found = fresh("""
import json, sys
from scrapy_whatwg_encoding import ENCODINGS
from scrapy_whatwg_encoding.encoding import big5, indexes
tables = lambda: sorted(m.rpartition(".")[2] for m in sys.modules if m.startswith("scrapy_whatwg_encoding.encoding.tables."))
steps = [tables()]
ENCODINGS["KOI8-R"].decode(b"\\xf0")
steps.append(tables())
ENCODINGS["Big5"].decode(b"\\xa4@\\x81@")
steps.append(tables())
print(json.dumps({"steps": steps, "index": indexes.index.cache_info().currsize,
                  "encoder": big5._encoder_table.cache_info().currsize}))
""")
    assert found["steps"] == [["labels"], ["labels", "single_byte"], ["labels", "multi_byte_fixes", "single_byte"]]
    assert found["index"] == 1  # index Big5: the standard's step reads it for 0x81 0x40, an error for CPython
    assert found["encoder"] == 0
