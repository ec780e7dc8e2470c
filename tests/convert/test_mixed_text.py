"""Mixed-file probes that judge readings as text, with mojifix's own detector (issue 12's generated trees).

Each case is text written for this file: a clean file whose bytes look like a second encoding at one
end must not be called mixed, and a tail whose bytes happen to be valid in the head's encoding must be
caught. Both directions are checked end to end through ``examine`` (what ``convert`` does per file).
"""

from __future__ import annotations

import pytest
from test_verify import fixed

from mojifix.convert.mixed import _first_lines, find_split
from mojifix.convert.options import Options
from mojifix.convert.verify import examine
from mojifix.detect import detect

SALVAGE = Options(salvage=True)

#: Simplified Chinese lines (written for this test) whose GBK bytes are also valid Big5
GBK_LINES = (
    "会议记录已经放在共享目录里了，请大家在周五之前看完。\n"
    "明天上午九点开始维护服务器，预计十点结束。\n"
    "我们需要一份清单，列出每台电脑的型号和位置。\n"
    "图书馆新买了一批关于天文和地理的书。\n"
    "请把报告的第二部分改成简体中文。\n"
    "这台打印机经常卡纸，需要换一台新的。\n"
)
BIG5_LINES = (
    "這個目錄裡的檔案來自不同的年代，有的用大五碼儲存。\n"
    "他把舊電腦裡的資料複製到新的硬碟上，卻發現檔名全是亂碼。\n"
    "颱風過後，街上到處都是折斷的樹枝。\n"
    "這家書店的老闆每天早上都會泡一壺烏龍茶。\n"
)


def _mixed(data: bytes) -> tuple[str, str, int]:
    v = examine(data, SALVAGE, detect)
    assert (v.outcome, v.verification) == ("quarantined", "mixed"), (v.outcome, v.verification, v.reason)
    assert v.mixed is not None
    return v.mixed.head_encoding, v.mixed.tail_encoding, v.mixed.boundary


def test_short_gbk_file_starting_with_valid_utf8_pairs_is_not_split() -> None:
    """ "系统一直" is CF B5 CD B3 D2 BB D6 B1 in GBK: four valid two-byte UTF-8 sequences ("ϵͳһֱ")
    before the first byte UTF-8 rejects; nothing else shows a second encoding."""
    text = "系统一直运行正常，今天没有报警。\n"
    data = text.encode("gbk")
    assert data[:8].decode("utf-8") == "ϵͳһֱ"  # the premise: a UTF-8-looking head
    v = examine(data, SALVAGE, detect)
    assert (v.outcome, v.verification, v.mixed) == ("converted", "lossless", None), v.reason
    assert v.output == text.encode()


def test_gbk_file_ending_in_valid_utf8_inside_a_character_is_not_split() -> None:
    """ "采用改革。" ends D3 C3 B8 C4 B8 EF A1 A3: after the lead byte D3, three valid UTF-8 sequences
    ("øĸ" and a private-use character) that start inside the GBK character 用."""
    text = "经过半年的讨论，大家都同意采用改革。\n"
    data = text.encode("gbk")
    assert data[-8:].decode("utf-8") == "øĸ\uf863\n"  # the premise: a UTF-8-looking tail
    assert find_split(data, 0, "GBK", None, detect) is None
    v = examine(data, SALVAGE, detect)
    assert (v.outcome, v.verification) == ("converted", "lossless"), v.reason


def test_big5_body_with_gbk_tail_valid_as_big5_is_caught() -> None:
    """The whole file decodes as Big5; the tail, four or more lines, reads as gibberish there and as
    Simplified Chinese in GBK (the earlier probe compared the last line with one three lines up, both
    in the tail)."""
    head, tail = BIG5_LINES.encode("big5") * 3, GBK_LINES.encode("gbk")
    data = head + tail
    assert data.decode("big5")  # the premise: no strict failure anywhere
    head_enc, tail_enc, boundary = _mixed(data)
    assert (head_enc, tail_enc, boundary) == ("Big5", "GBK", len(head))


def test_gbk_head_with_english_words_then_windows1252_tail_is_caught() -> None:
    """The head's last line glues an English word to Chinese ones (as the German tail's "Kö" reads
    "K鰊" in GBK): the suspicious run reaches into the head, the detector is unsure of that stretch,
    and the tail's last line alone must still be tried."""
    head = (
        "我们用Python写了一个小脚本，每天检查一次备份。\n" + GBK_LINES
    ) * 2 + "周末的时候Excel文件会自动归档。\n"
    tail = "Könnten Sie die Übersicht bitte bis Freitag schicken? Danke.\n"
    data = head.encode("gbk") + tail.encode("cp1252")
    assert data.decode("gbk")  # the premise: the tail is valid GBK
    head_enc, tail_enc, boundary = _mixed(data)
    assert (head_enc, tail_enc, boundary) == ("GBK", "windows-1252", len(head.encode("gbk")))


