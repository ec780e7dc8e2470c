import mojifix


def test_all_names_resolve():
    for name in mojifix.__all__:
        assert getattr(mojifix, name) is not None, name


def test_unknown_attribute():
    import pytest

    with pytest.raises(AttributeError):
        mojifix.no_such_thing  # noqa: B018


def test_function_and_subpackage_share_a_name():
    # Importing the subpackages binds the modules to these attributes of mojifix; they must stay
    # callable like the public functions of the same name.
    import mojifix.convert.cli
    import mojifix.detect.cli
    import mojifix.repair.cli

    assert mojifix.repair("CafÃ©").text == "Café"
    assert mojifix.detect(b"caf\xc3\xa9 cr\xc3\xa8me").encoding == "UTF-8"
    assert callable(mojifix.convert)
