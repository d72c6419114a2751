"""The API described in OpenAPI 3.1, served at ``/api/openapi.json`` and shown at ``/api``."""

from __future__ import annotations

from zermelo.core.jsontext import Json
from zermelo.search.depth_nodes import NODE_GAMES
from zermelo.search.trace import TUTORIAL_GAME

__all__ = ["openapi"]

_GAME_FIELDS: dict[str, Json] = {
    "game": {"type": "string", "description": "Game name, e.g. tictactoe, connect4, gomoku."},
    "options": {
        "type": "object",
        "description": "Game options (see /api/games), each checked against its range.",
    },
    "position": {
        "type": "string",
        "description": "Start position in the game's notation (default: the initial position).",
    },
    "moves": {
        "type": "array",
        "items": {"type": "string"},
        "maxItems": 512,
        "description": (
            "Moves played from the start position, in the game's move notation; in a game of "
            "chance (chance in /api/games) the decisions only, the server drawing every roll and "
            "deal itself."
        ),
    },
    "game_id": {
        "type": "string",
        "pattern": "^[A-Za-z0-9_-]{12}\\.[01]\\.[0-9a-f]{24}$",
        "description": (
            "A game of chance: the id the server issued for it (the answer of a request "
            "without one, and without moves, carries a new one). The server draws the n-th "
            "chance event of the game from an HMAC-SHA-256 of its key and (game_id, n): the "
            "same id and decisions replay the same dice, a client can neither see nor choose "
            "them, and an id is valid only for the game, options and start it was issued for, "
            "and for its side."
        ),
    },
    "human": {
        "type": "string",
        "description": (
            "A game of chance: the side the person plays, by the game's name for it (default "
            "the first side), fixed in the game id when it is issued. A game with hidden "
            "information (hidden in /api/games) answers with that side's view only: never the "
            "other side's cards before the rules show them, nor the AI's search, and "
            "/api/analyze and /api/import refuse it (422); its record holds only what the "
            "person saw."
        ),
    },
}

_BUDGET: dict[str, Json] = {
    "type": "object",
    "description": (
        "The whole request's budget: the server clamps time_ms to 50..3000 (default 1000) and "
        "nodes to 100..400000, and refuses numbers beyond 10^12. The answer comes within the "
        "budget plus a tenth of it (250 ms at most); a search that cannot finish in time gives "
        'a degraded answer, marked "degraded": true.'
    ),
    "properties": {"time_ms": {"type": "number"}, "nodes": {"type": "integer"}},
}

_ERROR: dict[str, Json] = {
    "description": "A request zermelo could not accept: the message names the problem.",
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "properties": {
                    "error": {
                        "type": "object",
                        "properties": {
                            "type": {"type": "string", "example": "IllegalMoveError"},
                            "message": {"type": "string", "example": "square 4 is already taken"},
                        },
                    }
                },
            }
        }
    },
}


def _post(summary: str, description: str, extra: dict[str, Json]) -> dict[str, Json]:
    return {
        "post": {
            "summary": summary,
            "description": description,
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "properties": {**_GAME_FIELDS, **extra},
                        }
                    }
                },
            },
            "responses": {
                "200": {"description": "The answer, as JSON."},
                "400": _ERROR,
                "404": _ERROR,
                "408": _ERROR,
                "413": _ERROR,
                "415": _ERROR,
                "422": _ERROR,
                "431": _ERROR,
                "503": _ERROR,
            },
        }
    }


