"""The CJK family modules are imported at the first use of one of their encodings, not with the package,
and the name table that says which module holds which encoding is the modules' own ``CODECS``."""

from __future__ import annotations

import subprocess
import sys
from importlib import import_module

from mojifix import whatwg
from mojifix.whatwg._tables import ENCODINGS

_CJK_MODULES = ("gb18030", "big5", "euc_jp", "iso_2022_jp", "shift_jis", "euc_kr")


def test_the_table_is_what_the_cjk_modules_define() -> None:
    expected = {
        name: module for module in _CJK_MODULES for name in import_module(f"mojifix.whatwg.{module}").CODECS
    }
    assert expected == whatwg._CJK_FAMILY_OF


def test_every_encoding_has_its_codec_eager_or_lazy() -> None:
    eager = {
        name for module in whatwg._FAMILY_MODULES for name in import_module(f"mojifix.whatwg.{module}").CODECS
    }
    assert not eager & set(whatwg._CJK_FAMILY_OF)
    assert eager | set(whatwg._CJK_FAMILY_OF) == {name for name, _ in ENCODINGS}
    for name, _ in ENCODINGS:
        assert whatwg._CODECS[name].name == name
        assert whatwg._DECODERS[name] == whatwg._CODECS[name].decode


def test_unknown_names_still_raise() -> None:
    for table in (whatwg._CODECS, whatwg._DECODERS):
        try:
            table["x-not-an-encoding"]
        except KeyError:
            continue
        raise AssertionError("an unknown name gave a codec")


_PROBE = """
import sys
import mojifix.whatwg as w
def loaded():
    return sorted(m for m in sys.modules if m.rsplit(".", 1)[-1] in CJK or m == "mojifix.whatwg._cjk")
CJK = {cjk!r}
before = loaded()
text = w.lookup("utf-8").decode("caf\\u00e9".encode()) + w.lookup("latin1").decode(b"\\xe9")
middle = loaded()
sjis = w.lookup("sjis").decode("\\u65e5\\u672c".encode("cp932"))
print(before, middle, loaded(), text == "caf\\u00e9\\u00e9", sjis == "\\u65e5\\u672c")
"""


def test_a_new_process_imports_a_cjk_family_only_when_it_decodes_with_it() -> None:
    """Fails if the package imports the CJK modules again (or a Western decode pulls them in)."""
    out = subprocess.run(
        [sys.executable, "-c", _PROBE.format(cjk=set(_CJK_MODULES))],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert out == ["[]", "[]", "['mojifix.whatwg._cjk',", "'mojifix.whatwg.shift_jis']", "True", "True"]
