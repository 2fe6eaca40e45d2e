"""``python -m scrapy_whatwg_encoding explain PATH_OR_URL`` / ``audit DIR``: see :mod:`.cli`."""
import sys

from .cli.main import main

sys.exit(main(prog="python -m scrapy_whatwg_encoding"))
