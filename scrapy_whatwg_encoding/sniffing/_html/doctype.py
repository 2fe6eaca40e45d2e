"""DOCTYPE tokens (HTML §13.2.5.53-68) and the quirks-mode decision of the "initial" insertion mode
(§13.2.6.4.1). The parser step needs only "quirks or not": in quirks mode a ``table`` start tag
does not close an open ``p`` element, which changes the stack of open elements."""
from __future__ import annotations

import re

# Runs of whitespace, and a name: to the next whitespace (§13.2.5.54-56), at C speed (a DOCTYPE that
# never ends is a page long).
_WHITESPACE = re.compile("[\t\n\x0c\r ]*")
_NAME = re.compile("[^\t\n\x0c\r ]*")
# "The public identifier starts with" list of §13.2.6.4.1 (ASCII case-insensitive).
_QUIRKY_PREFIXES = (
    "+//silmaril//dtd html pro v0r11 19970101//",
    "-//as//dtd html 3.0 aswedit + extensions//",
    "-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
    "-//ietf//dtd html 2.0 level 1//",
    "-//ietf//dtd html 2.0 level 2//",
    "-//ietf//dtd html 2.0 strict level 1//",
    "-//ietf//dtd html 2.0 strict level 2//",
    "-//ietf//dtd html 2.0 strict//",
    "-//ietf//dtd html 2.0//",
    "-//ietf//dtd html 2.1e//",
    "-//ietf//dtd html 3.0//",
    "-//ietf//dtd html 3.2 final//",
    "-//ietf//dtd html 3.2//",
    "-//ietf//dtd html 3//",
    "-//ietf//dtd html level 0//",
    "-//ietf//dtd html level 1//",
    "-//ietf//dtd html level 2//",
    "-//ietf//dtd html level 3//",
    "-//ietf//dtd html strict level 0//",
    "-//ietf//dtd html strict level 1//",
    "-//ietf//dtd html strict level 2//",
    "-//ietf//dtd html strict level 3//",
    "-//ietf//dtd html strict//",
    "-//ietf//dtd html//",
    "-//metrius//dtd metrius presentational//",
    "-//microsoft//dtd internet explorer 2.0 html strict//",
    "-//microsoft//dtd internet explorer 2.0 html//",
    "-//microsoft//dtd internet explorer 2.0 tables//",
    "-//microsoft//dtd internet explorer 3.0 html strict//",
    "-//microsoft//dtd internet explorer 3.0 html//",
    "-//microsoft//dtd internet explorer 3.0 tables//",
    "-//netscape comm. corp.//dtd html//",
    "-//netscape comm. corp.//dtd strict html//",
    "-//o'reilly and associates//dtd html 2.0//",
    "-//o'reilly and associates//dtd html extended 1.0//",
    "-//o'reilly and associates//dtd html extended relaxed 1.0//",
    "-//sq//dtd html 2.0 hotmetal + extensions//",
    "-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
    "-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//",
    "-//spyglass//dtd html 2.0 extended//",
    "-//sun microsystems corp.//dtd hotjava html//",
    "-//sun microsystems corp.//dtd hotjava strict html//",
    "-//w3c//dtd html 3 1995-03-24//",
    "-//w3c//dtd html 3.2 draft//",
    "-//w3c//dtd html 3.2 final//",
    "-//w3c//dtd html 3.2//",
    "-//w3c//dtd html 3.2s draft//",
    "-//w3c//dtd html 4.0 frameset//",
    "-//w3c//dtd html 4.0 transitional//",
    "-//w3c//dtd html experimental 19960712//",
    "-//w3c//dtd html experimental 970421//",
    "-//w3c//dtd w3 html//",
    "-//w3o//dtd w3 html 3.0//",
    "-//webtechs//dtd mozilla html 2.0//",
    "-//webtechs//dtd mozilla html//",
)
_QUIRKY_IDS = ("-//w3o//dtd w3 html strict 3.0//en//", "-/w3c/dtd html 4.0 transitional/en", "html")
_QUIRKY_IF_NO_SYSTEM = ("-//w3c//dtd html 4.01 frameset//", "-//w3c//dtd html 4.01 transitional//")
_QUIRKY_SYSTEM = "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd"
_LONGEST_ID = max(map(len, (*_QUIRKY_PREFIXES, *_QUIRKY_IDS, *_QUIRKY_IF_NO_SYSTEM, _QUIRKY_SYSTEM)))
_LOWER = {c: c + 32 for c in range(0x41, 0x5B)}


def _skip(s: str, i: int) -> int:
    return _WHITESPACE.match(s, i).end()  # type: ignore[union-attr]  # (it always matches)


def _identifier(s: str, i: int) -> tuple[str | None, int, bool]:
    """A quoted identifier at s[i] (a quote): (value, next index, force-quirks)."""
    end = s.find(s[i], i + 1)
    if end < 0:  # ">" inside it: abrupt end, force-quirks (s ends at the ">")
        return None, len(s), True
    return s[i + 1:end], end + 1, False


def parse_doctype(s: str) -> tuple[str | None, str | None, str | None, bool]:
    """(name, public id, system id, force-quirks) of the DOCTYPE token whose text after "<!DOCTYPE"
    up to (excluding) its ">" is *s*; *s* is None at end of input (force-quirks)."""
    i = _skip(s, 0)
    if i >= len(s):
        return None, None, None, True  # missing name
    j = _NAME.match(s, i).end()  # type: ignore[union-attr]
    name = s[i:j].translate(_LOWER).replace("\x00", "\ufffd")
    i = _skip(s, j)
    if i >= len(s):
        return name, None, None, False
    keyword = s[i:i + 6].translate(_LOWER)
    if keyword not in ("public", "system"):
        return name, None, None, True  # bogus DOCTYPE
    i += 6
    public = system = None
    if keyword == "public":
        i = _skip(s, i)
        if i >= len(s) or s[i] not in "\"'":
            return name, None, None, True
        public, i, quirks = _identifier(s, i)
        if quirks:
            return name, public, None, True
        i = _skip(s, i)
        if i >= len(s):
            return name, public, None, False
        if s[i] not in "\"'":
            return name, public, None, True
    else:
        i = _skip(s, i)
        if i >= len(s) or s[i] not in "\"'":
            return name, None, None, True
    system, i, quirks = _identifier(s, i)
    # After the system identifier anything else is a bogus DOCTYPE without force-quirks.
    return name, public, system, quirks


def doctype_is_quirky(s: str | None, shortcut: bool = True) -> bool:
    """Whether the DOCTYPE whose inner text is *s* (None: end of input inside it) sets the
    Document to quirks mode. At C speed whatever its length: a name not of four characters is not
    "html" (*shortcut* ``False``: the plain twin, the token read whole), and of an identifier only
    the characters a comparison reads are lowercased."""
    if s is None:
        return True
    if shortcut:
        start = _skip(s, 0)
        if _NAME.match(s, start, start + 5).end() - start != 4:  # type: ignore[union-attr]  # (5: longer)
            return True
    name, public, system, force_quirks = parse_doctype(s)
    if force_quirks or name != "html":
        return True
    public_l = (public or "")[:_LONGEST_ID + 1].translate(_LOWER)  # (longer: equal to none)
    system_l = None if system is None else system[:_LONGEST_ID + 1].translate(_LOWER)
    if public is not None and (public_l in _QUIRKY_IDS or public_l.startswith(_QUIRKY_PREFIXES)):
        return True
    if system_l == _QUIRKY_SYSTEM:
        return True
    return system is None and public is not None and public_l.startswith(_QUIRKY_IF_NO_SYSTEM)
