"""The default encoding for a locale: the HTML standard's table in §13.2.3.2 (step 9 of the
encoding sniffing algorithm, current version, docs/algorithm.rst), matched by BCP 47 language tag."""
from __future__ import annotations

from ..encoding import ENCODINGS, Encoding

# Language subtag → encoding (HTML §13.2.3.2, "suggested default encoding" table).
_BY_LANGUAGE = {
    "ar": "windows-1256", "az": "windows-1254", "ba": "windows-1251", "be": "windows-1251",
    "bg": "windows-1251", "cs": "windows-1250", "el": "ISO-8859-7", "et": "windows-1257",
    "fa": "windows-1256", "he": "windows-1255", "hr": "windows-1250", "hu": "ISO-8859-2",
    "ja": "Shift_JIS", "kk": "windows-1251", "ko": "EUC-KR", "ku": "windows-1254",
    "ky": "windows-1251", "lt": "windows-1257", "lv": "windows-1257", "mk": "windows-1251",
    "pl": "ISO-8859-2", "ru": "windows-1251", "sah": "windows-1251", "sk": "windows-1250",
    "sl": "ISO-8859-2", "sr": "windows-1251", "tg": "windows-1251", "th": "windows-874",
    "tr": "windows-1254", "tt": "windows-1251", "uk": "windows-1251", "vi": "windows-1258",
}
# Chinese: by script subtag, else by region subtag (zh-Hant / zh-HK / zh-MO / zh-TW → Big5).
_ZH_TRADITIONAL_REGIONS = frozenset({"hk", "mo", "tw"})
_OTHER = "windows-1252"  # "all other locales"
# ISO 639-1 two-letter language codes (and the withdrawn iw, in, ji, jw, mo, sh that old systems
# still send): a two-letter language subtag outside this set names no language.
_ISO_639_1 = frozenset("""
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy
    da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu
    hy hz ia id ie ig ii ik in io is it iu iw ja ji jv jw ka kg ki kj kk kl km kn ko kr ks ku kv
    kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mo mr ms mt my na nb nd ne ng nl nn no nr
    nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg sh si sk sl sm sn so sq
    sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi
    yo za zh zu""".split())


def _language(locale: str) -> str:
    """The primary language subtag of *locale* (lower-case; POSIX suffixes removed), or ``""``."""
    tag = str(locale).split(".", 1)[0].split("@", 1)[0].replace("_", "-").lower()
    return next((s for s in tag.split("-") if s), "")


def is_known_locale(locale: str | None) -> bool:
    """Whether *locale*'s language subtag names a language: an ISO 639-1 code, or three letters
    (ISO 639-2/3, not listed here, so all accepted). ``None`` and ``""`` (no locale) count as
    known; ``"klingon"``, ``"xx"`` or ``"C"`` do not (they still get the "all other locales" row).

    >>> is_known_locale("pt-BR"), is_known_locale("tlh"), is_known_locale("klingon")
    (True, True, False)
    """
    if not locale:
        return True
    language = _language(locale)
    return language in _ISO_639_1 or (len(language) == 3 and language.isascii() and language.isalpha())


def locale_encoding(locale: str | None) -> Encoding:
    """The default encoding for *locale*, a BCP 47 language tag such as ``"ja-JP"``,
    ``"zh-Hant-HK"`` or ``"ru"`` (POSIX forms like ``"ru_RU.UTF-8"`` are accepted too; case does
    not matter). ``None``, an empty or unknown tag gives the "all other locales" row,
    windows-1252. Never raises."""
    if not locale:
        return ENCODINGS[_OTHER]
    tag = str(locale).split(".", 1)[0].split("@", 1)[0].replace("_", "-").lower()
    subtags = [s for s in tag.split("-") if s]
    if not subtags:
        return ENCODINGS[_OTHER]
    language = subtags[0]
    if language == "zh":
        rest = subtags[1:]
        # Skip extended language subtags (3 letters, e.g. "zh-yue"): they say nothing of script.
        while rest and len(rest[0]) == 3 and rest[0].isalpha():
            rest = rest[1:]
        if rest and len(rest[0]) == 4 and rest[0].isalpha():  # script subtag
            if rest[0] == "hant":
                return ENCODINGS["Big5"]
            if rest[0] == "hans":
                return ENCODINGS["GBK"]
            rest = rest[1:]
        if rest and rest[0] in _ZH_TRADITIONAL_REGIONS:
            return ENCODINGS["Big5"]
        return ENCODINGS["GBK"]
    return ENCODINGS[_BY_LANGUAGE.get(language, _OTHER)]
