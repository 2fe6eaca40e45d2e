"""The default encoding for a locale: the HTML standard's table in §13.2.3.2 (step 9 of the
encoding sniffing algorithm, current version — see SPEC-NOTES), matched by BCP 47 language tag."""
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
