"""The page's boards: one drawing per board kind, from the record's grid; the JavaScript's imports
run one way (no module imports app.js, and no cycle)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from zermelo.core.record import BOARD_KINDS
from zermelo.games.registry import get_game
from zermelo.ui.terminal.boards import VIEWS
from zermelo.ui.web.adapters import KINDS, adapter_for

STATIC = Path(__file__).parents[2] / "src" / "zermelo" / "ui" / "web" / "static"

_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']""", re.M)
_BARE = re.compile(r"""^\s*import\s*["']([^"']+)["']""", re.M)


def imports_of(path: Path) -> set[Path]:
    """The modules ``path`` imports (``import ... from "./x.js"``, across lines too)."""
    text = path.read_text(encoding="utf-8")
    found = _IMPORT.findall(text) + _BARE.findall(text)
    return {(path.parent / target).resolve() for target in found if target.startswith(".")}


def import_graph() -> dict[Path, set[Path]]:
    return {path.resolve(): imports_of(path) for path in STATIC.rglob("*.js")}


def cycle_in(graph: dict[Path, set[Path]]) -> list[Path]:
    """One cycle of ``graph`` (its modules in order), or ``[]``."""
    done: set[Path] = set()
    path: list[Path] = []

    def visit(node: Path) -> list[Path]:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return []
        path.append(node)
        for target in sorted(graph.get(node, ())):
            found = visit(target)
            if found:
                return found
        path.pop()
        done.add(node)
        return []

    for node in sorted(graph):
        found = visit(node)
        if found:
            return found
    return []


def test_the_cycle_finder_finds_a_cycle() -> None:
    a, b, c = Path("/a.js"), Path("/b.js"), Path("/c.js")
    assert cycle_in({a: {b}, b: {c}, c: {a}}) == [a, b, c, a]
    assert cycle_in({a: {b, c}, b: {c}, c: set()}) == []


def test_the_parser_reads_multi_line_imports(tmp_path: Path) -> None:
    (tmp_path / "m.js").write_text(
        'import {\n  a,\n  b,\n} from "./x.js";\nimport "./y.js";\nexport { c } from "./z.js";\n'
    )
    assert {p.name for p in imports_of(tmp_path / "m.js")} == {"x.js", "y.js", "z.js"}


def test_the_javascript_imports_have_no_cycle_and_nothing_imports_app_js() -> None:
    graph = import_graph()
    app = (STATIC / "app.js").resolve()
    assert app in graph and len(graph) >= 10
    for module, targets in graph.items():
        assert all(target in graph for target in targets), (module, targets)
        assert app not in targets, f"{module.relative_to(STATIC)} imports app.js"
    assert cycle_in(graph) == []


def test_app_js_registers_one_renderer_per_board_kind() -> None:
    text = (STATIC / "app.js").read_text(encoding="utf-8")
    assert sorted(re.findall(r'registerBoard\("(\w+)"', text)) == sorted(BOARD_KINDS)
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    kinds = set(re.findall(r'data-kind="(\w+)"', css))
    assert kinds <= set(BOARD_KINDS), kinds


def test_the_record_the_terminal_and_the_page_share_one_vocabulary_of_kinds() -> None:
    assert sorted(KINDS) == sorted(VIEWS) == sorted(BOARD_KINDS)
    for name in ("tictactoe", "connect4", "gomoku", "mnk", "checkers", "chess"):
        adapter = adapter_for(name)
        assert adapter.kind == get_game(name).board == adapter.board(get_game(name).new())["kind"]


@pytest.mark.parametrize(("width", "height"), [(4, 4), (5, 7), (9, 5)])
def test_a_drop_board_has_the_columns_of_its_size(width: int, height: int) -> None:
    adapter = adapter_for("connect4")
    state = get_game("connect4").new(width=width, height=height).play(width - 1)
    board = adapter.board(state)
    assert board["columns"] == [str(c + 1) for c in range(width)]
    assert (board["width"], board["height"]) == (width, height)
    assert board["cells"][-1] == "." * (width - 1) + "X"


def test_a_place_board_names_its_points_in_the_games_notation() -> None:
    spec = get_game("mnk")
    board = adapter_for("mnk").board(spec.new(width=4, height=3, k=3))
    assert board["points"] == [
        ["a3", "b3", "c3", "d3"],
        ["a2", "b2", "c2", "d2"],
        ["a1", "b1", "c1", "d1"],
    ]
    assert adapter_for("mnk").board_kind.marks == "stones"
    assert adapter_for("tictactoe").board_kind.marks == "letters"


def test_the_draughts_board_names_the_cell_a_move_ends_on() -> None:
    adapter = adapter_for("checkers")
    assert adapter.last_cell is not None
    start = get_game("checkers").new()
    assert adapter.last_cell(start, (11, 15)) == [3, 4]
    assert adapter.last_cell(start.play((11, 15)), (22, 18)) == [4, 3]
    assert adapter.last_squares(start, (11, 15)) == ["11", "15"]
    board = adapter.board(start)
    assert board["points"][0] == ["", "1", "", "2", "", "3", "", "4"]
    assert board["cells"][0] == ".b.b.b.b"


def test_the_winning_line_is_the_records() -> None:
    spec = get_game("connect4")
    state = spec.new(width=4, height=4)
    for column in (0, 1, 0, 1, 0, 1, 0):
        state = state.play(column)
    adapter = adapter_for("connect4")
    assert adapter.line(state, adapter.board(state), "X") == [[0, 0], [1, 0], [2, 0], [3, 0]]
