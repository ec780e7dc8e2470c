"""The corpus generator (demo, tests, benchmark): counts, ground truth that matches the bytes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mojifix.convert.codec import encode_strict, reencode_name
from mojifix.convert.corpus import ENCODINGS, generate
from mojifix.convert.options import Options
from mojifix.convert.verify import examine
from mojifix.detect.result import Candidate, Detection


def test_generate_counts_and_truth(tmp_path: Path) -> None:
    truths = generate(tmp_path, files_per_encoding=4, corrupted=5, seed=3, mean_bytes=800)
    assert len(truths) == 32 and Counter(t.label for t in truths) == dict.fromkeys(ENCODINGS, 4)
    assert sum(1 for t in truths if not t.clean) == 5
    for t in truths:
        data = (tmp_path / t.path).read_bytes()
        assert len(data) == t.size
        codec, _langs, bom = ENCODINGS[t.label]
        if t.clean:
            assert data == bom + t.text.encode(codec)
        else:
            assert t.boundary is not None and t.tail_label is not None
            head = data[len(bom) : t.boundary].decode(codec)
            tail = data[t.boundary :].decode(ENCODINGS[t.tail_label][0])
            assert head + tail == t.text and not tail.isascii()
    gb = [t for t in truths if t.label == "gb18030" and t.clean and not t.short]
    for t in gb:  # GB18030 files hold characters GBK cannot encode
        assert any(ch not in "\n" and _not_gbk(ch) for ch in t.text)


def _not_gbk(ch: str) -> bool:
    try:
        ch.encode("gbk")
    except UnicodeEncodeError:
        return True
    return False


NAMES = ["windows-1252", "GBK", "Big5", "Shift_JIS", "EUC-KR", "UTF-16LE", "KOI8-R", "gb18030"]


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200), st.sampled_from(NAMES))
def test_nothing_is_written_without_the_proof(data: bytes, name: str) -> None:
    """Whatever the bytes and whatever the detector says, a written output re-encodes to the source."""

    def detect(_data: bytes, **_: object) -> Detection:
        return Detection((Candidate(name, 0.9),))

    v = examine(data, Options(), detect)
    bom_len = {"UTF-8": 3, "UTF-16LE": 2, "UTF-16BE": 2}.get(v.bom or "", 0)
    body = data[bom_len:]
    if v.outcome == "converted":
        assert v.verification == "lossless" and v.output is not None and v.encoding is not None
        assert encode_strict(v.output.decode("utf-8"), reencode_name(v.encoding)) == body
    elif v.outcome == "utf8":
        assert v.output == body  # copied as is (BOM stripped by default)
        body.decode("utf-8")
    else:
        assert v.output is None
