"""Every error line a person sees is in their language: the library's errors carry an English
template and its parameters, and the faces render them through the catalogs, click's own words
included. Each bad input below is run under ``--lang nl/id/vi/tr``; the line must be the
language's, with no English word of the templates left (quoted input is the person's own)."""

from __future__ import annotations

import functools
import pickle
import re
import subprocess
from pathlib import Path

import pytest
from tests.conftest import run_cli

from zermelo.core.errors import N_, BusyError, ParseError, ZermeloError
from zermelo.core.limits import Limits
from zermelo.i18n import translation_for

BAD_INPUTS: list[tuple[str, ...]] = [
    ("play", "chees"),  # unknown game, with a did-you-mean
    ("play", "xyzzy"),  # unknown game, with the list
    ("play", "--level", "x"),  # click: not one of the choices
    ("play", "connect4", "--width", "99"),  # a rule option out of its range
    ("analyze", "connect4", "4444444"),  # neither a position nor moves: a full column
    ("analyze", "tictactoe", "XXXXXXXXXX"),  # a bad position and a bad move
    ("analyze", "tictactoe", "--depth", "-1"),  # click: out of range
    ("analyze", "checkers", "X:nope"),  # a bad draughts FEN and a bad draughts move
    ("explain", "othello", "zz"),  # a bad Othello position and move
    ("explain", "chess", "Ba6"),  # an illegal chess move from the start
    ("explain", "tictactoe"),  # capability missing
    ("explain", "checkers", "--weights", "WEIGHTS"),  # a file where none is taken
    ("explain", "gomoku", "--weights", "WEIGHTS"),  # a damaged weights file
    ("solve", "tictactoe", "--bogus"),  # click: no such option, did you mean
    ("replay", "/nonexistent/games.jsonl"),  # click: no such file
    ("arena", "tictactoe", "hard", "nobody"),  # a bad agent
    ("arena", "tictactoe", "hard", "engine:depth=x"),  # a bad agent option
    ("games", "zzz"),  # click: an extra argument
]

# Words of the English templates; none may be left in a translated line (outside quotes).
ENGLISH = re.compile(
    r"\b(error|expected|unknown|invalid|illegal|did you mean|works on|not on|must be|is not|"
    r"one of|range|no such|weights|holds|neither|nor|board|square|column|position|full|"
    r"value|option|agent|kind|valid|file|exist|extra|argument|move|whole number)\b",
    re.IGNORECASE,
)


# Words that are also the language's own: Indonesian "valid", Dutch "agent" and "extra argument".
SHARED = {"id": ("valid",), "nl": ("agent", "argument", "extra")}


def _unquoted(line: str) -> str:
    """The line without the quoted input and the paths it names."""
    return re.sub(r"'[^']*'|\"[^\"]*\"|/\S+", "''", line)


@pytest.fixture(scope="module")
def weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("weights") / "w.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    return path


@functools.cache
def _english(argv: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    """The English run of ``argv``, once per test process (each input is checked in four
    languages against the same English line)."""
    return run_cli(*argv)


@pytest.mark.parametrize("code", ["nl", "id", "vi", "tr"])
@pytest.mark.parametrize(
    "args",
    # one xdist group per input: its four languages run in one process and share the English run
    [
        pytest.param(args, marks=pytest.mark.xdist_group(f"error-line-{i}"))
        for i, args in enumerate(BAD_INPUTS)
    ],
    ids=[" ".join(args) for args in BAD_INPUTS],
)
def test_the_whole_error_line_is_translated(
    code: str, args: tuple[str, ...], weights: Path
) -> None:
    argv = [str(weights) if arg == "WEIGHTS" else arg for arg in args]
    english = _english(tuple(argv))
    translated = run_cli("--lang", code, *argv)
    assert english.returncode == translated.returncode == 2
    (english_line,) = english.stderr.strip().splitlines()
    (line,) = translated.stderr.strip().splitlines()
    assert ENGLISH.search(_unquoted(english_line)), english_line  # the check can fail
    left = [w for w in ENGLISH.findall(_unquoted(line)) if w.lower() not in SHARED.get(code, ())]
    assert not left, f"{line!r} keeps {left}"


def test_a_template_renders_in_english_by_default_and_translated_on_request() -> None:
    error = ParseError(N_("unknown game {name!r}; did you mean {guess!r}?"), name="x", guess="y")
    assert str(error) == "unknown game 'x'; did you mean 'y'?"
    dutch = translation_for("nl").gettext
    assert error.render(dutch) == "onbekend spel 'x'; bedoelde je 'y'?"
    # Parameters that are errors are rendered in the same language; a finished line stays.
    outer = ZermeloError(N_("cannot read weights file {path!r}: {reason}"), path="p", reason=error)
    assert outer.render(dutch) == (
        "kan gewichtenbestand 'p' niet lezen: onbekend spel 'x'; bedoelde je 'y'?"
    )
    assert ZermeloError("a finished line with {braces}").render(dutch) == (
        "a finished line with {braces}"
    )
    # Errors cross process boundaries with their parameters.
    again = pickle.loads(pickle.dumps(outer))
    assert type(again) is ZermeloError and again.render(dutch) == outer.render(dutch)


@functools.cache
def _english(argv: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    """The English run of ``argv``, once per test process (each input is checked in four
    languages against the same English line)."""
    return run_cli(*argv)


@pytest.mark.parametrize("code", ["nl", "id", "vi", "tr"])
def test_busy_and_limits_are_translated(code: str) -> None:
    translate = translation_for(code).gettext
    busy = BusyError(N_("the server is busy; try again in a moment"))
    assert busy.render(translate) != str(busy)
    with pytest.raises(ZermeloError) as caught:
        Limits(time=-1.0)
    assert str(caught.value) == "time -1.0: expected a number of seconds, 0 or more"
    assert "expected" not in caught.value.render(translate)


def test_a_bad_line_of_solve_is_translated() -> None:
    done = run_cli("--lang", "nl", "solve", "connect4", "99")
    assert (
        "regel 1: ongeldige stelling '99': zet 1 is '9', verwacht een kolomcijfer van 1 tot en met 7"
        in (done.stdout + done.stderr)
    )


def test_a_bad_game_record_is_translated(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("[1]\n")
    done = run_cli("--lang", "nl", "replay", str(path))
    assert done.returncode == 2
    assert done.stderr == (
        f"zermelo: fout: {path}, regel 1: ongeldig partijverslag '[1]': verwacht een JSON-object\n"
    )
