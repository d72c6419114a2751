"""The records' capabilities: every reference resolves to what its field's type promises, none
points up into a face, and the faces ask the record, never a game's name."""

from __future__ import annotations

import ast
import dataclasses
import typing
from pathlib import Path

import pytest

import zermelo
from zermelo.core import capabilities
from zermelo.core.codec import Codec
from zermelo.core.errors import CapabilityError, ZermeloError
from zermelo.core.record import CAPABILITIES, GameSpec, Ref, capability_names
from zermelo.games.registry import all_games, game_names

PACKAGE = Path(zermelo.__file__).resolve().parent
FACES = ("cli", "ui", "play", "interop")


def _records() -> list[GameSpec]:
    specs = all_games()
    # The example plugin is on the import path (the with_nim fixture); it must load.
    assert "nim" in game_names() and "nim" in {spec.name for spec in specs}
    return specs


def _promised(field: dataclasses.Field[object]) -> type[object] | None:
    """The capability protocol a record field's ``Ref[...]`` promises."""
    hints = typing.get_type_hints(GameSpec)
    hint = hints[field.name]
    for arm in typing.get_args(hint):
        if typing.get_origin(arm) is Ref:
            (inner,) = typing.get_args(arm)
            origin = typing.get_origin(inner) or inner
            if isinstance(origin, type):
                return origin
    return None


def test_every_capability_field_names_a_protocol_of_core() -> None:
    fields = {field.name: field for field in dataclasses.fields(GameSpec)}
    for name in CAPABILITIES:
        if name == "codec":
            continue
        protocol = _promised(fields[name])
        assert protocol is not None, name
        assert protocol.__module__ == capabilities.__name__, name


def test_every_reference_resolves_to_what_its_field_promises(with_nim: Path) -> None:
    fields = {field.name: field for field in dataclasses.fields(GameSpec)}
    checked = 0
    for spec, name in ((s, n) for s in _records() for n in capability_names(s)):
        checked += 1
        value = getattr(spec, name)
        if name == "codec":
            assert isinstance(value, Codec)
            continue
        assert isinstance(value, Ref), f"{spec.name}.{name}"
        protocol = _promised(fields[name])
        assert protocol is not None
        assert isinstance(value.resolve(), protocol), f"{spec.name}.{name} -> {value.target}"
    assert checked >= 15


def _references(spec: GameSpec) -> list[Ref[object]]:
    found: list[Ref[object]] = []
    for field in dataclasses.fields(spec):
        value = getattr(spec, field.name)
        if isinstance(value, Ref):
            found.append(value)
        elif isinstance(value, typing.Mapping):
            found += [entry for entry in value.values() if isinstance(entry, Ref)]
    return found


def test_no_reference_points_into_a_face(with_nim: Path) -> None:
    for ref in (ref for spec in _records() for ref in _references(spec)):
        module = ref.target.partition(":")[0]
        assert not module.startswith(("zermelo.cli", "zermelo.ui")), ref.target
        ref.resolve()


def test_a_missing_capability_is_one_line_naming_the_games_that_have_it() -> None:
    from zermelo.cli.common import capability
    from zermelo.games.registry import get_game

    spec = get_game("tictactoe")
    with pytest.raises(CapabilityError, match=r"^explain works on .*chess.*, not on tictactoe$"):
        capability(spec, spec.explainer, "explainer", "explain")
    assert not issubclass(CapabilityError, ValueError) and issubclass(CapabilityError, ZermeloError)


# -- no face knows a game -----------------------------------------------------------------------


def _face_modules() -> list[Path]:
    return sorted(path for face in FACES for path in (PACKAGE / face).rglob("*.py"))


def _names() -> set[str]:
    """The names and aliases of the built-in games, less the board kinds' own names (a kind such
    as ``chess`` or ``draughts`` is a drawing the faces know, not a game)."""
    names = set()
    kinds = set()
    for spec in all_games():
        names.add(spec.name)
        names.update(alias for alias in spec.aliases if alias.isidentifier())
        kinds.add(spec.board)
    return names - kinds


def _allowed(node: ast.Constant, parents: dict[ast.AST, ast.AST]) -> bool:
    """A parameter's default (``game: str = "tictactoe"``) is allowed."""
    parent = parents.get(node)
    if isinstance(parent, ast.arguments):
        return node in parent.defaults or node in parent.kw_defaults
    return False


def _literals(path: Path, names: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value in names
            and id(node) not in docstrings
            and not _allowed(node, parents)
        ):
            found.add(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value!r}")
    return sorted(found)


def test_no_face_holds_a_game_name() -> None:
    names = _names()
    found = [hit for path in _face_modules() for hit in _literals(path, names)]
    assert found == []
