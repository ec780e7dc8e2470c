"""English documents with a few CJK words are detected as the mix they are (issue 12, point 3).

An English runbook with three Korean words in CP949 came out as GBK at confidence 1.00: the Korean
reading read best alone as Korean (each Korean word is dear in English), so the mix priced every English
word at ``MIX_WORD_LOGP``, while the Chinese misreading, best alone as English, mixed its few words into
Chinese and won. Scoring picks the better of two mains, the text's best language alone or English.
The texts are written here (notes and runbooks with 1, 3 or 10 CJK words); the right answer is the one
whose decoding gives the text back (so GBK for kana that GBK and EUC-JP encode alike is right).
"""

from __future__ import annotations

import pytest

from mojifix.detect import detect
from mojifix.detect import model as M
from mojifix.detect.scoring import MIX_WORD_COST, get_scorer
from mojifix.textcodec import decode_as

RUNBOOK = [
    "Runbook for the nightly backup job.",
    "Check the disk space on the storage host before you start.",
    "If the job fails, restart the service and look at the log file in the usual place.",
    "Send a short note to the team when the restore test is done.",
]
NOTES = [
    "Meeting notes, Tuesday: we agreed to move the release by one week.",
    "Anna will write the migration guide and Tom reviews the test plan.",
    "Open questions: who owns the build server, and when do we freeze the translations?",
    "Next meeting on Friday at ten, same room as last time.",
]
WORDS = {
    "ko": ["백업", "서버", "디스크", "로그", "재시작", "확인", "팀장", "복구", "테스트", "완료"],
    "ja": [
        "バックアップ",
        "サーバー",
        "ディスク",
        "ログ",
        "再起動",
        "確認",
        "担当者",
        "復元",
        "試験",
        "完了",
    ],
    "zh": ["备份", "服务器", "磁盘", "日志", "重启", "检查", "负责人", "恢复", "测试", "完成"],
    "zh_Hant": ["備份", "伺服器", "磁碟", "日誌", "重新啟動", "檢查", "負責人", "復原", "測試", "完成"],
}
ENCODINGS = {"ko": ["cp949", "euc_kr"], "ja": ["shift_jis", "euc_jp"], "zh": ["gbk"], "zh_Hant": ["big5"]}


def mixed_document(lines: list[str], words: list[str], inline: bool) -> str:
    """``lines`` with ``words`` spread over them: in parentheses at the end of a line, or inline after
    the line's first word."""
    out = []
    for i, line in enumerate(lines):
        mine = words[i :: len(lines)]
        if not mine:
            out.append(line)
        elif inline:
            head, _, tail = line.partition(" ")
            out.append(f"{head} {' '.join(mine)} {tail}")
        else:
            out.append(f"{line[:-1]} ({', '.join(mine)}){line[-1]}")
    return "\n".join(out) + "\n"


CASES = [
    (lang, codec, n, template, inline)
    for lang, codecs in ENCODINGS.items()
    for codec in codecs
    for n in (1, 3, 10)
    for template, inline in (("runbook", False), ("notes", True))
]


@pytest.mark.parametrize(("lang", "codec", "n", "template", "inline"), CASES)
def test_english_with_cjk_words_is_read_right(
    lang: str, codec: str, n: int, template: str, inline: bool
) -> None:
    text = mixed_document(RUNBOOK if template == "runbook" else NOTES, WORDS[lang][:n], inline)
    data = text.encode(codec)
    d = detect(data)
    best = d.best()
    assert best is not None
    assert decode_as(data, best.encoding) == text, (best.encoding, best.confidence, d.ambiguous)
    assert not d.ambiguous


def _word_costs(text: str, language: str) -> list[int]:
    """Bigram + refinement cost (quanta) of each word of ``text`` in ``language``, one character at a time
    (a second, loop-by-loop reading of what the scorer sums: words start the text and follow a run of
    separators, which belongs to the word before)."""
    scorer = get_scorer()
    m = scorer.model
    lang = scorer.lang_idx[language]
    costs: list[int] = []
    prev_local, prev_gid = M.L_SEP, None
    for ch in text:
        gid = int(m.lut[min(ord(ch), 0xFFFF)])
        local = int(m.loc[lang, gid])
        cost = int(m.bigram_q[lang, prev_local, local]) + int(m.ext_q[lang, gid])
        if prev_gid is None or (prev_gid == M.G_SEP and gid != M.G_SEP):
            costs.append(0)
        costs[-1] += cost
        prev_local, prev_gid = local, gid
    return costs


def test_cost_is_the_better_mix_of_two_mains() -> None:
    """EUC-KR reads English and Korean only: the scorer's cost is the better of the mix into Korean (the
    text's best language alone) and the mix into English, each word at most ``MIX_WORD_COST`` dearer
    in the other language."""
    scorer = get_scorer()
    text = "Check the disk (디스크) and the backup job (백업, 서버).\n"  # as dense as a scored sample
    ko, en = _word_costs(text, "ko"), _word_costs(text, "en")
    assert sum(ko) < sum(en)  # best alone as Korean: the case the old mix got wrong
    into_ko = sum(min(k, e + MIX_WORD_COST) for k, e in zip(ko, en, strict=True))
    into_en = sum(min(e, k + MIX_WORD_COST) for k, e in zip(ko, en, strict=True))
    assert into_en < into_ko
    allowed = scorer._allowed(["EUC-KR"])
    rows = [scorer._counts_reference([text], allowed, [2])]
    if scorer.kernel is not None:
        rows.append(scorer.kernel.score([text], allowed, [2], MIX_WORD_COST))
    for ((lang, cost, *_),) in rows:
        assert scorer.model.languages[lang] == "ko"  # the language it reads best in alone
        assert cost == into_en
