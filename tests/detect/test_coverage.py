"""Issue 12's coverage pass: HP Roman-8 is named, and the names it added stay out of the web domain."""

from __future__ import annotations

import pytest

import mojifix
from mojifix.detect import priors
from mojifix.detect.encodings import by_name, candidates_for, canonical_name

ROMAN8 = {
    "fr": "L'été dernier, nous avons visité la forêt près du château; c'était très agréable. "
    "Les élèves ont préparé un goûter à la crème pour la fête de l'école.\n",
    "de": "Die Bäckerei öffnet um acht Uhr; der Käse ist würzig und die Brötchen sind frisch. "
    "Über die Straße gehen wir zum Müller, der schöne Äpfel verkauft.\n",
    "es": "El niño comió una manzana en el jardín; mañana iremos a la estación con Begoña. "
    "¿Dónde está el camión? ¡Qué día más bonito!\n",
}


@pytest.mark.parametrize("lang", sorted(ROMAN8))
def test_hp_roman8_is_named_and_gives_the_text(lang: str) -> None:
    text = ROMAN8[lang]
    data = text.encode("hp_roman8")
    best = mojifix.detect(data).best()
    assert best is not None and best.encoding == "hp-roman8"
    assert data.decode(best.encoding) == text


@pytest.mark.parametrize("name", ["windows-1252", "ISO-8859-15", "cp850", "macintosh"])
def test_western_text_in_other_pages_is_not_taken_for_hp_roman8(name: str) -> None:
    text = ROMAN8["fr"].replace("'", "’") if name == "windows-1252" else ROMAN8["fr"]
    data = text.encode(name if name != "macintosh" else "mac_roman")
    assert mojifix.detect(data).best().encoding != "hp-roman8"


def test_new_names_are_file_domain_only_and_lowest_prior() -> None:
    web = {info.name for info in candidates_for("web")}
    for name in ("hp-roman8", "cp1006", "utf-7"):
        info = by_name(name)
        assert info is not None and not info.web and name not in web
        assert priors.base_prior(name) == priors.OTHER_PRIOR
    assert canonical_name("roman8") == "hp-roman8"
    data = ROMAN8["de"].encode("hp_roman8")
    assert all(c.encoding != "hp-roman8" for c in mojifix.detect(data, domain="web").candidates)


URDU = (
    "لاہور پاکستان کا ایک بڑا اور پرانا شہر ہے جہاں ہر سال لاکھوں لوگ سیر کے لیے آتے ہیں۔\n"
    "صبح کے وقت بازاروں میں بہت رونق ہوتی ہے اور دکاندار اپنی دکانیں کھولتے ہیں۔\n"
)


def test_cp1006_shaped_urdu_is_named_and_gives_the_text() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from detect_coverage import shape

    text = "".join(shape(line, "cp1006") + "\n" for line in URDU.splitlines())
    assert "\ufe8d" in text  # presentation forms (alef isolated), as IBM's page stores them
    data = text.encode("cp1006")
    best = mojifix.detect(data).best()
    assert best is not None and (best.encoding, best.language) == ("cp1006", "ur")
    assert data.decode("cp1006") == text
    assert all(c.encoding != "cp1006" for c in mojifix.detect(data, domain="web").candidates)


def test_presentation_forms_read_as_their_letters() -> None:
    from mojifix.detect.model import load_model

    lut = load_model().lut
    assert lut[0xFE8D] == lut[0x0627] and lut[0xFB58] == lut[0x067E]  # alef, peh initial


def test_cpython_spellings_of_labels_resolve() -> None:
    assert canonical_name("euc_kr") == "EUC-KR"  # CPython's name of the WHATWG label "euc-kr"
    assert canonical_name("utf7") == "utf-7" and canonical_name("cp1006") == "cp1006"
    assert canonical_name("iso8859_9") == "windows-1254"
