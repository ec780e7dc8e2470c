"""The differential cases: exact HTTP header lines + body bytes + host, generated deterministically.

Each :class:`Case` is one page served by :mod:`server` and loaded by Chromium. The texts are short
paragraphs written for this suite (no third-party text), one per language, encoded into the legacy
encodings that language used on the web. Groups (the ``group`` field):

- ``bom``: UTF-8/UTF-16 BOMs beating header and meta; UTF-32 BOMs the web does not know.
- ``header``: Content-Type forms: quotes, whitespace, case, duplicate ``charset`` parameters, several
  Content-Type lines, comma-joined values, invalid labels.
- ``meta``: every meta form (charset, http-equiv + content, quoting, attribute order and duplicates,
  metas hidden in other tags' attributes, in script/title/style text, after comments).
- ``boundary``: a meta starting just before/after byte 1024, with and without the head still open.
- ``late``: metas beyond 1024 bytes in the head (after a long comment/script/style/title) and in the body.
- ``conflict``: header vs meta vs BOM vs XML declaration.
- ``labels``: replacement labels, x-user-defined, UTF-16 labels in meta, aliases.
- ``encoding``: each of the 40 WHATWG encodings declared at least once (header or meta).
- ``xml``: XML declarations.
- ``undeclared``: nothing declared; pages in 15 languages/legacy encodings from country-TLD hosts.

``declared`` is False when Chromium sees no usable declaration (then it runs its detector and the
golden records the detector's guess); for those the mojifix test checks the *true* text instead.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import endec

# ---------------------------------------------------------------------------------------------------
# Texts (written for this suite). Each language's paragraph is plain prose in the script the legacy
# encodings below can represent.

TEXTS: dict[str, str] = {
    "ja": "今日は朝から雨が降っていたので、駅まで歩くのをやめてバスに乗りました。"
    "窓の外の桜はもう散り始めています。"
    "午後は図書館で古い地図を眺めて、静かな時間を過ごしました。",
    "zh-CN": "今天早上下了一场小雨，我在家里读了一本关于古代城市的书。下午雨停了，我们打算去公园散步，"
    "顺便看看湖边新开的茶馆。",
    "zh-TW": "我們在山上的小屋住了三天，每天早上都能看到雲海，晚上則圍著火爐聊天。離開那天，"
    "主人送給我們一包自己種的烏龍茶。",
    "ko": "어제 저녁에 친구와 함께 시장에 가서 떡볶이를 먹고 오래된 책방을 구경했습니다. "
    "주인 할아버지는 우리에게 옛날 시집 한 권을 싸게 주셨습니다.",
    "ru": "Вчера вечером мы долго гуляли по набережной, а потом пили чай с вареньем у бабушки. "
    "Она рассказывала, как в молодости работала на почте в маленьком городе.",
    "uk": "Навесні ми посадили в саду яблуню, і тепер щоранку їжачок приходить пити воду з миски. "
    "Ґанок ми пофарбували в жовтий колір, бо так захотіла донька.",
    "el": "Το καλοκαίρι περάσαμε δύο εβδομάδες σε ένα μικρό νησί με γαλάζια νερά. Κάθε βράδυ τρώγαμε "
    "ψάρι στην ταβέρνα του λιμανιού και μετρούσαμε τα αστέρια.",
    "tr": "Dün akşam arkadaşlarımla sahilde uzun bir yürüyüş yaptık, çay içip güneşin batışını izledik. "
    "Dönüşte İstanbul'un ışıkları denizde titriyordu.",
    "he": "אתמול בערב הלכנו לשוק ברחוב הראשי וקנינו פירות טריים ולחם חם מהמאפייה. "
    "בדרך הביתה ישבנו על ספסל ליד המזרקה.",
    "ar": "ذهبنا صباح اليوم إلى المكتبة العامة وقرأنا كتابا قديما عن تاريخ المدينة وأسواقها. "
    "ثم شربنا القهوة في مقهى صغير قرب الميناء.",
    "th": "เมื่อวานนี้เราไปเที่ยวตลาดน้ำและกินก๋วยเตี๋ยวเรือที่อร่อยมาก ตอนเย็นฝนตกหนักจึงต้องนั่งรอในร้านกาแฟริมคลอง",
    "vi": "Hôm qua chúng tôi đi chợ sớm để mua rau và cá tươi. Buổi chiều cả nhà ngồi uống trà "
    "dưới gốc cây và kể chuyện ngày xưa.",
    "pl": "Wczoraj wieczorem poszliśmy nad jezioro, gdzie łabędzie pływały wśród żółtych liści. "
    "Później zjedliśmy pierogi w małej gospodzie przy drodze.",
    "cs": "Včera večer jsme šli na procházku kolem řeky a viděli jsme čápy na střeše staré "
    "stodoly. Domů jsme se vrátili až za tmy.",
    "de": "Gestern Abend saßen wir im Garten, tranken Apfelschorle und hörten den Vögeln zu. "
    "Später erzählte Großmutter von ihrer Reise über die Alpen.",
    "fr": "Hier soir, nous avons mangé une crêpe au café près de la gare, sous une pluie fine. "
    "Le serveur, très aimable, nous a offert un thé à la fin du repas : cœur sur la main, 5 €.",
    "lt": "Vakar vakare ėjome pasivaikščioti prie ežero, kur plaukiojo gulbės. "
    "Grįžę namo virėme žuvienę ir klausėmės senų dainų.",
    "lv": "Rīt mēs brauksim uz jūru, jo laiks būs silts un saulains. Vecmāmiņa jau sagatavoja ķiršu pīrāgu.",
    "eo": "Ĉiuj homoj ŝatas ĝardenojn; hieraŭ ni ĉerpis akvon el la puto kaj manĝis ĉerizojn.",
    "is": "Við fórum til Þórshafnar í gær og sáum marga fugla við ströndina. Það var kalt en fallegt.",
    "cy": "Mae'r ŵyl yn y dref yfory, ac mae pob gŵr a gwraig yn dod â bwyd i'w rannu ar y sgwâr.",
    "ro": "Ieri seară am mâncat plăcintă cu brânză în grădină, lângă ștrandul vechi al orașului. "
    "Țăranii vindeau fructe pe marginea drumului.",
    "en": "Yesterday evening we walked along the river and watched the boats come home.",
}

#: Country-code TLD each language's undeclared pages are served from.
TLD: dict[str, str] = {
    "ja": "jp", "zh-CN": "cn", "zh-TW": "tw", "ko": "kr", "ru": "ru", "uk": "ua", "el": "gr",
    "tr": "tr", "he": "il", "ar": "eg", "th": "th", "vi": "vn", "pl": "pl", "cs": "cz",
    "de": "de", "fr": "fr", "lt": "lt", "lv": "lv", "eo": "org", "is": "is", "cy": "uk", "ro": "ro",
    "en": "com",
}  # fmt: skip

#: For each of the 40 WHATWG encodings: a language whose paragraph it can represent.
ENCODING_LANG: dict[str, str] = {
    "UTF-8": "ja", "IBM866": "ru", "ISO-8859-2": "cs", "ISO-8859-3": "eo", "ISO-8859-4": "lv",
    "ISO-8859-5": "ru", "ISO-8859-6": "ar", "ISO-8859-7": "el", "ISO-8859-8": "he",
    "ISO-8859-8-I": "he", "ISO-8859-10": "is", "ISO-8859-13": "lt", "ISO-8859-14": "cy",
    "ISO-8859-15": "fr", "ISO-8859-16": "ro", "KOI8-R": "ru", "KOI8-U": "uk", "macintosh": "de",
    "windows-874": "th", "windows-1250": "pl", "windows-1251": "ru", "windows-1252": "fr",
    "windows-1253": "el", "windows-1254": "tr", "windows-1255": "he", "windows-1256": "ar",
    "windows-1257": "lt", "windows-1258": "vi", "x-mac-cyrillic": "uk", "GBK": "zh-CN",
    "gb18030": "zh-CN", "Big5": "zh-TW", "EUC-JP": "ja", "ISO-2022-JP": "ja", "Shift_JIS": "ja",
    "EUC-KR": "ko", "replacement": "en", "UTF-16BE": "ko", "UTF-16LE": "el",
    "x-user-defined": "en",
}  # fmt: skip

#: Languages whose undeclared pages are generated, with the legacy encodings used for them.
UNDECLARED: tuple[tuple[str, str], ...] = (
    ("ja", "Shift_JIS"), ("ja", "EUC-JP"), ("ja", "ISO-2022-JP"), ("zh-CN", "GBK"), ("zh-CN", "gb18030"),
    ("zh-TW", "Big5"), ("ko", "EUC-KR"), ("ru", "windows-1251"), ("ru", "KOI8-R"), ("ru", "IBM866"),
    ("uk", "KOI8-U"), ("uk", "windows-1251"), ("el", "windows-1253"), ("el", "ISO-8859-7"),
    ("tr", "windows-1254"), ("he", "windows-1255"), ("ar", "windows-1256"), ("th", "windows-874"),
    ("vi", "windows-1258"), ("pl", "windows-1250"), ("pl", "ISO-8859-2"), ("cs", "windows-1250"),
    ("de", "windows-1252"), ("fr", "windows-1252"), ("lt", "windows-1257"),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Case:
    """One page: what the server sends, where from, and what its author meant."""

    id: str
    group: str
    header_lines: tuple[bytes, ...]
    body: bytes
    host: str
    true_html: str
    declared: bool
    expect: str = ""
    note: str = ""

    @property
    def path(self) -> str:
        return "/case/" + self.id

    def url(self, port: int) -> str:
        return f"http://{self.host}:{port}{self.path}"

    @property
    def content_type_values(self) -> list[str]:
        """Values of the ``Content-Type`` header lines, in order (bytes as Latin-1, outer whitespace
        stripped, as an HTTP library hands them over)."""
        out = []
        for line in self.header_lines:
            name, sep, value = line.partition(b":")
            if sep and name.strip().lower() == b"content-type":
                out.append(value.decode("latin-1").strip(" \t"))
        return out


# ---------------------------------------------------------------------------------------------------
# Encoding helpers (encoding_rs through endec: the same encoders browsers use)


def encode(text: str, encoding: str) -> bytes:
    """``text`` in ``encoding`` (WHATWG name), strictly; UTF-16 and x-user-defined done here."""
    if encoding == "UTF-16LE":
        return text.encode("utf-16-le")
    if encoding == "UTF-16BE":
        return text.encode("utf-16-be")
    if encoding == "x-user-defined":
        return bytes(ord(c) - 0xF700 if 0xF780 <= ord(c) <= 0xF7FF else ord(c) for c in text)
    if encoding == "replacement":
        return text.encode("utf-8")
    return endec.encode(text, encoding)


def representable(text: str, encoding: str) -> str:
    """``text`` rewritten so that ``encoding`` can encode it (windows-1258 needs combining tone marks).

    Characters the encoding lacks are decomposed (NFD) and greedily recomposed only as far as the
    encoding has the precomposed form; this is how Vietnamese was written in windows-1258.
    """
    out: list[str] = []
    for ch in text:
        try:
            encode(ch, encoding)
            out.append(ch)
            continue
        except Exception:
            pass
        parts = unicodedata.normalize("NFD", ch)
        base, marks = parts[0], list(parts[1:])
        progress = True
        while progress:
            progress = False
            for j, mark in enumerate(marks):
                trial = unicodedata.normalize("NFC", base + mark)
                if len(trial) == 1 and _can(trial, encoding):
                    base = trial
                    del marks[j]
                    progress = True
                    break
        out.append(base + "".join(marks))
    result = "".join(out)
    encode(result, encoding)  # raises if still not representable: fix the text, not the encoder
    return result


def _can(text: str, encoding: str) -> bool:
    try:
        encode(text, encoding)
    except Exception:
        return False
    return True


def text_for(lang: str, encoding: str) -> str:
    """The paragraph of ``lang`` as ``encoding`` can carry it."""
    return representable(TEXTS[lang], encoding)


# ---------------------------------------------------------------------------------------------------
# Page builders

CT_HTML = b"Content-Type: text/html"

#: The Greek paragraph in windows-1253. Chromium's detector reports such pages as ISO-8859-7, so a
#: result of windows-1253 proves that a declaration was honoured (used by the header/late/xml groups).
EL = text_for("el", "windows-1253")


def ct(value: bytes) -> tuple[bytes, ...]:
    return (b"Content-Type: " + value,)


def page(para: str, head: str = "", *, title: str = "Case", doctype: bool = True, pre_head: str = "") -> str:
    """A small complete document with ``head`` markup inside <head> and ``para`` in the body."""
    dt = "<!DOCTYPE html>\n" if doctype else ""
    return (
        f"{pre_head}{dt}<html><head>{head}<title>{title}</title></head>\n"
        f'<body><h1>{title}</h1><p id="t">{para}</p></body></html>\n'
    )


#: ASCII filler: a comment long enough to push what follows beyond the 1024-byte prescan window.
LONG_COMMENT = (
    "<!-- " + "This comment is only here to push the declaration past the prescan window. " * 16 + "-->"
)
LONG_SCRIPT = "<script>" + "var filler = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];\n" * 30 + "</script>"
LONG_STYLE = "<style>" + "p.filler { color: #333; margin: 0 0 1em 0; }\n" * 30 + "</style>"
LONG_TITLE = "<title>" + "A very long title that keeps going " * 36 + "</title>"


def _mk(
    cid: str,
    group: str,
    html: str,
    encoding: str,
    *,
    headers: tuple[bytes, ...] = (CT_HTML,),
    host: str = "example.com",
    declared: bool = True,
    prefix: bytes = b"",
    expect: str | None = None,
    note: str = "",
) -> Case:
    """A case whose body is ``prefix`` + ``html`` encoded in ``encoding``.

    ``expect``: the encoding Chromium must use by the declared rules (defaults to ``encoding`` when
    ``declared``, empty when not); the golden test checks the recording against it.
    """
    if expect is None:
        expect = encoding if declared else ""
    return Case(cid, group, headers, prefix + encode(html, encoding), host, html, declared, expect, note)


# ---------------------------------------------------------------------------------------------------
# Groups


def _bom_cases() -> Iterator[Case]:
    ru = text_for("ru", "windows-1251")
    ko = TEXTS["ko"]
    yield _mk(
        "bom-utf8-vs-header-1251",
        "bom",
        page(ru),
        "UTF-8",
        prefix=b"\xef\xbb\xbf",
        headers=ct(b"text/html; charset=windows-1251"),
        note="UTF-8 BOM beats header",
    )
    yield _mk(
        "bom-utf8-vs-meta-sjis", "bom", page(ko, "<meta charset=shift_jis>"), "UTF-8", prefix=b"\xef\xbb\xbf"
    )
    yield _mk("bom-utf8-plain", "bom", page(TEXTS["ja"]), "UTF-8", prefix=b"\xef\xbb\xbf")
    yield _mk("bom-utf16le", "bom", page(ko), "UTF-16LE", prefix=b"\xff\xfe")
    yield _mk("bom-utf16be", "bom", page(ko), "UTF-16BE", prefix=b"\xfe\xff")
    yield _mk(
        "bom-utf16le-vs-header-utf8",
        "bom",
        page(TEXTS["el"]),
        "UTF-16LE",
        prefix=b"\xff\xfe",
        headers=ct(b"text/html; charset=utf-8"),
    )
    yield _mk(
        "bom-utf16be-vs-meta-utf8",
        "bom",
        page(TEXTS["he"], "<meta charset=utf-8>"),
        "UTF-16BE",
        prefix=b"\xfe\xff",
    )
    yield _mk(
        "bom-utf8-vs-header-utf16le",
        "bom",
        page(TEXTS["th"]),
        "UTF-8",
        prefix=b"\xef\xbb\xbf",
        headers=ct(b"text/html; charset=utf-16le"),
    )
    yield _mk(
        "bom-utf8-vs-xml-decl",
        "bom",
        '<?xml version="1.0" encoding="euc-kr"?>' + page(ko),
        "UTF-8",
        prefix=b"\xef\xbb\xbf",
    )
    # UTF-32LE BOM: starts with FF FE, so the web reads a UTF-16LE BOM followed by U+0000 ...
    html32 = page("Yesterday evening we walked along the river.")
    yield Case(
        "bom-utf32le",
        "bom",
        (CT_HTML,),
        b"\xff\xfe\x00\x00" + html32.encode("utf-32-le"),
        "example.com",
        html32,
        True,
        "UTF-16LE",
        "UTF-32LE BOM = UTF-16LE BOM + NUL to the web",
    )
    # UTF-32BE BOM: 00 00 FE FF is no BOM on the web; the page has no usable declaration.
    yield Case(
        "bom-utf32be",
        "bom",
        (CT_HTML,),
        b"\x00\x00\xfe\xff" + html32.encode("utf-32-be"),
        "example.com",
        html32,
        False,
        "",
        "UTF-32BE BOM is not a BOM on the web",
    )
    yield _mk(
        "bom-partial-utf8",
        "bom",
        page(TEXTS["de"]),
        "windows-1252",
        prefix=b"\xef\xbb",
        headers=ct(b"text/html; charset=windows-1252"),
        note="EF BB without BF is no BOM",
    )
    yield _mk(
        "bom-utf8-vs-header-replacement",
        "bom",
        page(TEXTS["uk"]),
        "UTF-8",
        prefix=b"\xef\xbb\xbf",
        headers=ct(b"text/html; charset=iso-2022-kr"),
    )
    yield _mk(
        "bom-utf16le-vs-header-x-user-defined",
        "bom",
        page(ko),
        "UTF-16LE",
        prefix=b"\xff\xfe",
        headers=ct(b"text/html; charset=x-user-defined"),
    )


def _header_cases() -> Iterator[Case]:
    html = page(EL)
    # (id suffix, header lines, declared?) -- the body is windows-1253 Greek in every case; Chromium's
    # detector labels that ISO-8859-7, so "windows-1253" in the result means the header was honoured
    forms: list[tuple[str, tuple[bytes, ...], bool]] = [
        ("plain", ct(b"text/html; charset=windows-1253"), True),
        ("no-space", ct(b"text/html;charset=windows-1253"), True),
        ("upper", ct(b"TEXT/HTML; CHARSET=WINDOWS-1253"), True),
        ("dquoted", ct(b'text/html; charset="windows-1253"'), True),
        ("squoted", ct(b"text/html; charset='windows-1253'"), False),
        ("space-before-eq", ct(b"text/html; charset =windows-1253"), False),
        ("space-after-eq", ct(b"text/html; charset= windows-1253"), True),
        ("trailing-semicolon", ct(b"text/html; charset=windows-1253;"), True),
        ("trailing-space", ct(b"text/html; charset=windows-1253   "), True),
        ("tab-sep", ct(b"text/html;\tcharset=windows-1253"), True),
        ("space-before-semicolon", ct(b"text/html ; charset=windows-1253"), True),
        ("other-params", ct(b"text/html; q=1; charset=windows-1253; format=flowed"), True),
        ("alias-cp1253", ct(b"text/html; charset=cp1253"), True),
        ("alias-x-cp1253", ct(b"text/html; charset=x-cp1253"), True),
        ("quoted-escape", ct(b'text/html; charset="windows\\-1253"'), True),
        ("quoted-junk-after", ct(b'text/html; charset="windows-1253"junk'), True),
        ("dup-param-first-wins", ct(b"text/html; charset=windows-1253; charset=koi8-r"), True),
        ("dup-param-invalid-first", ct(b"text/html; charset=bogus; charset=windows-1253"), False),
        ("empty-value", ct(b"text/html; charset="), False),
        ("invalid-label", ct(b"text/html; charset=win-1253"), False),
        ("utf32-label", ct(b"text/html; charset=utf-32"), False),
        (
            "two-lines-second-wins",
            (b"Content-Type: text/html; charset=koi8-r", b"Content-Type: text/html; charset=windows-1253"),
            True,
        ),
        (
            "two-lines-second-no-charset",
            (b"Content-Type: text/html; charset=windows-1253", b"Content-Type: text/html"),
            True,
        ),
        ("two-lines-star", (b"Content-Type: text/html; charset=windows-1253", b"Content-Type: */*"), True),
        ("comma-joined", ct(b"text/html; charset=koi8-r, text/html; charset=windows-1253"), True),
        ("comma-joined-no-charset", ct(b"text/html; charset=windows-1253, text/html"), True),
        ("lowercase-name", (b"content-type: text/html; charset=windows-1253",), True),
        ("upper-name-no-space", (b"CONTENT-TYPE:text/html; charset=windows-1253",), True),
        ("no-content-type-html", (), False),
        ("invalid-then-meta", ct(b"text/html; charset=bogus"), False),
        # Fetch's "extract a MIME type" over several values / comma-joined values
        (
            "plain-then-html",
            (b"Content-Type: text/plain;charset=windows-1253", b"Content-Type: text/html"),
            False,
        ),
        ("comma-second-invalid", ct(b"text/html;charset=windows-1253, text/html;charset=bogus"), False),
        (
            "two-lines-second-invalid",
            (b"Content-Type: text/html;charset=windows-1253", b"Content-Type: text/html;charset=bogus"),
            False,
        ),
        (
            "two-lines-second-empty-charset",
            (b"Content-Type: text/html;charset=windows-1253", b"Content-Type: text/html; charset="),
            True,
        ),
        (
            "two-lines-second-upper-essence",
            (b"Content-Type: text/html;charset=windows-1253", b"Content-Type: TEXT/HTML"),
            True,
        ),
        (
            "two-lines-second-empty",
            (b"Content-Type: text/html;charset=windows-1253", b"Content-Type: "),
            True,
        ),
        (
            "two-lines-second-garbage",
            (b"Content-Type: text/html;charset=windows-1253", b"Content-Type: garbage"),
            True,
        ),
        ("comma-garbage", ct(b"text/html;charset=windows-1253, garbage"), True),
        ("comma-trailing", ct(b"text/html;charset=windows-1253,"), True),
        ("comma-in-quotes", ct(b'text/html;x="a,b";charset=windows-1253'), True),
        ("semicolon-in-quotes", ct(b'text/html;x="a;charset=koi8-r";charset=windows-1253'), True),
        ("nbsp-after-value", ct(b"text/html;charset=windows-1253\xa0"), False),
        ("unterminated-quote", ct(b'text/html;charset="windows-1253'), True),
        ("space-then-semicolon", ct(b"text/html;charset=windows-1253 ;"), True),
        ("value-with-space-junk", ct(b"text/html;charset=windows-1253 junk"), False),
        ("mixed-case-param", ct(b"text/html; CharSet=windows-1253"), True),
        ("empty-param", ct(b"text/html;;charset=windows-1253"), True),
        ("valueless-param", ct(b"text/html;foo;charset=windows-1253"), True),
        ("tab-after-colon", (b"Content-Type:\ttext/html; charset=windows-1253",), True),
        ("spaces-around-value", (b"Content-Type:    text/html; charset=windows-1253  \t ",), True),
        ("space-before-colon", (b"Content-Type : text/html; charset=windows-1253",), True),
    ]
    for suffix, headers, declared in forms:
        yield _mk(
            f"header-{suffix}",
            "header",
            html,
            "windows-1253",
            headers=headers,
            host="example.com",
            declared=declared,
        )
    # the later value's first charset parameter wins (Fetch): KOI8-R mojibake
    yield _mk(
        "header-two-lines-dup-param",
        "header",
        html,
        "windows-1253",
        headers=(
            b"Content-Type: text/html; charset=windows-1253",
            b"Content-Type: text/html; charset=koi8-r; charset=windows-1253",
        ),
        expect="KOI8-R",
    )
    # the same header forms naming koi8-r for a windows-1251 body: honoured = mojibake (KOI8-R)
    ru = text_for("ru", "windows-1251")
    for suffix, value in (
        ("wrong-label", b"text/html; charset=koi8-r"),
        ("wrong-label-quoted", b'text/html; charset="KOI8-R"'),
    ):
        yield _mk(f"header-{suffix}", "header", page(ru), "windows-1251", headers=ct(value), expect="KOI8-R")
    # invalid header label, but a meta declares: the meta decides
    yield _mk(
        "header-invalid-meta-decides",
        "header",
        page(EL, "<meta charset=windows-1253>"),
        "windows-1253",
        headers=ct(b"text/html; charset=bogus"),
    )
    yield _mk(
        "header-empty-quoted-meta-decides",
        "header",
        page(EL, "<meta charset=windows-1253>"),
        "windows-1253",
        headers=ct(b'text/html; charset=""'),
    )


def _meta_cases() -> Iterator[Case]:
    el = text_for("el", "windows-1253")
    forms: list[tuple[str, str, bool]] = [
        ("charset-unquoted", "<meta charset=windows-1253>", True),
        ("charset-dquoted", '<meta charset="windows-1253">', True),
        ("charset-squoted", "<meta charset='windows-1253'>", True),
        ("charset-upper", "<META CHARSET=WINDOWS-1253>", True),
        ("charset-spaces-in-value", '<meta charset="  windows-1253 ">', True),
        ("charset-spaces-around-eq", "<meta charset = windows-1253>", True),
        ("charset-slash", "<meta/charset=windows-1253>", True),
        ("charset-formfeed", "<meta\x0ccharset=windows-1253>", True),
        ("charset-selfclose-in-value", "<meta charset=windows-1253/>", False),
        ("charset-selfclose-quoted", '<meta charset="windows-1253"/>', True),
        ("charset-alias", "<meta charset=cp1253>", True),
        ("charset-unterminated-quote", '<meta charset="windows-1253>', False),
        ("httpequiv", '<meta http-equiv="Content-Type" content="text/html; charset=windows-1253">', True),
        (
            "httpequiv-reversed",
            '<meta content="text/html; charset=windows-1253" http-equiv="content-type">',
            True,
        ),
        ("httpequiv-unquoted", "<meta http-equiv=content-type content=text/html;charset=windows-1253>", True),
        (
            "httpequiv-spaces",
            '<meta http-equiv="Content-Type" content="text/html; charset = windows-1253">',
            True,
        ),
        ("httpequiv-quoted-label", "<meta http-equiv=content-type content='charset=\"windows-1253\"'>", True),
        (
            "httpequiv-unbalanced-quote",
            "<meta http-equiv=content-type content='charset=\"windows-1253'>",
            False,
        ),
        (
            "httpequiv-foocharset",
            "<meta http-equiv=content-type content='text/html; foocharset=windows-1253'>",
            True,
        ),
        ("httpequiv-trailing", "<meta http-equiv=content-type content='charset=windows-1253;x=y'>", True),
        ("httpequiv-no-charset", "<meta http-equiv=content-type content='text/html'>", False),
        ("content-without-httpequiv", "<meta content='text/html; charset=windows-1253'>", False),
        ("httpequiv-refresh", "<meta http-equiv=refresh content='3600; charset=windows-1253'>", False),
        (
            "httpequiv-padded-value",
            '<meta http-equiv=" content-type " content="charset=windows-1253">',
            False,
        ),
        ("name-charset", "<meta name=charset content=windows-1253>", False),
        (
            "charset-and-content",
            "<meta charset=windows-1253 http-equiv=content-type content='charset=koi8-r'>",
            True,
        ),
        (
            "content-then-charset",
            "<meta http-equiv=content-type content='charset=koi8-r' charset=windows-1253>",
            True,
        ),
        ("dup-charset-valid-both", "<meta charset=koi8-r charset=windows-1253>", True),
        ("dup-charset-invalid-first", "<meta charset=bogus charset=windows-1253>", True),
        (
            "empty-charset-then-content",
            '<meta charset="" http-equiv=content-type content="charset=koi8-r"><meta charset=windows-1253>',
            True,
        ),
        ("invalid-then-valid", "<meta charset=bogus><meta charset=windows-1253>", True),
        ("first-valid-wins", "<meta charset=windows-1253><meta charset=koi8-r>", True),
        ("in-attribute", '<link rel=x title="<meta charset=koi8-r>"><meta charset=windows-1253>', True),
        ("in-attribute-only", '<link rel=x title="<meta charset=windows-1253>">', False),
        (
            "in-script-text",
            "<script>var s = '<meta charset=koi8-r>';</script><meta charset=windows-1253>",
            True,
        ),
        ("in-title-text", "<title><meta charset=koi8-r></title><meta charset=windows-1253>", True),
        ("in-style-text", "<style>/* <meta charset=koi8-r> */</style><meta charset=windows-1253>", True),
        ("in-noscript", "<noscript><meta charset=windows-1253></noscript>", True),
        ("after-comment", "<!-- <meta charset=koi8-r> --><meta charset=windows-1253>", True),
        ("after-bang-gt-comment", "<!-- x --!><meta charset=windows-1253><!-- -->", True),
        ("after-short-comment", "<!--><meta charset=windows-1253>", True),
        ("after-bogus-comment", "<!x></x><meta charset=windows-1253>", True),
        ("after-script", "<script>var a = 1 < 2;</script><meta charset=windows-1253>", True),
        ("after-doctype-and-comment", "<!--c--><meta charset=windows-1253>", True),
        ("nul-in-tagname", "<meta\x00charset=windows-1253>", False),
        ("metacharset-glued", "<metacharset=windows-1253>", False),
    ]
    for suffix, head, declared in forms:
        yield _mk(
            f"meta-{suffix}", "meta", page(el, head), "windows-1253", host="example.com", declared=declared
        )
    # meta in other positions
    ko = TEXTS["ko"]
    yield _mk("meta-in-body-early", "meta", f"<p>{ko}</p><meta charset=euc-kr>", "EUC-KR")
    yield _mk("meta-before-doctype", "meta", "<meta charset=euc-kr>" + page(ko), "EUC-KR")
    yield _mk("meta-no-html-head", "meta", f"<meta charset=euc-kr><p>{ko}", "EUC-KR")


def _boundary_cases() -> Iterator[Case]:
    meta = "<meta charset=windows-1253>"
    for off in (1020, 1022, 1023, 1024, 1025, 1030):
        # body already started (<p> at byte 0), ASCII padding, then the meta at byte ``off``
        pad = "<p>" + "x" * (off - 3)
        html = pad + meta + f"<p>{EL}</p>"
        yield _mk(
            f"boundary-body-text-{off}",
            "boundary",
            html,
            "windows-1253",
            declared=off < 1024,
            note=f"meta at byte {off} after body start",
        )
        pad = "<p>ok</p><!--" + "y" * (off - 9 - 7) + "-->"
        html = pad + meta + f"<p>{EL}</p>"
        yield _mk(f"boundary-body-comment-{off}", "boundary", html, "windows-1253", declared=off < 1024)
    for off in (1023, 1024, 1025):
        pad = "<title>t</title><!--" + "z" * (off - 16 - 7) + "-->"
        html = pad + meta + f"<p>{EL}</p>"
        yield _mk(f"boundary-head-{off}", "boundary", html, "windows-1253", note="still in head: honoured")
    # the meta tag itself straddles byte 1024 (starts at 1020)
    pad = "<p>" + "x" * (1020 - 3)
    yield _mk(
        "boundary-straddle-body",
        "boundary",
        pad + '<meta http-equiv=content-type content="charset=windows-1253">' + f"<p>{EL}</p>",
        "windows-1253",
    )
    # non-ASCII body text before the boundary
    pad = f"<p>{EL}</p><!--" + "y" * 600 + "-->"
    yield _mk("boundary-nonascii-before-early-meta", "boundary", pad + meta, "windows-1253")


def _late_cases() -> Iterator[Case]:
    m = "<meta charset=windows-1253>"
    heads = {
        "comment": LONG_COMMENT,
        "script": LONG_SCRIPT,
        "style": LONG_STYLE,
        "title": LONG_TITLE,
        "metas": '<meta name="keywords" content="filler, filler, filler">' * 25,
        "links": '<link rel="stylesheet" href="/filler.css">' * 30,
        "whitespace": "\n" * 1200,
        "huge-comment": "<!--" + "filler " * 30000 + "-->",
        "huge-script": "<script>" + "var a = 1;\n" * 20000 + "</script>",
        "noscript-text": "<noscript>" + "filler " * 200 + "</noscript>",
        "object": "<object data=x>" + "filler " * 200 + "</object>",
        "base": '<base href="/">' * 80,
        "doctype-html-head": "<!-- x -->" + LONG_COMMENT,
    }
    for name, filler in heads.items():
        yield _mk(f"late-head-{name}", "late", page(EL, filler + m), "windows-1253")
    yield _mk(
        "late-head-httpequiv",
        "late",
        page(EL, LONG_COMMENT + '<meta http-equiv="Content-Type" content="text/html; charset=windows-1253">'),
        "windows-1253",
    )
    yield _mk(
        "late-head-text-before",
        "late",
        (EL + " ") * 8 + m + f"<p>{EL}",
        "windows-1253",
        note="character data does not end Chromium's head section",
    )
    yield _mk(
        "late-head-nonascii-title",
        "late",
        f"<title>{EL}</title>" + LONG_COMMENT + m + f"<p>{EL}",
        "windows-1253",
    )
    yield _mk(
        "late-head-end-tags-allowed",
        "late",
        "<html><head><title>t</title><script></script><style></style>" + LONG_COMMENT + m + f"<p>{EL}",
        "windows-1253",
    )
    # body started: ignored
    body_starts = {
        "body-tag": "<body>",
        "p": "<p>Hello.</p>",
        "div": "<div></div>",
        "head-end": "<head></head>",
        "img": "<img src=x alt=x>",
        "span": "<span>x</span>",
        "template": "<template></template>",
        "param": "<param name=x value=y>",
        "unknown-end": "</foo>",
        "html-end": "</html>",
        "noscript-p": "<noscript><p>x</p></noscript>",
    }
    for name, start in body_starts.items():
        html = start + LONG_COMMENT + m + f"<p>{EL}</p>"
        yield _mk(f"late-after-{name}", "late", html, "windows-1253", declared=False)
    yield _mk(
        "late-in-body-after-text",
        "late",
        page(EL + " " + "filler " * 160 + m + EL),
        "windows-1253",
        declared=False,
    )
    yield _mk(
        "late-in-body-after-body-no-content",
        "late",
        "<html><head><title>t</title></head><body>" + LONG_COMMENT + m + f"<p>{EL}",
        "windows-1253",
        declared=False,
    )
    # early meta wins over a late different one
    yield _mk(
        "late-second-meta-ignored",
        "late",
        page(EL, m + LONG_COMMENT + "<meta charset=koi8-r>"),
        "windows-1253",
    )
    yield _mk(
        "late-invalid-then-valid", "late", page(EL, LONG_COMMENT + "<meta charset=bogus>" + m), "windows-1253"
    )
    yield _mk(
        "late-utf16-label", "late", page(TEXTS["ja"], LONG_COMMENT + "<meta charset=utf-16le>"), "UTF-8"
    )
    yield _mk(
        "late-x-user-defined",
        "late",
        page(TEXTS["fr"], LONG_COMMENT + "<meta charset=x-user-defined>"),
        "windows-1252",
    )
    yield _mk(
        "late-replacement",
        "late",
        page(EL, LONG_COMMENT + "<meta charset=csiso2022kr>"),
        "windows-1253",
        expect="replacement",
        note="replacement: whole body becomes U+FFFD",
    )


def _tokenizer_cases() -> Iterator[Case]:
    """Where a real HTML tokenizer (Chromium's meta scan) and the Standard's byte prescan can differ."""
    m = "<meta charset=windows-1253>"
    # (id suffix, markup before the Greek paragraph, declared by Chromium?)
    forms: list[tuple[str, str, bool | str]] = [
        ("plaintext-early", "<plaintext>" + m, False),
        ("textarea-early", "<textarea>" + m + "</textarea>", False),
        ("iframe-early", "<iframe>" + m + "</iframe>", False),
        ("noembed-early", "<noembed>" + m + "</noembed>", False),
        ("noframes-early", "<noframes>" + m + "</noframes>", False),
        ("script-not-end-tag", "<script>a</scriptx>" + m + "</script>", False),
        ("script-end-tag-space", "<script>a</script >" + m, True),
        ("script-escaped", "<script><!--<script>" + m + "</script>--></script>", False),
        ("script-escaped-closed", "<script><!-- a --></script>" + m, True),
        ("title-end-space", "<title>t</title >" + m, True),
        ("style-upper-end", "<style>p{}</STYLE>" + m, True),
        ("entity-in-value", '<meta charset="windows&#45;1253">', True),
        (
            "named-entity-in-content",
            '<meta http-equiv=content-type content="text/html; charset&equals;windows-1253">',
            True,
        ),
        ("nul-in-value", '<meta charset="windows-\x001253">', False),
        ("newline-in-tag", "<meta\ncharset=windows-1253\n>", True),
        ("crlf-in-tag", "<meta\r\ncharset=windows-1253>", True),
        ("doctype-quoted-gt", '<!DOCTYPE html SYSTEM "a>b">' + m, True),
        ("lt-noise", "a < b << c <" + m, True),
        ("empty-comment-variants", "<!----><!---><!-- -- -->" + m, True),
        ("comment-dash-bang", "<!-- a --!>" + m, True),
        ("end-tag-with-attrs", "</x charset=windows-1253>", False),
        ("svg-then-meta", "<svg><title>x</title></svg>" + m, True),
        ("template-meta", "<template>" + m + "</template>", True),
        ("after-head-end-early", "<head></head>" + m, True),
        ("html-head-attrs", '<html lang="el"><head profile="x">' + m, True),
        ("unclosed-meta-eof", "<meta charset=windows-1253", False),
        ("quoted-gt-in-attr", '<link title="a>b">' + m, True),
        ("bogus-comment-gt", '<?php echo "a>b"; ?>' + m, True),
        ("cdata-like", "<![CDATA[ x ]]>" + m, True),
        ("math-then-meta", "<math><mi>x</mi></math>" + m, True),
        ("http-equiv-utf16", '<meta http-equiv=content-type content="text/html; charset=utf-16">', "UTF-8"),
        (
            "http-equiv-xud",
            '<meta http-equiv=content-type content="text/html; charset=x-user-defined">',
            "windows-1252",
        ),
        ("charset-equals-in-value", '<meta charset="=windows-1253">', False),
        ("backtick-attr", "<meta charset=`windows-1253`>", False),
    ]
    for suffix, head, declared in forms:
        yield _mk(
            f"tokenizer-{suffix}",
            "tokenizer",
            head + f"<p>{EL}</p>",
            "windows-1253",
            declared=bool(declared),
            expect=declared if isinstance(declared, str) else None,
        )
    # late variants (beyond 1024 bytes, still in head)
    for suffix, head, declared in (
        ("late-after-script-escape", "<script><!--" + "var a;" * 200 + "--></script>" + m, True),
        ("late-meta-in-script", "<script>" + "var a;" * 200 + m + "</script>", False),
        ("late-after-entity-text", "&amp;" * 250 + m, True),
        ("late-lt-noise", "a < b " * 200 + m, True),
        ("late-after-svg", "<svg></svg>" + LONG_COMMENT + m, False),
        ("late-after-frameset", "<frameset></frameset>" + LONG_COMMENT + m, False),
        ("late-after-close-title-only", "</title>" + LONG_COMMENT + m, True),
        ("late-after-close-head-only", "</head>" + LONG_COMMENT + m, False),
        (
            "late-http-equiv-utf16",
            LONG_COMMENT + '<meta http-equiv=content-type content="charset=utf-16">',
            "UTF-8",
        ),
    ):
        yield _mk(
            f"tokenizer-{suffix}",
            "tokenizer",
            head + f"<p>{EL}</p>",
            "windows-1253",
            declared=bool(declared),
            expect=declared if isinstance(declared, str) else None,
        )


def _conflict_cases() -> Iterator[Case]:
    ru = text_for("ru", "windows-1251")
    yield _mk(
        "conflict-header-beats-meta",
        "conflict",
        page(EL, "<meta charset=koi8-r>"),
        "windows-1253",
        headers=ct(b"text/html; charset=windows-1253"),
    )
    yield _mk(
        "conflict-header-wrong",
        "conflict",
        page(ru, "<meta charset=windows-1251>"),
        "windows-1251",
        headers=ct(b"text/html; charset=iso-8859-1"),
        expect="windows-1252",
        note="header wins although wrong: mojibake",
    )
    yield _mk(
        "conflict-header-1252-body-utf8",
        "conflict",
        page(TEXTS["fr"]),
        "UTF-8",
        headers=ct(b"text/html; charset=iso-8859-1"),
        expect="windows-1252",
    )
    yield _mk(
        "conflict-meta-1252-body-utf8",
        "conflict",
        page(TEXTS["de"], "<meta charset=windows-1252>"),
        "UTF-8",
        expect="windows-1252",
    )
    yield _mk(
        "conflict-meta-vs-xml",
        "conflict",
        '<?xml version="1.0" encoding="koi8-r"?>' + page(EL, "<meta charset=windows-1253>"),
        "windows-1253",
    )
    yield _mk(
        "conflict-header-vs-xml",
        "conflict",
        '<?xml version="1.0" encoding="koi8-r"?>' + page(EL),
        "windows-1253",
        headers=ct(b"text/html; charset=windows-1253"),
    )
    yield _mk(
        "conflict-header-utf8-body-sjis",
        "conflict",
        page(TEXTS["ja"]),
        "Shift_JIS",
        headers=ct(b"text/html; charset=utf-8"),
        expect="UTF-8",
        note="replacement characters",
    )
    yield _mk(
        "conflict-late-meta-vs-xml",
        "conflict",
        '<?xml version="1.0" encoding="koi8-r"?>' + page(EL, LONG_COMMENT + "<meta charset=windows-1253>"),
        "windows-1253",
    )
    yield _mk(
        "conflict-header-utf8-body-1253",
        "conflict",
        page(EL),
        "windows-1253",
        headers=ct(b"text/html; charset=utf-8"),
        expect="UTF-8",
    )
    yield _mk(
        "conflict-meta-sjis-body-eucjp",
        "conflict",
        page(TEXTS["ja"], "<meta charset=shift_jis>"),
        "EUC-JP",
        expect="Shift_JIS",
    )


def _label_cases() -> Iterator[Case]:
    en = TEXTS["en"]
    for label in ("iso-2022-kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "csiso2022kr"):
        yield _mk(
            f"labels-replacement-meta-{label}",
            "labels",
            page(en + " Ω", f"<meta charset={label}>"),
            "UTF-8",
            expect="replacement",
        )
    yield _mk(
        "labels-replacement-header",
        "labels",
        page(en),
        "UTF-8",
        headers=ct(b"text/html; charset=iso-2022-kr"),
        expect="replacement",
    )
    # "replacement" is also one of the replacement encoding's labels (Encoding Standard, encodings.json)
    for where, html, headers in (
        ("header", page(en), ct(b"text/html; charset=replacement")),
        ("meta", page(en, "<meta charset=replacement>"), (CT_HTML,)),
        ("xml", '<?xml version="1.0" encoding="replacement"?>' + page(en), (CT_HTML,)),
    ):
        yield _mk(
            f"labels-replacement-name-{where}",
            "labels",
            html,
            "UTF-8",
            headers=headers,
            expect="replacement",
            note="'replacement' is a label too",
        )
    yield _mk(
        "labels-replacement-name-empty-body",
        "labels",
        "",
        "UTF-8",
        headers=ct(b"text/html; charset=replacement"),
        expect="replacement",
    )
    xud = "".join(chr(0xF780 + i) for i in range(0x20, 0x30))
    yield _mk(
        "labels-x-user-defined-header",
        "labels",
        page(en + " " + xud),
        "x-user-defined",
        headers=ct(b"text/html; charset=x-user-defined"),
    )
    yield _mk(
        "labels-x-user-defined-meta",
        "labels",
        page(TEXTS["fr"], "<meta charset=x-user-defined>"),
        "windows-1252",
        note="meta x-user-defined means windows-1252",
    )
    yield _mk(
        "labels-x-user-defined-xml",
        "labels",
        '<?xml version="1.0" encoding="x-user-defined"?>' + page(en + " " + xud),
        "x-user-defined",
    )
    for label in ("utf-16", "utf-16le", "utf-16be", "unicodefffe", "ucs-2"):
        yield _mk(
            f"labels-utf16-meta-{label}",
            "labels",
            page(TEXTS["ko"], f"<meta charset={label}>"),
            "UTF-8",
            note="UTF-16 in meta means UTF-8",
        )
    yield _mk(
        "labels-utf16-header-no-bom",
        "labels",
        page(TEXTS["el"]),
        "UTF-16LE",
        headers=ct(b"text/html; charset=utf-16"),
    )
    yield _mk(
        "labels-utf16be-header-no-bom",
        "labels",
        page(TEXTS["he"]),
        "UTF-16BE",
        headers=ct(b"text/html; charset=utf-16be"),
    )
    yield _mk(
        "labels-unicode-header",
        "labels",
        page(TEXTS["ar"]),
        "UTF-16LE",
        headers=ct(b"text/html; charset=unicode"),
    )
    aliases = {
        "latin1": ("fr", "windows-1252"),
        "ascii": ("de", "windows-1252"),
        "gb2312": ("zh-CN", "GBK"),
        "x-sjis": ("ja", "Shift_JIS"),
        "tis-620": ("th", "windows-874"),
        "ks_c_5601-1987": ("ko", "EUC-KR"),
        "iso-8859-9": ("tr", "windows-1254"),
        "iso-8859-11": ("th", "windows-874"),
        "x-mac-roman": ("de", "macintosh"),
        "csisolatinhebrew": ("he", "ISO-8859-8"),
        "logical": ("he", "ISO-8859-8-I"),
        "dos-866": ("ru", "IBM866"),
        "x-gbk": ("zh-CN", "GBK"),
        "big5-hkscs": ("zh-TW", "Big5"),
        "unicode11utf8": ("ja", "UTF-8"),
    }
    for label, (lang, enc) in aliases.items():
        yield _mk(
            f"labels-alias-{label}", "labels", page(text_for(lang, enc), f"<meta charset={label}>"), enc
        )


def _encoding_cases() -> Iterator[Case]:
    """Every one of the 40 encodings, declared; header for even positions, meta for odd ones."""
    for i, (name, lang) in enumerate(ENCODING_LANG.items()):
        if name in ("UTF-16BE", "UTF-16LE"):
            # in meta these mean UTF-8; declare by header
            text = TEXTS[lang]
            yield _mk(
                f"encoding-{name}",
                "encoding",
                page(text),
                name,
                headers=ct(b"text/html; charset=" + name.encode()),
            )
            continue
        if name == "replacement":
            yield _mk(
                f"encoding-{name}",
                "encoding",
                page(TEXTS[lang]),
                "UTF-8",
                headers=ct(b"text/html; charset=iso-2022-cn"),
                expect="replacement",
            )
            continue
        if name == "x-user-defined":
            xud = "".join(chr(0xF780 + i) for i in range(0x00, 0x80, 5))
            yield _mk(
                f"encoding-{name}",
                "encoding",
                page(TEXTS[lang] + " " + xud),
                name,
                headers=ct(b"text/html; charset=x-user-defined"),
            )
            continue
        text = text_for(lang, name)
        if name == "gb18030":
            text += " — 😀 € 𠀀"
        if i % 2 == 0:
            yield _mk(
                f"encoding-{name}",
                "encoding",
                page(text),
                name,
                headers=ct(b"text/html; charset=" + name.encode()),
            )
        else:
            yield _mk(f"encoding-{name}", "encoding", page(text, f'<meta charset="{name}">'), name)
        # the other declaration form too, so each encoding is seen via both header and meta
        if i % 2 == 0:
            yield _mk(
                f"encoding-{name}-meta",
                "encoding",
                page(text, f"<meta charset={name.lower()}>"),
                name,
                host="example.com",
            )
        else:
            yield _mk(
                f"encoding-{name}-header",
                "encoding",
                page(text),
                name,
                headers=ct(b"text/html;charset=" + name.lower().encode()),
            )


def _xml_cases() -> Iterator[Case]:
    forms: list[tuple[str, str, bool]] = [
        ("dquoted", '<?xml version="1.0" encoding="windows-1253"?>', True),
        ("squoted", "<?xml version='1.0' encoding='windows-1253'?>", True),
        ("no-version", '<?xml encoding="windows-1253"?>', True),
        ("spaces", '<?xml version="1.0"   encoding = "windows-1253" ?>', True),
        ("alias", '<?xml version="1.0" encoding="cp1253"?>', True),
        ("unquoted", "<?xml version='1.0' encoding=windows-1253?>", False),
        ("leading-newline", '\n<?xml version="1.0" encoding="windows-1253"?>', False),
        ("leading-space", ' <?xml version="1.0" encoding="windows-1253"?>', False),
        ("upper-xml", '<?XML version="1.0" encoding="windows-1253"?>', False),
        ("upper-encoding", '<?xml version="1.0" ENCODING="windows-1253"?>', False),
        ("bogus-label", '<?xml version="1.0" encoding="bogus"?>', False),
        ("standalone", '<?xml version="1.0" encoding="windows-1253" standalone="yes"?>', True),
    ]
    for suffix, decl, declared in forms:
        yield _mk(f"xml-{suffix}", "xml", decl + page(EL), "windows-1253", declared=declared)
    yield _mk("xml-utf16", "xml", '<?xml version="1.0" encoding="utf-16"?>' + page(TEXTS["ja"]), "UTF-8")
    yield _mk(
        "xml-after-body-late-meta",
        "xml",
        '<?xml version="1.0" encoding="windows-1253"?><p>x</p>'
        + LONG_COMMENT
        + "<meta charset=koi8-r>"
        + f"<p>{EL}",
        "windows-1253",
    )
    yield _mk(
        "xml-sjis", "xml", '<?xml version="1.0" encoding="Shift_JIS"?>' + page(TEXTS["ja"]), "Shift_JIS"
    )
    yield _mk(
        "xml-replacement",
        "xml",
        '<?xml version="1.0" encoding="iso-2022-kr"?>' + page(EL),
        "windows-1253",
        expect="replacement",
    )


def _raw(
    cid: str, payload: bytes, label: str, expect: str, *, by_header: bool = False, note: str = ""
) -> Case:
    """A declared page whose paragraph is raw ``payload`` bytes (decoder edge cases).

    The "true text" of such a page is the Encoding Standard's decode of its bytes, computed here with
    encoding_rs (``endec``); the page is declared, so only the Chromium comparison applies to it.
    """
    if by_header:
        headers: tuple[bytes, ...] = ct(b"text/html; charset=" + label.encode())
        body = b"<!DOCTYPE html><title>bytes</title><p>" + payload + b"</p>"
    else:
        headers = (CT_HTML,)
        body = (
            b"<!DOCTYPE html><meta charset="
            + label.encode()
            + b"><title>bytes</title><p>"
            + payload
            + b"</p>"
        )
    if expect in ("UTF-16LE", "UTF-16BE"):
        pre, _, post = body.partition(payload)
        codec = "utf-16-le" if expect == "UTF-16LE" else "utf-16-be"
        body = pre.decode("ascii").encode(codec) + payload + post.decode("ascii").encode(codec)
    true = endec.decode(body, expect, errors="replace")
    return Case(cid, "bytes", headers, body, "example.com", true, True, expect, note)


def _pairs(leads: range | list[int], trails: range | list[int], sep: bytes = b" ") -> bytes:
    """Every lead byte followed by every trail byte, each pair followed by ``sep`` (keeps pairs apart)."""
    return b"".join(bytes((a, b)) + sep for a in leads for b in trails)


def _bytes_cases() -> Iterator[Case]:
    """Decoder edge cases: every high byte of each single-byte encoding, every lead/trail pair of the
    multi-byte ones, four-byte gb18030, ISO-2022-JP escapes, invalid UTF-8/UTF-16."""
    high = bytes(range(0x80, 0x100))
    spaced_high = b" ".join(bytes((b,)) for b in range(0x80, 0x100))
    for name in ENCODING_LANG:
        if name in (
            "UTF-8",
            "UTF-16BE",
            "UTF-16LE",
            "replacement",
            "GBK",
            "gb18030",
            "Big5",
            "EUC-JP",
            "ISO-2022-JP",
            "Shift_JIS",
            "EUC-KR",
        ):
            continue
        yield _raw(
            f"bytes-high-{name}",
            high,
            name.lower(),
            "windows-1252" if name == "x-user-defined" else name,
            note="x-user-defined in a meta means windows-1252",
        )
    yield _raw("bytes-high-x-user-defined-header", high, "x-user-defined", "x-user-defined", by_header=True)
    # multi-byte: single high bytes, then all lead/trail pairs
    yield _raw("bytes-single-Shift_JIS", spaced_high, "shift_jis", "Shift_JIS")
    yield _raw(
        "bytes-pairs-Shift_JIS", _pairs(range(0x81, 0x100), range(0x40, 0x100)), "shift_jis", "Shift_JIS"
    )
    yield _raw("bytes-single-EUC-JP", spaced_high, "euc-jp", "EUC-JP")
    # (lead 0x8F is left out here: it triggers a Chromium bug, see bytes-chromium-bug-* below)
    yield _raw(
        "bytes-pairs-EUC-JP", _pairs([0x8E, *range(0x90, 0x100)], range(0xA1, 0x100)), "euc-jp", "EUC-JP"
    )
    yield _raw(
        "bytes-jis0212-EUC-JP",
        b"".join(b"\x8f" + bytes((a, b)) + b" " for a in range(0xA1, 0xFF) for b in range(0xA1, 0xFF)),
        "euc-jp",
        "EUC-JP",
    )
    yield _raw("bytes-single-EUC-KR", spaced_high, "euc-kr", "EUC-KR")
    yield _raw("bytes-pairs-EUC-KR", _pairs(range(0x81, 0x100), range(0x41, 0x100)), "euc-kr", "EUC-KR")
    yield _raw("bytes-single-Big5", spaced_high, "big5", "Big5")
    # (the four pairs that decode to two code points are left out: Chromium bug, see below)
    big5_special = {b"\x88\x62", b"\x88\x64", b"\x88\xa3", b"\x88\xa5"}
    big5_pairs = b"".join(
        bytes((a, b)) + b" "
        for a in range(0x81, 0x100)
        for b in [*range(0x40, 0x7F), *range(0xA1, 0x100)]
        if bytes((a, b)) not in big5_special
    )
    yield _raw("bytes-pairs-Big5", big5_pairs, "big5", "Big5")
    # Chromium decoder bugs (documented in chromium/compare.py), isolated in small pages
    yield _raw("bytes-chromium-bug-big5-two-code-points", b" ".join(sorted(big5_special)), "big5", "Big5")
    yield _raw(
        "bytes-chromium-bug-eucjp-jis0212-flag", b"\x8f\xa1 \xa1\xa1 \x8f\xfe x\xa4\xa2", "euc-jp", "EUC-JP"
    )
    yield _raw(
        "bytes-chromium-bug-eucjp-jis0212-leads",
        _pairs([0x8F], range(0xA1, 0x100), sep=b" \xa1\xa1 "),
        "euc-jp",
        "EUC-JP",
        note="every 8F xx followed by a space and A1 A1",
    )
    for name in ("GBK", "gb18030"):
        yield _raw(f"bytes-single-{name}", spaced_high, name.lower(), name)
        yield _raw(f"bytes-pairs-{name}", _pairs(range(0x81, 0x100), range(0x40, 0x100)), name.lower(), name)
    four = [
        b"\x81\x30\x81\x30",
        b"\x81\x35\xf4\x37",
        b"\x84\x31\xa4\x39",
        b"\x84\x31\xa5\x30",
        b"\x8f\x39\xfe\x39",
        b"\x90\x30\x81\x30",
        b"\xe3\x32\x9a\x35",
        b"\xe3\x32\x9a\x36",
        b"\xfe\x39\xfe\x39",
        b"\x81\x30\xff\x30",
        b"\x81\x30\x81",
        b"\x82\x35\x8f\x33",
        b"\x84\x30\x85\x34",
        b"\x84\x31\xa4\x38",
        b"\xa6\xd9",
        b"\xa8\xbc",
        b"\xfe\x51",
        b"\xfe\x52",
        b"\xfe\x53",
        b"\xfe\x6c",
        b"\xfe\x76",
        b"\xfe\x7e",
        b"\xfe\x90",
        b"\xfe\xa0",
        b"\x80",
        b"\xff",
    ]
    yield _raw("bytes-four-gb18030", b" ".join(four), "gb18030", "gb18030")
    yield _raw("bytes-four-GBK", b" ".join(four), "gbk", "GBK")
    # ISO-2022-JP: one page per escape-sequence situation (the decoder's state carries across a page)
    iso = {
        "plain": b"\x1b$B$3$s$K$A$O\x1b(B ok",
        "katakana": b"\x1b(I12345\x1b(B ok",
        "roman": b"\x1b(J\\~\x1b(B ok",
        "jis0208-1978": b"\x1b$@$3$s\x1b(B ok",
        "escape-twice": b"\x1b$B\x1b$B$3\x1b(B ok",
        "ascii-escape-twice": b"a\x1b(B\x1b(Bb",
        "unterminated": b"\x1b$B$3$s",
        "odd-length": b"\x1b$B$3$\x1b(B ok",
        "invalid-escape": b"\x1b$Z ok",
        "lone-esc-end": b"ok \x1b",
        "high-bytes": b"\x1b$B\x80\xff\x1b(B ok \x80",
        "newline-in-jis": b"\x1b$B$3\n$s\x1b(B ok",
        "so-si": b"\x0e\x0f ok",
    }
    for name, data in iso.items():
        yield _raw(f"bytes-iso2022jp-{name}", data, "iso-2022-jp", "ISO-2022-JP")
    # UTF-8: overlong, surrogates, truncated, out of range, stray continuation bytes
    bad_utf8 = [
        b"\xc0\xaf",
        b"\xe0\x80\xaf",
        b"\xed\xa0\x80",
        b"\xed\xbf\xbf",
        b"\xf4\x90\x80\x80",
        b"\xf8\x88\x80\x80\x80",
        b"\x80",
        b"\xbf",
        b"\xe2\x82",
        b"\xf0\x9f\x98",
        b"\xc2",
        b"\xef\xbf\xbe",
        b"\xf0\x9f\x98\x80",
        b"\xfe",
        b"\xff",
        b"\xc1\xbf",
        b"\xe2\x28\xa1",
    ]
    yield _raw("bytes-utf8-invalid", b" ".join(bad_utf8), "utf-8", "UTF-8")
    yield _raw("bytes-utf8-truncated-at-end", "ünïcödé".encode() + b"\xe2\x82", "utf-8", "UTF-8")
    # UTF-16: lone surrogates, reversed pairs, odd trailing byte
    yield _raw(
        "bytes-utf16le-surrogates",
        b"\x00\xd8a\x00\x00\xdcb\x00\x3d\xd8\x00\xde\x00\xdc\x00\xd8",
        "utf-16le",
        "UTF-16LE",
        by_header=True,
    )
    yield _raw(
        "bytes-utf16be-surrogates",
        b"\xd8\x00\x00a\xdc\x00\x00b\xd8\x3d\xde\x00\xdc\x00\xd8\x00",
        "utf-16be",
        "UTF-16BE",
        by_header=True,
    )


def _undeclared_cases() -> Iterator[Case]:
    for lang, enc in UNDECLARED:
        text = text_for(lang, enc)
        html = page(text, title=_title(lang, enc))
        tld = TLD[lang]
        yield _mk(
            f"undeclared-{lang}-{enc}-{tld}", "undeclared", html, enc, host=f"example.{tld}", declared=False
        )
        # the same bytes from a neutral host: no TLD hint
        yield _mk(f"undeclared-{lang}-{enc}-com", "undeclared", html, enc, host="example.com", declared=False)
    # UTF-8 without any declaration: Chromium never picks UTF-8 over http
    for lang in ("ja", "ru", "el", "fr", "zh-CN", "ar"):
        tld = TLD[lang]
        yield _mk(
            f"undeclared-{lang}-UTF-8-{tld}",
            "undeclared",
            page(TEXTS[lang]),
            "UTF-8",
            host=f"example.{tld}",
            declared=False,
        )
    yield _mk(
        "undeclared-ascii-jp",
        "undeclared",
        page(TEXTS["en"]),
        "windows-1252",
        host="example.jp",
        declared=False,
    )
    yield _mk("undeclared-ascii-com", "undeclared", page(TEXTS["en"]), "windows-1252", declared=False)


def _title(lang: str, enc: str) -> str:
    return f"{lang} in {enc}"


@cache
def all_cases() -> tuple[Case, ...]:
    """Every case, in a fixed order; ids are unique."""
    cases = (
        *_bom_cases(), *_header_cases(), *_meta_cases(), *_tokenizer_cases(), *_boundary_cases(),
        *_late_cases(), *_conflict_cases(), *_label_cases(), *_encoding_cases(), *_xml_cases(),
        *_bytes_cases(), *_undeclared_cases(),
    )  # fmt: skip
    ids = [c.id for c in cases]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise ValueError(f"duplicate case ids: {sorted(dupes)}")
    return cases


def by_id() -> dict[str, Case]:
    return {c.id: c for c in all_cases()}
