"""The minimax-tree explainer: its counts and values against plain minimax, and what it prunes."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from zermelo.core.scores import EVAL_LIMIT
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search import minimax
from zermelo.ui.web.explain import explain, minimax_nodes, minimax_value, record_alphabeta

EMPTY = TicTacToeState.initial()


def _node_relative(score: float, ply: int) -> float:
    if score > EVAL_LIMIT:
        return score + ply
    if score < -EVAL_LIMIT:
        return score - ply
    return score


def test_minimax_counts_the_whole_game_tree() -> None:
    # 549,946 nodes: the well-known size of the tic-tac-toe game tree, the root included.
    assert minimax_nodes(EMPTY) == 549_946
    assert minimax_nodes(EMPTY) == minimax(EMPTY).stats.nodes


@pytest.mark.parametrize("position", [".........", "X...O....", "XO.......", "XX.OO...."])
def test_memoised_minimax_values_agree_with_the_search_package(position: str) -> None:
    state = TicTacToeState.parse(position)
    assert minimax_value(state) == minimax(state).value


def test_alphabeta_visits_fewer_nodes_and_every_bound_holds() -> None:
    records = record_alphabeta(EMPTY)
    assert records[()].nodes < minimax_nodes(EMPTY) / 10
    assert len(records) == records[()].nodes
    pruned_somewhere = 0
    for path, record in records.items():
        state = EMPTY
        for move in path:
            state = state.play(move)
        truth = minimax_value(state)
        seen = _node_relative(record.score, len(path))
        if record.bound == "exact":
            assert seen == truth, path
        elif record.bound == "lower":
            assert truth >= seen, path
        else:
            assert truth <= seen, path
        assert set(record.visited) | set(record.pruned) == set(state.legal_moves())
        assert not set(record.visited) & set(record.pruned)
        pruned_somewhere += bool(record.pruned)
        # A node's count is itself plus what it read below.
        below = sum(records[(*path, m)].nodes for m in record.visited)
        assert record.nodes == 1 + below
    assert pruned_somewhere > 0


def test_explain_returns_the_node_and_its_children() -> None:
    node = explain(EMPTY, [])
    assert node["totals"] == {"minimax": 549_946, "alphabeta": record_alphabeta(EMPTY)[()].nodes}
    assert node["value"]["kind"] == "draw"
    assert [child["move"] for child in node["children"]] == [
        "4",
        "0",
        "2",
        "6",
        "8",
        "1",
        "3",
        "5",
        "7",
    ]
    assert all(child["value"]["kind"] == "draw" for child in node["children"])


def test_children_cut_off_by_alphabeta_are_marked_pruned() -> None:
    # X: 0 1, O: 3 4, X to move; the search order puts 2 first, and 2 wins at once. The root has
    # the full window, so every X move is still read; but after X's 6, O's first reply (2, the
    # block) already shows that 6 is worse than winning now, so O's other replies are cut off.
    root = TicTacToeState.parse("XX.OO....")
    node = explain(root, [])
    assert node["alphabeta"]["visited"] == ["2", "6", "8", "5", "7"]
    assert node["alphabeta"]["pruned"] == []
    assert node["value"] == {"score": 999_999.0, "kind": "win", "winner": "X", "moves": 1}
    after_six = explain(root, ["6"])
    assert after_six["alphabeta"]["visited"] == ["2"]
    assert after_six["alphabeta"]["pruned"] == ["8", "5", "7"]
    assert after_six["alphabeta"]["bound"] == "lower"
    by_move = {child["move"]: child for child in after_six["children"]}
    assert [m for m, child in by_move.items() if child["pruned"]] == ["8", "5", "7"]
    for move in ("8", "5", "7"):
        assert by_move[move]["alphabeta"] is None
        # Inside a cut branch nothing was searched either.
        assert all(child["pruned"] for child in explain(root, ["6", move])["children"])
    # The cut is safe but not blind: O's 5 would even have won; X's 6 is bad either way.
    assert by_move["5"]["value"] == {
        "score": -1_000_000.0,
        "kind": "win",
        "winner": "O",
        "moves": 0,
    }
    assert by_move["2"]["pruned"] is False


def test_explain_refuses_bad_paths() -> None:
    with pytest.raises(ValueError, match="expected a list"):
        explain(EMPTY, "4")
    with pytest.raises(ValueError, match="invalid square"):
        explain(EMPTY, ["9"])
    with pytest.raises(ValueError, match="not legal"):
        explain(EMPTY, ["4", "4"])


def test_tree_endpoint_refuses_other_games_and_long_paths(client: TestClient) -> None:
    response = client.post("/api/tree", json={"game": "tictactoe", "path": ["0"] * 10})
    assert response.status_code == 400
    answer = client.post("/api/tree", json={"game": "tictactoe", "moves": ["4"], "path": ["0"]})
    assert answer.status_code == 200
    node = answer.json()
    assert node["path"] == ["0"]
    assert node["position"] == "O...X.... X"
    assert node["to_move"] == "X"


def test_tree_endpoint_refuses_a_record_that_claims_a_tree_for_another_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The tree is tic-tac-toe's alone: a record (a plugin's, say) that sets explain_tree for
    # another game gets the endpoint's one-line refusal, not a crash inside explain().
    from dataclasses import replace

    from zermelo.ui.web import api
    from zermelo.ui.web.adapters import adapter_for

    real = adapter_for("mnk")
    claims = replace(real, spec=replace(real.spec, explain_tree=True))
    monkeypatch.setattr(
        api, "adapter_for", lambda name: claims if name == "mnk" else adapter_for(name)
    )
    response = client.post("/api/tree", json={"game": "mnk"})
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["type"] == "UnknownGameError"
    assert error["message"].startswith("the minimax tree is not drawn for 'mnk'")
