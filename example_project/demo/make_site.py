"""Regenerate the bundled demo site (``site/``): ``python -m demo.make_site`` from example_project/.

Each page is text in some language, encoded with Python's codecs (only characters whose bytes are
the same under the WHATWG decoder), and served with the ``Content-Type`` recorded in
``site/pages.json`` together with the encoding a browser picks (``expect``) and why (``note``).
"""
from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

SITE = Path(__file__).resolve().parent / "site"

TEXT = {
    "fr": "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au-delà des îles, "
          "près du mälström où brûlent les novæ. Prix : 12 € — « très cher ».",
    "ru": "Съешь же ещё этих мягких французских булок, да выпей чаю. В чащах юга жил бы цитрус? "
          "Да, но фальшивый экземпляр!",
    "ja": "いろはにほへと　ちりぬるを　わかよたれそ　つねならむ。日本語のページです。"
          "東京の天気は晴れ、気温は二十度でした。",
    "ko": "키스의 고유조건은 입술끼리 만나야 하고 특별한 기술은 필요치 않다. 한국어 웹 페이지입니다.",
    "zh-Hans": "我能吞下玻璃而不伤身体。这是一个没有声明编码的简体中文网页，内容是关于天气和城市的新闻。",
    "zh-Hant": "我能吞下玻璃而不傷身體。這是一個沒有聲明編碼的繁體中文網頁，內容是關於天氣和城市的新聞。",
    "el": "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Αυτή είναι μια ελληνική ιστοσελίδα για τον καιρό.",
    "cs": "Příliš žluťoučký kůň úpěl ďábelské ódy. Tohle je česká stránka o počasí a městech.",
    "pl": "Zażółć gęślą jaźń. Pchnąć w tę łódź jeża lub ośm skrzyń fig. Polska strona o pogodzie.",
    "ar": "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر ومغلف بجلد أزرق. صفحة عربية عن الطقس.",
    "he": "דג סקרן שט בים מאוכזב ולפתע מצא חברה. זהו דף בעברית על מזג האוויר.",
    "tr": "Pijamalı hasta yağız şoföre çabucak güvendi. Bu, hava durumu hakkında Türkçe bir sayfadır.",
    "th": "เป็นมนุษย์สุดประเสริฐเลิศคุณค่า กว่าบรรดาฝูงสัตว์เดรัจฉาน นี่คือหน้าเว็บภาษาไทยเกี่ยวกับสภาพอากาศ",
    "hi": "ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश करने वाले भगवान श्रीराम। "
          "यह मौसम के बारे में एक हिंदी पृष्ठ है।",
}


def html(lang: str, title: str, head: str = "", paragraphs: int = 3, extra: str = "") -> str:
    body = "\n".join(f"<p>{TEXT[lang]}</p>" for _ in range(paragraphs))
    return (f"<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n{head}<title>{title}</title>\n</head>\n"
            f"<body>\n<h1>{title}</h1>\n{body}\n{extra}</body>\n</html>\n")


def feed(lang: str, title: str, encoding_decl: str) -> str:
    items = "\n".join(f"<item><title>{title} {i}</title><description>{TEXT[lang]}</description></item>"
                      for i in range(3))
    return (f'<?xml version="1.0" encoding="{encoding_decl}"?>\n<rss version="2.0"><channel>\n'
            f"<title>{title}</title>\n{items}\n</channel></rss>\n")


def png() -> bytes:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\x00")) + chunk(b"IEND", b""))


LATE_PADDING = "<style>\n" + "".join(f"  .c{i} {{ margin: {i}px; padding: {i}px; }}\n" for i in range(50)) + "</style>\n"

