"""``python -m scrapy_whatwg_encoding explain PATH_OR_URL`` / ``audit DIR``: see :mod:`.cli`."""
import sys

from .cli.main import main

if __name__ == "__main__":  # importing this module runs nothing
    sys.exit(main(prog="python -m scrapy_whatwg_encoding"))
