"""``zermelo serve``: its options and what it prints."""

from __future__ import annotations

import pytest

from zermelo import cli


def test_serve_binds_loopback_by_default_and_prints_the_address(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[str, int, tuple[str, ...]]] = []
    monkeypatch.setattr(
        "zermelo.ui.web.serve",
        lambda host, port, allowed_hosts, games=(): calls.append((host, port, allowed_hosts)),
    )
    cli.main(["serve", "--lang", "en"])
    assert calls == [("127.0.0.1", 8000, ())]
    assert "http://127.0.0.1:8000/" in capsys.readouterr().out


def test_serve_takes_host_and_port(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[str, int, tuple[str, ...]]] = []
    monkeypatch.setattr(
        "zermelo.ui.web.serve",
        lambda host, port, allowed_hosts, games=(): calls.append((host, port, allowed_hosts)),
    )
    cli.main(["serve", "--host", "::1", "--port", "8123", "--allowed-host", "box.lan"])
    assert calls == [("::1", 8123, ("box.lan",))]
    assert "http://[::1]:8123/" in capsys.readouterr().out


def test_serve_refuses_a_port_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["serve", "--port", "70000"])
    assert exit_info.value.code == 2
    assert "70000" in capsys.readouterr().err
