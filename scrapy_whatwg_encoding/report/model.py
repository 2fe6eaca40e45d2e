"""``ReportData``: the bounded counters behind the HTML report of a crawl or an audit.

Everything is counted as pages arrive (no second pass): totals per decision source and per
encoding, one row of counters per host (at most ``max_hosts`` hosts; later hosts are pooled in
:data:`OTHER_HOSTS`), error counts, and at most ``examples`` example pages per *kind* (the source
of the decision) whose text differs from Scrapy's, each with the first differing passage. Nothing
else is kept per page. Imports nothing from Scrapy.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

OTHER_HOSTS = "(other hosts)"
CONTEXT = 40  # characters shown before the first difference, and 2 × after it
MAX_ERROR_KINDS = 50  # error classes given their own counters; later ones count as "other"
MAX_URL = 300  # characters of a URL kept in an example
_AUTHORITY = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://([^/?#\\]*)")


@dataclass(frozen=True, slots=True)
class Passage:
    """The first place where two texts differ: ``offset`` (characters) in both texts, and the
    passages around it, ``ours`` and ``theirs`` (``theirs`` is ``None`` when Scrapy made a binary
    response). ``start`` is the offset (characters) where both passages begin."""

    offset: int
    start: int
    ours: str
    theirs: str | None


def first_difference(ours: str, theirs: str | None, context: int = CONTEXT, skip: int = 0) -> Passage | None:
    """The :class:`Passage` around the first character where *ours* and *theirs* differ, at most
    *context* characters before it and ``2 * context`` from it on; ``None`` when they are equal.
    With *skip* (characters), *theirs* is the other text from character *skip* on, its first *skip*
    characters being known to be *ours*' (the caller decoded only the rest). Compared at C speed
    (:func:`common_prefix`).

    >>> first_difference("café au lait", "cafÃ© au lait", 3)
    Passage(offset=3, start=0, ours='café au l', theirs='cafÃ© au ')
    >>> first_difference("café au lait", "Ã© au lait", 3, skip=3)
    Passage(offset=3, start=0, ours='café au l', theirs='cafÃ© au ')
    >>> first_difference("same", "same") is None
    True
    """
    if theirs is None:
        return Passage(0, 0, ours[:3 * context], None)
    tail = ours[skip:] if skip else ours
    if tail == theirs:
        return None
    offset = skip + common_prefix(tail, theirs)
    start = max(offset - context, 0)
    end = offset + 2 * context
    before = ours[start:skip] if start < skip else ""
    return Passage(offset, start, ours[start:end], before + theirs[max(start - skip, 0):end - skip])


def common_prefix(a: str, b: str) -> int:
    """The length (characters) of the longest common prefix of *a* and *b*: slices compared with
    ``==`` (C speed) by bisection, so that a text of n characters costs O(n) copied characters and
    O(log n) comparisons, not a Python step per character.

    >>> common_prefix("abcd", "abXd"), common_prefix("ab", "abc"), common_prefix("", "a")
    (2, 2, 0)
    """
    lo, hi = 0, min(len(a), len(b))
    if a[:hi] == b[:hi]:
        return hi
    while hi - lo > 1:  # a[:lo] == b[:lo], and a[lo:hi] != b[lo:hi]
        mid = (lo + hi) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo


@dataclass(frozen=True, slots=True)
class Example:
    """One page whose text differs from Scrapy's: URL, our decision (``Decision.as_dict()``),
    Scrapy's encoding (a Python codec name, or ``None`` for a binary response) and the passage."""

    url: str
    decision: dict
    scrapy_encoding: str | None
    passage: Passage


@dataclass(slots=True)
class HostRow:
    """Counters of one host (or of :data:`OTHER_HOSTS`)."""

    pages: int = 0
    changed: int = 0
    suspect: int = 0
    errors: int = 0
    encodings: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)


def host_of(url: str) -> str:
    """The host of *url*; for a path (no host), its directory, or ``"(local)"``.

    >>> host_of("https://u:p@Example.COM:8080/a"), host_of("http://[::1]:80/"), host_of("files/Big5/a.html")
    ('example.com', '[::1]', 'files/Big5')
    >>> host_of("a.html"), host_of("file:///tmp/a.html")
    ('(local)', 'file:///tmp')
    """
    match = _AUTHORITY.match(url)  # cheaper than urlsplit: this runs for every page
    if match:
        host = match.group(1).rpartition("@")[2]
        host = host[:host.find("]") + 1] if host.startswith("[") else host.partition(":")[0]
        if host:
            return host.lower()
    directory = url.rpartition("/")[0]
    return directory or "(local)"


