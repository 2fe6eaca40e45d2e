"""``WHATWG_ENCODING_REMEMBER``: a per-host *likely encoding* (HTML sniffing step 7).

The last encoding a host *declared* (sources ``bom``, ``transport``, ``prescan``,
``xml-declaration``, ``parser``) is offered as the likely encoding for that host's later pages that
declare nothing. UTF-16BE/LE and replacement are not remembered (a likely encoding applies to pages
without a BOM or label, which are not UTF-16). With ``JOBDIR`` set, the table is loaded when the
spider opens and saved when it closes, so a resumed crawl remembers.
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from urllib.parse import urlsplit

from ..encoding import get_encoding

logger = logging.getLogger(__name__)

DECLARED_SOURCES = frozenset({"bom", "transport", "prescan", "xml-declaration", "parser"})
_NOT_LIKELY = frozenset({"UTF-16BE", "UTF-16LE", "replacement"})
FILE_NAME = "whatwg_encoding_memory.json"


def host_of(url: str) -> str:
    """The URL's host (lower-case; port included so that two local servers stay apart)."""
    return urlsplit(url).netloc.lower()


class SiteMemory:
    """Host → WHATWG encoding name. ``path`` (optional) is the JSON file in the job directory."""

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = Path(path) if path else None
        self.hosts: dict[str, str] = {}

    @classmethod
    def in_job_dir(cls, job_dir: str | None) -> SiteMemory:
        return cls(Path(job_dir) / FILE_NAME if job_dir else None)

    def likely(self, url: str) -> str | None:
        """The encoding name last declared by *url*'s host, or ``None``."""
        return self.hosts.get(host_of(url)) if self.hosts else None

    def learn(self, url: str, decision) -> None:
        """Remember *decision* (a ``Decision``) if its source is a declaration."""
        if decision.source in DECLARED_SOURCES and decision.encoding.name not in _NOT_LIKELY:
            self.hosts[host_of(url)] = decision.encoding.name

    def load(self) -> None:
        if self.path is None or not self.path.exists():
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            for host, label in data.get("hosts", {}).items():
                encoding = get_encoding(label) if isinstance(label, str) else None
                if encoding is not None:
                    self.hosts[str(host)] = encoding.name
        except (OSError, ValueError, AttributeError) as exc:
            logger.warning("Could not read %s: %s", self.path, exc)

    def save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"hosts": self.hosts}, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path)
