"""Every string the web page shows, marked for extraction and served translated.

The page itself holds no English: it asks ``/api/messages?lang=xx`` for this list translated
with :func:`zermelo.i18n.translation_for` and looks each string up by its English msgid. ``N_``
only marks a string for Babel (``pybabel extract -k N_``); it returns it unchanged, so nothing is
translated at import time and one server can answer every language at once.

Placeholders in braces (``{n}``, ``{move}``) are filled in by the page after translation.

Messages that count something are pairs marked with :func:`ngettext` here, a no-op that Babel's
default keywords (``ngettext:1,2``) extract as a plural entry. The page gets each pair's singular
and plural translation and takes the singular for exactly one. That rule is right for all five
languages: Dutch and English use the singular for one, and Indonesian, Vietnamese and Turkish
have a single form, which gettext returns for both.
"""

from __future__ import annotations

from zermelo.i18n import LANGUAGES, translation_for

__all__ = [
    "CHANCE_MESSAGES",
    "END_REASONS",
    "PREPARING",
    "WEB_MESSAGES",
    "WEB_PLURALS",
    "best_language",
    "game_messages",
    "messages_for",
    "plurals_for",
]


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark, do not translate"
    return message


def ngettext(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for extraction, like ``N_``; it translates nothing."""
    return singular, plural


END_REASONS: tuple[str, ...] = (
    N_("checkmate"),
    N_("stalemate"),
    N_("threefold repetition"),
    N_("fifty-move rule"),
    N_("insufficient material"),
    N_("one in a row"),
    N_("two in a row"),
    N_("three in a row"),
    N_("four in a row"),
    N_("five in a row"),
    N_("six in a row"),
    N_("seven in a row"),
    N_("a full line"),
    N_("board full"),
    N_("no pieces"),
    N_("no moves"),
    N_("draw rule"),
    N_("one piece each"),
    N_("disc count"),
    N_("last stone taken"),
    N_("reached the goal"),
    N_("all checkers borne off"),
    N_("gammon"),
    N_("backgammon"),
    N_("double dropped"),
    N_("folded"),
    N_("showdown"),
    N_("game over"),
)
"""Every reason a game here gives for its end (tests/web check each game's are listed)."""

WEB_PLURALS: tuple[tuple[str, str], ...] = (
    ngettext("{nodes} node in {ms} ms", "{nodes} nodes in {ms} ms"),
    ngettext("Minimax: {nodes} node", "Minimax: {nodes} nodes"),
    ngettext("Alpha-beta: {nodes} node", "Alpha-beta: {nodes} nodes"),
    # the Learn page
    ngettext("{nodes} node", "{nodes} nodes"),
)


PREPARING = N_("Preparing the fast engine (first run): the AI plays with a slower copy meanwhile.")
"""The note of an AI move played while the game's compiled kernel is built (``preparing``)."""

CHANCE_MESSAGES: tuple[str, ...] = (
    # games of chance and hidden cards: the dice, backgammon and cards boards (js/boards)
    N_("Turn total"),
    N_("Last roll: {face}"),
    N_("die {face}"),
    N_("a card face down"),
    N_("card {card}"),
    N_("Point {point}: {count} of {mark}"),
    N_("Point {point}, empty"),
    N_("No checker of yours can move from {point} now."),
    N_("Type a move"),
    N_("Play"),
    N_("Clear"),
    N_("Points for you: {points}"),
    N_("a card is dealt"),
    N_("rolled {outcome}"),
    # the moves the boards draw as buttons, in the games' notation (Pig, backgammon's cube, poker)
    N_("roll"),
    N_("hold"),
    N_("double"),
    N_("take"),
    N_("drop"),
    N_("check"),
    N_("bet"),
    N_("call"),
    N_("raise"),
    N_("fold"),
    N_("pass"),
    # the boards' facts (Grid.facts labels the games give)
    N_("to move"),
    N_("turn total"),
    N_("die"),
    N_("the die"),
    N_("rolling"),
    N_("your chips in"),
    N_("opponent's chips in"),
    N_("round"),
    N_("goal"),
    N_("dice"),
    N_("cube"),
    N_("pot"),
    N_("bets"),
    N_("betting"),
    # the thinking overlay of a game of chance (js/overlay.js)
    N_("P(win) {p}"),
    N_("{value} points expected"),
    # the tree of a game of chance (js/tree.js)
    N_("probability {p}"),
    N_("expected {value} points for {mark}"),
    N_("{mark} wins with probability {p}"),
    N_("chance node: the mean of its outcomes"),
    N_("Expectiminimax {depth} plies ahead: {nodes} nodes"),
    N_(
        "Expectiminimax: at your decisions the best child, at the dice the mean of the "
        "outcomes weighted by their probabilities. Open a node to see its children."
    ),
)
"""The page's words for games of chance and hidden information."""

WEB_MESSAGES: tuple[str, ...] = (
    # page and controls
    N_("zermelo"),
    N_("Play against the AI and watch it think"),
    N_("Game"),
    N_("Level"),
    N_("easy"),
    N_("medium"),
    N_("hard"),
    # TRANSLATORS: the level of the web page's AI that is a net trained by self-play
    # (AlphaZero-style), offered for the games that ship one.
    N_("learned"),
    # TRANSLATORS: the learned level's search under the AI's last move on the web page.
    N_("{sims} simulations in {ms} ms"),
    N_("Who starts"),
    N_("Columns"),
    N_("Rows"),
    N_("In a row to win"),
    N_("Only exactly that many in a row wins"),
    N_("You"),
    N_("The AI"),
    N_("New game"),
    N_("Undo"),
    N_("Show thinking"),
    N_("Explain"),
    # the review panel (js/review.js)
    N_("Review"),
    N_("Review the game"),
    N_("Reviewing every move..."),
    N_("Evaluation graph"),
    N_("inaccuracy"),
    N_("mistake"),
    N_("blunder"),
    N_("{ply}. {move} {sign} {mark}; best {best}"),
    N_("{moves} moves: {inaccuracies} inaccuracies, {mistakes} mistakes, {blunders} blunders"),
    N_("Language"),
    N_("Board"),
    N_("API"),
    # chess: pieces, promotion and the game's file
    N_("king"),
    N_("queen"),
    N_("rook"),
    N_("bishop"),
    N_("knight"),
    N_("pawn"),
    N_("Choose the piece to promote to."),
    N_("Save as PGN"),
    N_("Flip board"),
    N_("Arrow for the best move"),
    # checkers: sides, pieces and the clicks of a move
    N_("Black"),
    N_("White"),
    N_("black man"),
    N_("white man"),
    N_("black king"),
    N_("white king"),
    N_("Pick one of your pieces."),
    N_("A capture is mandatory: pick a piece that can jump."),
    N_("That piece cannot move."),
    N_("That is not a move for this piece: pick a highlighted square."),
    N_("Several captures end there: click the squares it jumps through, in order."),
    # board
    N_("Square {move}, empty"),
    N_("Square {move}, {mark}"),
    N_("Column {move}"),
    N_("Column {move}, full"),
    N_("last move"),
    # status
    N_("Your turn ({mark})"),
    N_("The AI is thinking…"),
    PREPARING,
    N_("You win!"),
    N_("The AI wins."),
    N_("It's a draw."),
    N_("That move is not allowed: {reason}"),
    N_("Something went wrong: {reason}"),
    N_("You play {mark}; the AI plays {other}."),
    N_("Moves: {moves}"),
    # thinking overlay
    N_("Thinking"),
    N_("Value of each move for the side to move"),
    N_("win in {n}"),
    N_("loss in {n}"),
    N_("won"),
    N_("lost"),
    N_("draw"),
    N_("estimate {value}"),
    N_("win"),
    N_("loss"),
    N_("estimate"),
    N_("Best move"),
    N_("Principal variation"),
    N_("Search"),
    N_("Principal variation: {line}"),
    N_("exact"),
    N_("heuristic"),
    N_("The AI's last move: {move}"),
    N_("Nothing to think about: the game is over."),
    # explain
    N_("The tree of possibilities"),
    N_(
        "Minimax reads every line to the end. Alpha-beta reads the same tree but skips branches "
        "that cannot change the result. Open a node to see its children."
    ),
    N_("Alpha-beta skipped {percent}% of the tree."),
    N_("{mark} to move"),
    N_("{mark} wins in {n}"),
    N_("{mark} has won"),
    N_("pruned"),
    N_("cut off by alpha-beta: it cannot change the value"),
    N_("cut short after {n} of {total} replies: no better than an earlier move"),
    N_("only a bound: every reply here was cut short"),
    N_("Explain is available for tic-tac-toe."),
    N_("Expand"),
    N_("Collapse"),
    N_("current position"),
    # the Learn page
    N_("Learn"),
    N_("Learn minimax"),
    N_("Watch minimax and alpha-beta search the tutorial's examples"),
    N_("The tutorial's worked examples"),
    N_("Example"),
    N_("Example 1: X on 0, O on 1"),
    N_("Example 2: then X on 3, O on 4"),
    N_("Alpha-beta"),
    N_("Minimax"),
    N_("Previous"),
    N_("Next"),
    N_(
        "Greyed moves were never searched: alpha-beta cut them off because alpha ≥ beta. V(s) "
        "≤ v or ≥ v is a bound: the window closed before the exact value was needed."
    ),
    N_("Nodes against depth"),
    N_("Back to the game"),
    N_("{mark} on {square}"),
    N_("{level} to move"),
    N_("MAX"),
    N_("MIN"),
    N_("[α = {alpha}, β = {beta}]"),
    N_(
        "pruned {moves}: α = {alpha} ≥ β = {beta}; MAX already has {alpha} here, and MIN will "
        "not allow more than {beta}, so the other moves cannot matter"
    ),
    N_(
        "pruned {moves}: α = {alpha} ≥ β = {beta}; MIN can already hold MAX to {beta} here, "
        "and MAX has {alpha} elsewhere, so the other moves cannot matter"
    ),
    N_("Step {step} of {steps}"),
    N_("The game is over: there is nothing to search."),
    N_("The position"),
    N_(
        "{mark} (the AI, MAX) is to move. Like the tutorial's get_best_move, the search tries "
        "every free square in order: {moves}. V(s) is +1 when X wins, -1 when O wins, 0 for a "
        "draw."
    ),
    N_("The choice"),
    N_("The AI plays {square}: V(s) = {value}, the first square with the best value."),
    N_(
        "Minimax visited {minimax} nodes; alpha-beta visited {alphabeta} and found the same "
        "value, skipping {percent}% of the tree."
    ),
    N_(
        "The values come back up: each MIN level takes the lowest value of its children, each "
        "MAX level the highest. Alpha-beta stops a level as soon as alpha ≥ beta."
    ),
    N_(
        "The values come back up: each MIN level takes the lowest value of its children, each "
        "MAX level the highest."
    ),
    N_("Root: {mark} to move (MAX), best V(s) so far = {value}"),
    N_("depth d (plies)"),
    N_("nodes visited"),
    N_("minimax"),
    N_("alpha-beta"),
    N_("alpha-beta + table"),
    N_("alpha-beta + table + ordering"),
    N_(
        "b^d and b^(d/2) are the reference lines: O(b^m) for minimax and alpha-beta's best "
        "case O(b^(m/2)), with b = {b}. Every count was measured live on the server, at most "
        "{limit} nodes a search."
    ),
    N_("Counting the nodes of {game}..."),
    # the move list and the position as text
    N_("Moves"),
    N_("First move"),
    N_("Previous move"),
    N_("Next move"),
    N_("Last move"),
    N_("Play from here"),
    N_("Move {n} of {total}"),
    N_("Position as text"),
    N_("Position"),
    N_("Game record"),
    N_("Paste a position or a game"),
    N_("Import"),
    N_("Could not import: {reason}"),
    # the end's reason (the games' termination(), shown in "Game over: {reason}.")
    N_("Game over: {reason}."),
    *END_REASONS,
    # values in a game's unit (zermelo.core.scores.value_text; bare "{value}" needs no words)
    N_("{value} pawns"),
    N_("{value} men"),
    *CHANCE_MESSAGES,
)


def game_messages() -> tuple[str, ...]:
    """The words the games' records give the page: each game's title and its sides' names (the
    records mark them for the catalogs), so that a new game needs no line here."""
    from zermelo.games.registry import all_games

    words: dict[str, None] = {}
    for spec in all_games():
        words[spec.title] = None
        words.update(dict.fromkeys(spec.sides))
    return tuple(words)


def messages_for(code: str) -> dict[str, str]:
    """Each web message (English msgid) and each game's words mapped to their translations in
    ``code``."""
    translations = translation_for(code)
    return {message: translations.gettext(message) for message in (*WEB_MESSAGES, *game_messages())}


def plurals_for(code: str) -> dict[str, list[str]]:
    """Each counted message (by its plural msgid) mapped to its [singular, plural] translation."""
    translations = translation_for(code)
    return {
        plural: [
            translations.ngettext(singular, plural, 1),
            translations.ngettext(singular, plural, 2),
        ]
        for singular, plural in WEB_PLURALS
    }


def best_language(requested: str | None, accept_language: str | None) -> str:
    """The language to answer in: ``requested`` if supported, else the best of ``Accept-Language``.

    ``Accept-Language`` is read as comma-separated ranges with optional ``;q=`` weights; ``nl-BE``
    matches ``nl``. Anything unreadable is skipped; the fallback is English.
    """
    if requested:
        code = requested.strip().lower().replace("_", "-").split("-")[0]
        if code in LANGUAGES:
            return code
    if not accept_language:
        return "en"
    ranked: list[tuple[float, int, str]] = []
    for index, item in enumerate(accept_language.split(",")[:32]):
        parts = item.strip().split(";")
        tag = parts[0].strip().lower()
        weight = 1.0
        for param in parts[1:]:
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        code = tag.split("-")[0]
        if code in LANGUAGES and weight > 0:
            ranked.append((-weight, index, code))
    if not ranked:
        return "en"
    return min(ranked)[2]
