from mojifix.cli import main


def test_help_exits_zero(capsys):
    assert main(["--help"]) == 0
    assert "usage: mojifix" in capsys.readouterr().out


def test_no_command_is_usage_error(capsys):
    assert main([]) == 2


def test_unknown_label_is_exit_2(tmp_path, capsys):
    f = tmp_path / "x.txt"
    f.write_bytes(b"abc")
    assert main(["decode", str(f), "-e", "no-such-label"]) == 2
    assert "no-such-label" in capsys.readouterr().err
