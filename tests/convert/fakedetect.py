"""A small, deterministic stand-in detector for testing convert's decision logic in isolation.

It follows mojifix.detect.detect's documented contract (``detect(data, domain="file",
candidates=None) -> Detection``) with simple rules: NUL parity for UTF-16, strict validity, and a
plausibility score (share of characters that are ASCII, Latin letters, or common CJK characters of
the script the encoding is for). Its verdicts are inputs to the logic under test, not the subject.
"""

from __future__ import annotations

from mojifix.convert.codec import try_decode
from mojifix.detect.result import Candidate, Detection

SIMPLIFIED = set(
    "这个们来为说时会过学对后么经头开动长现将与实点种话儿问体国电车门东见间发还关应让认论义从当乐里检查决编码无损议录请树叶脑资料复制硬盘却现乱图书馆历史报告简问题"
)
TRADITIONAL = set(
    "這個們來為說時會過學對後麼經頭開動長現將與實點種話兒問體國電車門東見間發還關應讓認論義從當樂裡檢查決編碼無損議錄請樹葉腦資料複製硬碟卻現亂圖書館歷史報告繁問題"
)
COMMON = set(
    "的一是不了人我在有他中大上以到说要就出也你地得着那下自之年生可而子后能多心天小都其好又见看两里很事于起还成只想本去没样把现三没因作外开西用"
)
ORDER = ("UTF-8", "GBK", "Big5", "Shift_JIS", "windows-1252")
#: exponent applied to the plausibility scores before normalising them into confidences
SHARPNESS = 8


def _score(text: str, enc: str) -> float:
    if not text:
        return 0.0
    good = 0
    for i, ch in enumerate(text):
        o = ord(ch)
        if enc == "windows-1252" and o >= 0x80:
            # Latin text: an accented letter sits next to an ASCII letter
            near = text[max(0, i - 1) : i + 2]
            good += any(c.isascii() and c.isalpha() for c in near) or ch in "€“”‘’—–…«»"
            continue
        if o < 0x80 or ch in COMMON:
            good += 1
        elif (enc == "GBK" and ch in SIMPLIFIED) or (enc == "Big5" and ch in TRADITIONAL):
            good += 2
        elif enc in ("UTF-8", "UTF-16LE", "UTF-16BE") and (0x4E00 <= o <= 0x9FFF or 0xC0 <= o <= 0x17F):
            good += 1
    return good / len(text)


def detect(data: bytes, domain: str = "file", candidates=None, **_: object) -> Detection:
    if not data:
        return Detection((), verdict="empty")
    nul_even = data[0::2].count(0)
    nul_odd = data[1::2].count(0)
    if nul_even + nul_odd > len(data) // 8:
        if nul_odd > 3 * nul_even and try_decode(data, "UTF-16LE") is not None:
            return Detection((Candidate("UTF-16LE", 0.95),), bytes_examined=len(data))
        if nul_even > 3 * nul_odd and try_decode(data, "UTF-16BE") is not None:
            return Detection((Candidate("UTF-16BE", 0.95),), bytes_examined=len(data))
        return Detection((), verdict="binary", bytes_examined=len(data))
    if data.isascii():
        return Detection((Candidate("windows-1252", 1.0),), verdict="ascii", bytes_examined=len(data))
    scored = []
    for enc in candidates or ORDER:
        text = try_decode(data, enc)
        if text is not None:
            scored.append((round(_score(text, enc), 4), enc))
    if not scored:
        return Detection((Candidate("windows-1252", 0.1),), bytes_examined=len(data))
    scored.sort(reverse=True)
    # Confidence sharpens the score ratio (power SHARPNESS), so a clearly better reading is confident
    # enough for convert's write gate (0.9) while near-ties stay ambiguous.
    total = sum(s**SHARPNESS for s, _ in scored) or 1.0
    cands = tuple(Candidate(enc, s**SHARPNESS / total) for s, enc in scored)
    ambiguous = len(scored) > 1 and scored[0][0] - scored[1][0] < 0.02
    return Detection(cands, ambiguous=ambiguous, bytes_examined=len(data))