def openapi() -> dict[str, Json]:
    """The OpenAPI document of the API."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "zermelo web API",
            "version": "1",
            "description": (
                "Stateless: every request carries the game, an optional start position and the "
                "moves played, and the server replays them. Errors are JSON "
                '{"error": {"type", "message"}} with status 400 (bad input, or a Host header '
                "that does not name this server), 404 (unknown game), 408 (body not sent within "
                "5 s), 413 (body over 64 KiB), 415 (a POST body that is not application/json), "
                "422 (illegal move or impossible position), 431 (request line and headers over "
                "16 KiB) or 503 with Retry-After (too many requests waiting, or more than 32 "
                "connections from one address). Searches run under a budget the server clamps, "
                "and stop when their client goes away."
            ),
        },
        "paths": {
            "/api/games": {
                "get": {
                    "summary": "The games this server plays",
                    "description": "Name, title, kind of board (place, drop, draughts, chess, "
                    "or grid for any game, plugins included), the options with their ranges and "
                    "help, the levels, and the initial position of each game; chance, hidden and "
                    "scored say whether it has chance nodes (dice, deals: requests then carry a "
                    "game_id), hidden information (cards) and points. Boards also dice, "
                    "backgammon and cards.",
                    "responses": {"200": {"description": "A list of games."}},
                }
            },
            "/api/messages": {
                "get": {
                    "summary": "The page's strings, translated",
                    "description": "Every string of the page (English msgid to translation). "
                    "The language is the lang parameter if supported, else the best match of "
                    "Accept-Language, else English.",
                    "parameters": [
                        {
                            "name": "lang",
                            "in": "query",
                            "required": False,
                            "description": "Language code: en, id, nl, vi or tr.",
                            "schema": {"type": "string", "enum": ["en", "id", "nl", "vi", "tr"]},
                        }
                    ],
                    "responses": {"200": {"description": "lang, languages and messages."}},
                }
            },
            "/api/state": _post(
                "Replay a game",
                "The position after the moves: board, side to move, legal moves, result. A "
                "draughts board (kind draughts: checkers, international draughts, Turkish dama) "
                "also has paths, every legal move as {move, path, capture}: its notation (a "
                "capture may be written by its ends, 19x30), the names of the squares it visits "
                "in order (origin, then every landing square), and whether it captures; the "
                "page sends a move as its path joined by x (a capture) or - (a step), as in "
                "28x19x8 or d3-d4. files and ranks are its coordinates, plain says every square "
                "is playable (dama), and last the squares of the last move. A game of chance's "
                "answer has game_id, human, history (every move as {side, move, chance}: its "
                "rolls and deals in order, a hidden deal as ?) and payoff (what the first player "
                "won, once the game is over); moves then lists the decisions to send back. A "
                "dice board (Pig) has cells [[first total, second total, turn total, last "
                "roll]] and buttons; a cards board has cells [opponent's cards (? face down), "
                "the board's cards, yours] and buttons; a backgammon board has two rows of "
                "points then bar and tray, points (each cell's name), steps (every legal move "
                "as {move, steps: [[from, to]]}, a step per die) and extra (the cube's moves). "
                "Any board may have facts: [[label, value]], the label an English message id.",
                {},
            ),
            "/api/import": _post(
                "Read a pasted position or game",
                "text in the game's notation (a FEN for chess), the game's own file format (a "
                "PGN), a saved game's two lines (position, then moves) or a list of moves; "
                "returns the request that replays it from now on and its position.",
                {"text": {"type": "string", "description": "The position or game, as text."}},
            ),
            "/api/play": _post(
                "Play a move and let the AI reply",
                "Plays move (if given) for the side to move, then, when ai is true and the game "
                "is not over, the AI's reply at the level; returns the new position, the moves "
                "played and what the AI's search found. In a game of chance the AI moves only "
                "when the decision due is its own, and played lists the outcomes drawn after "
                'each decision ({"by": "chance"}); a hidden game\'s thinking is null.',
                {
                    "move": {"type": "string", "description": "Your move in notation."},
                    "ai": {
                        "type": "boolean",
                        "default": True,
                        "description": "Let the AI reply (default true).",
                    },
                    "level": {
                        "type": "string",
                        "enum": ["easy", "medium", "hard", "az"],
                        "description": "The AI's strength: easy, medium or hard (default); az, "
                        "the learned net, for the games whose levels list it.",
                    },
                    "seed": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": 2**32 - 1,
                        "description": "Seed of the AI's choices among equal moves (default 0).",
                    },
                    "budget": _BUDGET,
                },
            ),
            "/api/analyze": _post(
                "Value every legal move",
                "Each legal move's value for the side to move (win in n, draw, loss in n, or a "
                "heuristic estimate), best first, with the principal variation, nodes and time. "
                "A game of chance's moves also have expected (the expected payoff from the side "
                "to move) and p_win ((expected + 1) / 2 for a game won or lost; null for a game "
                "scored in points).",
                {"budget": _BUDGET},
            ),
            "/api/tree": _post(
                "One node of the minimax tree (tic-tac-toe) or expectiminimax tree (Pig)",
                "The node reached by path from the position, with its children: minimax value "
                "and node count, and what alpha-beta did there (its bound, the children it "
                "visited and those it cut off). A game of chance's node has chance (a chance "
                "node), probability (of the outcome that led to it, null after a decision) and "
                "value {expected, first, p_first}: the expected payoff for the side to move and "
                "for the first player, and the first player's chance to win, by a depth-limited "
                "expectiminimax; a chance node's value is its children's mean by probability.",
                {
                    "path": {
                        "type": "array",
                        "items": {"type": "string"},
                        "maxItems": 40,
                        "description": (
                            "Moves (and outcomes) from the position to the node (default: the "
                            "root); at most 9 for tic-tac-toe, 40 for a game of chance."
                        ),
                    }
                },
            ),
            **_LEARN_PATHS,
            **_REVIEW_PATHS,
        },
    }


def _learn_get(summary: str, description: str, parameters: list[Json]) -> dict[str, Json]:
    return {
        "get": {
            "summary": summary,
            "description": description,
            "parameters": parameters,
            "responses": {"200": {"description": "The answer, as JSON."}, "400": _ERROR},
        }
    }


_LEARN_PATHS: dict[str, Json] = {
    "/api/learn/trace": _learn_get(
        "The Learn page's traced search of a tic-tac-toe position",
        "The tutorial's minimax and alpha-beta searched from the position, the AI being the side "
        "to move (MAX): the root's moves and two plies below each, with V(s) (+1, 0, -1), the "
        'window (alpha, beta; infinities as "inf" and "-inf"), each subtree\'s node count and '
        "the moves alpha-beta cut off. A position whose minimax needs more than 100,000 nodes "
        "(the empty board) is a 400.",
        [
            {
                "name": "example",
                "in": "query",
                "schema": {"type": "string", "enum": ["1", "2"]},
                "description": "The tutorial's worked example: 1 (moves 0 1) or 2 (0 1 3 4).",
            },
            {
                "name": "moves",
                "in": "query",
                "schema": {"type": "string", "maxLength": 200},
                "description": "Or squares 0-8 played from the empty board, such as '0 1'.",
            },
        ],
    ),
    "/api/learn/nodes": _learn_get(
        "Nodes against depth",
        "The nodes that minimax, alpha-beta, alpha-beta with a transposition table and with move "
        "ordering visit to each depth from the game's start, measured on the first request "
        "within a budget and then kept.",
        [
            {
                "name": "game",
                "in": "query",
                "schema": {"type": "string", "enum": list(NODE_GAMES)},
                "description": f"The game (default {TUTORIAL_GAME}).",
            }
        ],
    ),
}


_REVIEW_PATHS: dict[str, Json] = {
    "/api/review": {
        "post": {
            "summary": "Every move of a game judged",
            "description": (
                "Each move's value, the best move and its value, the winning chances lost and the "
                "mark (inaccuracy, mistake, blunder), with the first player's chances after each "
                "move for the evaluation graph. At most 80 moves are reviewed, at 20-500 ms each."
            ),
            "requestBody": {
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "properties": {
                                **_GAME_FIELDS,
                                "pgn": {
                                    "type": "string",
                                    "maxLength": 200_000,
                                    "description": "Or a PGN text to review instead of the game's "
                                    "fields (chess by default).",
                                },
                                "index": {
                                    "type": "integer",
                                    "minimum": 1,
                                    "description": "Which game of the PGN text (default 1).",
                                },
                                "time_ms": {
                                    "type": "number",
                                    "description": "Search time per move in milliseconds, "
                                    "clamped to 20..500 (default 100).",
                                },
                            },
                        }
                    }
                }
            },
            "responses": {"200": {"description": "The review, as JSON."}, "400": _ERROR},
        }
    },
}
