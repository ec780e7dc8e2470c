import mojifix


def test_all_names_resolve():
    for name in mojifix.__all__:
        assert getattr(mojifix, name) is not None, name


def test_unknown_attribute():
    import pytest

    with pytest.raises(AttributeError):
        mojifix.no_such_thing  # noqa: B018