class ReportData:
    """Counters of one crawl or audit; *examples* (int ≥ 0): examples kept per kind, *max_hosts*
    (int ≥ 1): hosts counted on their own row.

    >>> data = ReportData(examples=1)
    >>> decision = {"encoding": "Shift_JIS", "confidence": "tentative", "source": "prescan",
    ...             "label": "sjis", "offset": 20}
    >>> data.wants_example("prescan")
    True
    >>> data.add("http://a.example/1", decision, "cp1252", True, first_difference("東", "\x93\x8c"))
    >>> data.wants_example("prescan"), data.pages, data.changed, data.hosts["a.example"].encodings
    (False, 1, 1, Counter({'Shift_JIS': 1}))
    """

    def __init__(self, examples: int = 20, max_hosts: int = 1000):
        self.max_examples = examples
        self.max_hosts = max_hosts
        self.pages = 0
        self.changed = 0  # text differs from Scrapy's
        self.unknown = 0  # not compared with Scrapy alone
        #: What was compared with Scrapy alone, for people (the crawl's sample; empty: every page).
        self.compared = ""
        self.suspect = 0
        self.sources: Counter[str] = Counter()
        self.encodings: Counter[str] = Counter()
        self.changed_sources: Counter[str] = Counter()
        self.unknown_sources: Counter[str] = Counter()
        self._guesses: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.hosts: dict[str, HostRow] = {}
        self.examples: dict[str, list[Example]] = {}
        self.error_examples: dict[str, list[str]] = {}

    def _host(self, url: str) -> HostRow:
        host = host_of(url)
        row = self.hosts.get(host)
        if row is None:
            if len(self.hosts) >= self.max_hosts:
                host = OTHER_HOSTS
            row = self.hosts.setdefault(host, HostRow())
        return row

    def wants_example(self, kind: str) -> bool:
        """Whether an example of *kind* (a decision source) would still be kept: compute the
        :class:`Passage` only then."""
        return len(self.examples.get(kind, ())) < self.max_examples

    def try_guess(self, kind: str) -> bool:
        """Whether to run Scrapy's costly statistical guess on a page of *kind* that the cheap
        comparison left unknown, to look for an example: at most ``2 * examples`` times per kind."""
        if not self.wants_example(kind) or self._guesses[kind] >= 2 * self.max_examples:
            return False
        self._guesses[kind] += 1
        return True

    def add(self, url: str, decision: dict, scrapy_encoding: str | None, changed: bool | None,
            passage: Passage | None = None, *, suspect: bool = False) -> None:
        """Count one decided page. *decision* is ``Decision.as_dict()``; *scrapy_encoding* the
        Python codec name Scrapy alone would use (``None``: binary response or unknown);
        *changed*: the texts differ (``None``: not compared); *passage*: the first difference,
        kept as an example if its kind still wants one; *suspect*: the page's label looks wrong."""
        source, name = decision["source"], decision["encoding"]
        self.pages += 1
        self.sources[source] += 1
        self.encodings[name] += 1
        row = self._host(url)
        row.pages += 1
        row.encodings[name] += 1
        row.sources[source] += 1
        if changed:
            self.changed += 1
            self.changed_sources[source] += 1
            row.changed += 1
        elif changed is None:
            self.unknown += 1
            self.unknown_sources[source] += 1
        if suspect:
            self.suspect += 1
            row.suspect += 1
        if passage is not None and self.wants_example(source):
            self.examples.setdefault(source, []).append(
                Example(url[:MAX_URL], dict(decision), scrapy_encoding, passage))

    def add_error(self, url: str, kind: str) -> None:
        """Count an error of class name *kind* while handling *url* (no decision was made)."""
        if kind not in self.errors and len(self.errors) >= MAX_ERROR_KINDS:
            kind = "other"
        self.errors[kind] += 1
        self._host(url).errors += 1
        urls = self.error_examples.setdefault(kind, [])
        if len(urls) < self.max_examples:
            urls.append(url[:MAX_URL])
