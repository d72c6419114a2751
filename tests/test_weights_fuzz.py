"""Fuzz the new readers: any bytes as a weights file, any text as a game name, any parameters
in an error's template. Each answers with a value or one line, never a traceback or raw bytes."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import N_, ParseError, UnknownGameError, ZermeloError
from zermelo.games.mnk_eval import FEATURE_NAMES
from zermelo.games.registry import get_game, suggest
from zermelo.i18n import translation_for
from zermelo.solvers._weights import read_named_weights

_JSONISH = st.one_of(
    st.binary(max_size=300),
    st.recursive(
        st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner),
        max_leaves=20,
    ).map(lambda value: json.dumps(value).encode()),
    st.dictionaries(
        st.sampled_from([*FEATURE_NAMES, "x"]), st.floats() | st.integers(), max_size=14
    ).map(lambda weights: json.dumps({"game": "gomoku", "weights": weights}).encode()),
)


@settings(max_examples=150, deadline=None)
@given(data=_JSONISH)
def test_any_bytes_as_a_weights_file(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "w.json"
        path.write_bytes(data)
        try:
            weights, _name = read_named_weights(str(path), "gomoku", FEATURE_NAMES)
        except ParseError as error:
            line = str(error)
            assert "\n" not in line and len(line) < 600
            assert "b'" not in line and "\\x" not in line
        else:
            assert sorted(weights) == sorted(FEATURE_NAMES)


@settings(max_examples=200, deadline=None)
@given(name=st.text(max_size=30))
def test_any_game_name(name: str) -> None:
    try:
        spec = get_game(name)
    except ZermeloError as error:
        line = str(error)
        assert "\n" not in line.strip() or "\n" in name
        if isinstance(error, UnknownGameError) and "did you mean" in line:
            guess = line.rsplit("'", 2)[1]
            assert get_game(guess).name == guess
    else:
        assert spec.name


@given(word=st.text(max_size=12))
def test_a_suggestion_is_one_of_the_known_names(word: str) -> None:
    known = ["chess", "checkers", "connect4", "c4"]
    guess = suggest(word, known)
    assert guess is None or guess in known


@given(value=st.text(max_size=20), other=st.integers())
def test_any_parameters_render_in_every_language(value: str, other: int) -> None:
    error = ParseError(
        N_("option {name}={value!r}: expected a whole number"), name=other, value=value
    )
    for code in ("en", "id", "nl", "vi", "tr"):
        line = error.render(translation_for(code).gettext)
        assert repr(value) in line and str(other) in line
