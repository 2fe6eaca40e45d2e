"""Names a page long (issue 37 item 1): a DOCTYPE that never ends, a tag name that runs to the last
tag. The quirks check at C speed whatever the DOCTYPE's length, against its plain twin (the token
read whole) and the name read character by character (§13.2.5.54-56); a long tag name lowercased
with ``str.lower`` where that gives what the tokenizer gives (§13.2.5.8: ASCII upper alphas
lowercased, NUL U+FFFD, nothing else). And text that is a page of references, classified at C speed.""" 
from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from scrapy_whatwg_encoding.sniffing._html import doctype, tokenizer


def _plain_name(s: str) -> tuple[str | None, int]:
    """The DOCTYPE name character by character: whitespace skipped, then the name to the next
    whitespace, ASCII upper alphas lowercased and NUL U+FFFD; ``None`` where the text ends first."""
    i = 0
    while i < len(s) and s[i] in "\t\n\x0c\r ":
        i += 1
    if i >= len(s):
        return None, i
    j = i
    while j < len(s) and s[j] not in "\t\n\x0c\r ":
        j += 1
    name = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s[i:j])
    return name.replace("\x00", "\ufffd"), j


_IDS = [doctype._QUIRKY_PREFIXES[0], doctype._QUIRKY_IDS[0], doctype._QUIRKY_IF_NO_SYSTEM[0], doctype._QUIRKY_SYSTEM,
        "-//W3C//DTD HTML 4.0 Transitional//EN", "-//W3C//DTD XHTML 1.0 Strict//EN"]
_PIECES = st.lists(st.sampled_from(["\t", "\n", "\x0c", "\r", " ", "html", "HTML", "htm", "x", "\x00", "\u00c0", "PUBLIC",
                                    "system", '"', "'", *_IDS, "x" * doctype._LONGEST_ID]), max_size=12).map("".join)


@given(_PIECES)
@example("\x0chtml\x0c")
@example(' html PUBLIC "' + doctype._QUIRKY_IDS[0] + '"')
@example(' html PUBLIC "' + doctype._QUIRKY_IDS[0] + 'x"')  # one character longer: no id
@example(' html PUBLIC "' + doctype._QUIRKY_IF_NO_SYSTEM[0] + "x" * doctype._LONGEST_ID + '"')
@example(' html SYSTEM "' + doctype._QUIRKY_SYSTEM.upper() + '"')
@example(' html SYSTEM "' + doctype._QUIRKY_SYSTEM + 'x"')
@example("\x00\x00\x00\x00")
def test_quirks_as_with_the_token_read_whole(s):
    name, end = _plain_name(s)
    assert doctype.parse_doctype(s)[0] == name
    if name is not None and not s[end:].strip("\t\n\x0c\r "):
        assert doctype.parse_doctype(s) == (name, None, None, False)
    assert doctype.doctype_is_quirky(s) == doctype.doctype_is_quirky(s, shortcut=False)


def test_a_doctype_of_a_page_is_quirky():
    long = "<!DOCTYPE\u201a<\x1b$B" * 4000
    assert doctype.doctype_is_quirky(" " + long) and doctype.doctype_is_quirky(" " + long, shortcut=False)
    assert not doctype.doctype_is_quirky(' html PUBLIC "' + long + '"')
    assert doctype.doctype_is_quirky(' html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//' + long + '"')  # a prefix
    assert not doctype.doctype_is_quirky(" HtMl")
    assert not doctype.doctype_is_quirky(' html SYSTEM "' + long + '"')


def _tokenizer_name(raw: str) -> str:
    return "".join("\ufffd" if c == "\x00" else chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in raw)


_LONG = st.text(min_size=tokenizer._LONG_NAME - 2, max_size=3 * tokenizer._LONG_NAME)


@given(st.one_of(st.text(), _LONG, st.builds(lambda a, b: a * 70 + b, st.sampled_from(["A", "x", "\x00", "\u3042"]), st.text())))
@example("A" * 70 + "\u00c0")  # a non-ASCII capital: str.lower changes it
@example("H" * 70 + "\u0130")  # İ: lowercases to two characters
@example("x" * 70 + "\u212a")  # the Kelvin sign: lowercases to an ASCII "k"
@example("X" * 70 + "\ud800")  # a lone surrogate
@example("\x00<X\ufeff\u3042<?xml" * 20)
def test_tag_name_as_the_tokenizer_builds_it(raw):
    assert tokenizer.tag_name(raw) == _tokenizer_name(raw)


def _classify_plain(segment: str) -> tuple[bool, bool, bool]:
    """classify_text's plain twin: every reference to whitespace decoded to a space first."""
    decoded = tokenizer._WS_REFERENCE.sub(" ", segment)
    nul = decoded.count("\x00")
    if any(c not in "\t\n\x0c\r \x00" for c in decoded):
        return True, nul > 0, True
    return len(decoded) > nul, nul > 0, False


_TEXT = st.lists(st.sampled_from(["&#32;", "&#x20", "&#X0a;", "&#0009", "&#10", "&#100;", "&#x2", "&#x20a", "&Tab;",
                                  "&NewLine;", "&tab;", "&", "&&", "#", ";", "x", " ", "\n", "\x0c", "\t", "\r", "\x00", "&#", "&#13;;"]),
                 max_size=12).map("".join)


@given(_TEXT)
@example("&#" * 40 + "x")  # a page of "&#": the first "&" is another character
@example("&#32;" * 5 + "\x00")
@example("&Tab;&#9;" * 4000)  # hunted (issue 37): references to whitespace only, each replaced (4.5 ms at 64 KiB)
def test_text_classified_as_with_its_references_decoded(segment):
    """Text between tags (issue 37 item 1: a page of "&#" was one decoding pass per scan): the
    classification of one match up to the first other character equals the plain decoding's."""
    assert tokenizer.classify_text("<" + segment + "<", 1, len(segment) + 1) == _classify_plain(segment)