# path: (bytes, Content-Type or None, expected WHATWG encoding, note)
PAGES = {
    "bom/utf-8-bom.html": (b"\xef\xbb\xbf" + html("fr", "BOM UTF-8 (l'en-tête dit windows-1252)").encode("utf-8"),
                           "text/html; charset=windows-1252", "UTF-8", "a BOM beats the Content-Type charset"),
    "bom/utf-16le-bom.html": (b"\xff\xfe" + html("ja", "UTF-16LE の BOM").encode("utf-16-le"),
                              "text/html", "UTF-16LE", "UTF-16LE BOM"),
    "bom/utf-16be-bom.txt": (b"\xfe\xff" + (TEXT["ru"] + "\n").encode("utf-16-be"),
                             "text/plain", "UTF-16BE", "UTF-16BE BOM on plain text"),
    "bom/utf-32le-lookalike.html": (b"\xff\xfe\x00\x00" + html("fr", "FF FE 00 00").encode("utf-16-le"),
                                    "text/html", "UTF-16LE",
                                    "FF FE 00 00 is a UTF-16LE BOM then U+0000 (w3lib would say UTF-32LE)"),
    "bom/no-content-type-utf-16le": (b"\xff\xfe" + html("ru", "UTF-16LE без Content-Type").encode("utf-16-le"),
                                          None, None,
                                          "no Content-Type: Scrapy makes a binary Response, and it stays one"),
    "header/koi8-r.html": (html("ru", "KOI8-R из заголовка").encode("koi8-r"),
                           "text/html; charset=koi8-r", "KOI8-R", "Content-Type charset"),
    "header/beats-meta.html": (html("ru", "Заголовок важнее meta", '<meta charset="utf-8">\n').encode("cp1251"),
                               "text/html; charset=windows-1251", "windows-1251",
                               "the transport charset beats a <meta>"),
    "header/gb2312-label.html": (html("zh-Hans", "标签 gb2312 即 GBK").encode("gbk"),
                                 "text/html; charset=gb2312", "GBK", "label gb2312 gets the encoding GBK"),
    "meta/shift_jis.html": (html("ja", "meta charset は Shift_JIS", '<meta charset="shift_jis">\n').encode("shift_jis"),
                            "text/html", "Shift_JIS", "<meta charset> found by the prescan"),
    "meta/http-equiv-euc-kr.html": (html("ko", "http-equiv 로 EUC-KR",
                                         '<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">\n'
                                         ).encode("euc-kr"),
                                    "text/html", "EUC-KR", "<meta http-equiv=Content-Type> found by the prescan"),
    "meta/iso-8859-9-label.html": (html("tr", "iso-8859-9 etiketi windows-1254 demektir",
                                        '<meta charset="iso-8859-9">\n').encode("cp1254"),
                                   "text/html", "windows-1254", "label iso-8859-9 gets the encoding windows-1254"),
    "xml/feed-iso-8859-7.xml": (feed("el", "Ροή ISO-8859-7", "ISO-8859-7").encode("iso-8859-7"),
                                "application/rss+xml", "ISO-8859-7", "XML declaration of a feed"),
    "xml/feed-served-as-html.xml": (feed("cs", "Zdroj windows-1250", "windows-1250").encode("cp1250"),
                                    "text/html", "windows-1250",
                                    "served as text/html: the prescan falls back to get an XML encoding"),
    "xml/utf-16le-no-bom.xml": (feed("he", "UTF-16 ללא BOM", "UTF-16").encode("utf-16-le"),
                                "application/xml", "UTF-16LE", "UTF-16 XML declaration without a BOM"),
    "late/late-meta.html": (html("ru", "Поздний meta", LATE_PADDING + '<meta charset="koi8-r">\n').encode("koi8-r"),
                            "text/html", "KOI8-R",
                            "the <meta> starts after byte 1024: the prescan misses it, the parser finds it"),
    "unlabeled/zh-hans-gbk.html": (html("zh-Hans", "无标签的 GBK 页面", paragraphs=6).encode("gbk"),
                                   "text/html", "GBK", "no label: autodetection"),
    "unlabeled/zh-hant-big5.html": (html("zh-Hant", "無標籤的 Big5 網頁", paragraphs=6).encode("big5"),
                                    "text/html", "Big5", "no label: autodetection"),
    "unlabeled/ja-euc-jp.html": (html("ja", "ラベルのない EUC-JP", paragraphs=6).encode("euc-jp"),
                                 "text/html", "EUC-JP", "no label: autodetection"),
    "unlabeled/ko-euc-kr.html": (html("ko", "레이블 없는 EUC-KR", paragraphs=6).encode("euc-kr"),
                                 "text/html", "EUC-KR", "no label: autodetection"),
    "unlabeled/ru-windows-1251.html": (html("ru", "Без метки: windows-1251", paragraphs=6).encode("cp1251"),
                                       "text/html", "windows-1251", "no label: autodetection"),
    "unlabeled/ar-windows-1256.html": (html("ar", "بدون ترميز معلن", paragraphs=6).encode("cp1256"),
                                       "text/html", "windows-1256", "no label: autodetection"),
    "unlabeled/pl-iso-8859-2.html": (html("pl", "Bez etykiety: ISO-8859-2", paragraphs=6).encode("iso-8859-2"),
                                     "text/html", "ISO-8859-2", "no label: autodetection"),
    "unlabeled/fr-windows-1252.html": (html("fr", "Sans étiquette : windows-1252", paragraphs=6).encode("cp1252"),
                                       "text/html", "windows-1252", "no label: autodetection"),
    "unlabeled/hi-utf-8.html": (html("hi", "बिना लेबल का UTF-8", paragraphs=6).encode("utf-8"),
                                "text/html", "UTF-8", "no label: valid UTF-8 is detected"),
    "unlabeled/th-windows-874.html": (html("th", "ไม่มีป้ายกำกับ windows-874", paragraphs=6).encode("cp874"),
                                      "text/html", "windows-874", "no label: autodetection"),
    "unlabeled/he-windows-1255.txt": (((TEXT["he"] + "\n") * 6).encode("cp1255"),
                                      "text/plain", "windows-1255", "plain text: no prescan, autodetection"),
    "form/shift_jis-form.html": (html("ja", "検索フォーム", '<meta charset="shift_jis">\n', paragraphs=1,
                                      extra='<form action="/echo" method="get"><input name="q" value="東京">'
                                            '<input type="submit"></form>\n'
                                            '<a id="query" href="/echo?q=東京&amp;snow=&#9731;">東京 &#9731;</a>\n'
                                      ).encode("shift_jis"),
                                 "text/html", "Shift_JIS",
                                 "forms and links encode their queries in Shift_JIS (☃ becomes &#9731;)"),
    "binary/pixel.png": (png(), "image/png", None, "not a document: passes untouched"),
}


def main() -> None:
    described = {}
    for path, (data, content_type, expect, note) in PAGES.items():
        target = SITE / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        described[path] = {"content_type": content_type, "expect": expect, "note": note}
    (SITE / "pages.json").write_text(json.dumps(described, indent=1, ensure_ascii=False) + "\n", "utf-8")


if __name__ == "__main__":
    main()