def test_windows1252_head_with_gb18030_tail_ending_in_four_byte_characters() -> None:
    """A GB18030 tail whose last line is Hangul, four-byte sequences that read "ƒ6„3..." in
    windows-1252: no three non-ASCII characters in a row, but a non-ASCII character and a digit twice
    in a row, which nobody writes."""
    head = "The inspectors walked the bridge from Zürich to the café and found only rust.\n" * 6
    tail = GBK_LINES + "안녕하세요\n"
    data = head.encode("cp1252") + tail.encode("gb18030")
    assert data.decode("cp1252")  # the premise: the tail is valid windows-1252
    head_enc, tail_enc, boundary = _mixed(data)
    assert (head_enc, boundary) == ("windows-1252", len(head))
    assert tail_enc in ("GBK", "gb18030")


def test_unusual_verdict_on_a_head_with_few_non_ascii_bytes_is_questioned() -> None:
    """An English windows-1252 head with a handful of "£", "é" and curly quotes (fewer non-ASCII bytes
    than probe H's first lines need, so they were the whole file) and a GBK tail: a detector that
    calls the whole file windows-1256 (Arabic) is asked about the first half alone, and the split is
    then found under windows-1252."""
    head = "The café charged £3 for “tea” — fair, said Renée.\n" + "The bridge was fine, only rust.\n" * 12
    tail = "".join(GBK_LINES.splitlines(keepends=True)[:2]).encode("gbk")
    data = head.encode("cp1252") + tail
    assert data.decode("cp1252")  # the premise: the tail is valid windows-1252
    assert _first_lines(data, 0, "windows-1256") == data  # the premise: few non-ASCII bytes

    def detect_(seg: bytes, **kw: object):
        if seg == data:
            return fixed(("windows-1256", 1.0))(seg)  # the whole file: an unusual verdict
        if tail.endswith(seg):
            return fixed(("GBK", 0.99))(seg)  # lines of the tail alone
        return fixed(("windows-1252", 0.99))(seg)  # anything holding the head

    v = examine(data, SALVAGE, detect_)
    assert (v.outcome, v.verification) == ("quarantined", "mixed"), v.reason
    assert v.mixed is not None
    assert (v.mixed.head_encoding, v.mixed.tail_encoding, v.mixed.boundary) == (
        "windows-1252",
        "GBK",
        len(head),
    )


#: French lines (written for this test) for a tail longer than the head
FRENCH_LINES = (
    "Chaque fichier est vérifié avant d'être écrit, et rien n'est perdu en route.\n"
    "Le serveur de sauvegarde redémarre tous les dimanches à trois heures du matin.\n"
    "Les anciens rapports sont rangés dans le dossier « archives », classés par année.\n"
    "Ça prend du temps, mais on évite ainsi les mauvaises surprises à la fin du mois.\n"
)


def test_short_utf16be_head_before_a_longer_utf16le_tail_is_split() -> None:
    """The whole file reads as UTF-16LE (most NUL bytes sit where LE puts them: the tail is longer),
    yet its first part is UTF-16BE Chinese: byte-swapped, it is valid but junk. The probe must try the
    minority byte order as the head, and only split where that head reads better in it."""
    head = "".join(BIG5_LINES.splitlines(keepends=True)[:2]).encode("utf-16-be")
    tail = (FRENCH_LINES * 2).encode("utf-16-le")
    data = head + tail
    assert detect(data).candidates[0].encoding == "UTF-16LE"  # the premise: the tail's order wins
    assert _mixed(data) == ("UTF-16BE", "UTF-16LE", len(head))


@pytest.mark.parametrize("order", ["UTF-16LE", "UTF-16BE"])
@pytest.mark.parametrize(
    "text",
    [
        BIG5_LINES + FRENCH_LINES + BIG5_LINES,
        FRENCH_LINES,
        BIG5_LINES,
        # U+5F00 is 5F 00 in UTF-16BE: read as UTF-16LE, the first unit alone is "_", which scores
        # better than "开" on its own
        "开放时间改到每天早上八点。\n" + GBK_LINES,
    ],
)
def test_clean_utf16_file_is_not_split_by_the_other_order_probe(order: str, text: str) -> None:
    """A clean UTF-16 file (Chinese units put NUL bytes of both parities in it) must not lose a junk
    head in the other byte order to the reversed probe, not even a head of one unit."""
    data = text.encode(order.lower())
    assert find_split(data, 0, order, None, detect) is None
    v = examine(data, SALVAGE, detect)
    assert (v.outcome, v.mixed) == ("converted", None), v.reason
