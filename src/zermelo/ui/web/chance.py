"""The dice and the deals of the web API: drawn by the server, never chosen by the client.

The API is stateless, and a game of chance must stay so: a client sends only the decisions
played (its own and the AI's) and the id the server issued for the game, and the server replays
the game, drawing every chance outcome afresh. The ``index``-th chance event of a game (its
first roll is 0) is drawn by :func:`zermelo.core.state.sample_outcome` from a
``random.Random`` seeded with an HMAC-SHA-256 of the server's key and ``(game id, index)``:

* the same game id and decisions replay the same dice (a restart too: the key is kept on disk);
* a client cannot see a future roll or deal before the server draws it (it would need the key),
  nor choose one (it sends no outcome, and the id is the server's);
* the game id carries a tag (an HMAC of the key and what the game was issued for: its name,
  options, start position and the side the person plays), so a client cannot make up an id, nor
  carry one over to another game, nor claim the other side's view of a hidden game.

The key is 32 random bytes made with :mod:`secrets` on first use, kept with mode 0600 in the
user's cache directory (``$ZERMELO_CACHE_DIR``, else ``$XDG_CACHE_HOME/zermelo``, else
``~/.cache/zermelo``: where the compiled kernels are kept) as ``web-chance.key``.

An undo drops decisions; replaying fewer decisions draws the same outcomes for the events that
remain. So a person who undoes a roll has seen it: the page's undo is a study aid, as in any
analysis board, and the id a new game gets is new.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import random
import re
import secrets
import threading
from pathlib import Path

from zermelo.core.errors import ParseError, ZermeloError
from zermelo.core.jsontext import Json
from zermelo.core.state import Player
from zermelo.solvers.connect4.aot import cache_dir

__all__ = [
    "KEY_BYTES",
    "KEY_FILE",
    "ServerKeyError",
    "issue_id",
    "key_path",
    "outcome_rng",
    "server_key",
    "verify_id",
]

KEY_FILE = "web-chance.key"
KEY_BYTES = 32
_NONCE_BYTES = 9  # 12 characters of URL-safe base64
_TAG_HEX = 24
GAME_ID = re.compile(r"^([A-Za-z0-9_-]{12})\.([01])\.([0-9a-f]{24})$")
"""A game id: a random nonce, the person's side (0 the first player), the tag."""

_log = logging.getLogger("zermelo.web")
_lock = threading.Lock()
_keys: dict[Path, bytes] = {}


class ServerKeyError(ZermeloError):
    """The server's key can be neither read nor made (an unwritable cache directory): the API
    answers 503 with this line, never a traceback."""


def key_path() -> Path:
    """Where the server's key is kept (see the module's docstring)."""
    return cache_dir() / KEY_FILE


def _make_key(path: Path) -> bytes:
    """A new key written to ``path`` (0600) atomically: a server that loses the race to another
    one reads the winner's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(KEY_BYTES)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(key)
        try:
            os.link(temporary, path)  # fails when another process made it first
        except FileExistsError:
            return path.read_bytes()
    finally:
        temporary.unlink(missing_ok=True)
    return key


def server_key() -> bytes:
    """The server's key, read from :func:`key_path` or made there on first use; a
    :class:`ServerKeyError` line when the cache directory does not allow it."""
    path = key_path()
    try:
        return _server_key(path)
    except OSError as error:
        raise ServerKeyError(
            f"the server cannot keep its key for games of chance at {path} "
            f"({error.strerror or error}): set ZERMELO_CACHE_DIR to a writable directory"
        ) from None


def _server_key(path: Path) -> bytes:
    with _lock:
        known = _keys.get(path)
        if known is not None:
            return known
        try:
            key = path.read_bytes()
        except FileNotFoundError:
            key = _make_key(path)
        if len(key) != KEY_BYTES:
            _log.warning("the web key %s is not %d bytes: a new one replaces it", path, KEY_BYTES)
            path.unlink(missing_ok=True)
            key = _make_key(path)
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
        _keys[path] = key
        return key


def _forget_key() -> None:
    """Read the key from disk again on next use (the tests move the cache directory)."""
    with _lock:
        _keys.clear()


def _tag(nonce: str, human: int, bound: Json) -> str:
    message = json.dumps(["game-id", nonce, human, bound], sort_keys=True, separators=(",", ":"))
    digest = hmac.new(server_key(), message.encode(), hashlib.sha256).hexdigest()
    return digest[:_TAG_HEX]


def issue_id(human: Player, bound: Json) -> str:
    """A new game id for a person playing ``human``, bound to ``bound`` (the game's name, options
    and start position as JSON)."""
    nonce = secrets.token_urlsafe(_NONCE_BYTES)
    return f"{nonce}.{int(human)}.{_tag(nonce, int(human), bound)}"


def verify_id(game_id: object, bound: Json) -> Player:
    """The side of the person of the game ``game_id``, when the server issued it for ``bound``;
    else a :class:`ParseError` saying what is expected."""
    match = GAME_ID.match(game_id) if isinstance(game_id, str) else None
    if match is None or not hmac.compare_digest(
        match.group(3), _tag(match.group(1), int(match.group(2)), bound)
    ):
        shown = str(game_id)[:48]
        raise ParseError(
            f"game_id {shown!r}: expected the id the server issued for this game "
            "(ask /api/state without one for a new game)"
        )
    return Player(int(match.group(2)))


def outcome_rng(game_id: str, index: int) -> random.Random:
    """The generator that draws the ``index``-th chance event of the game ``game_id``."""
    message = f"chance\0{game_id}\0{index}".encode()
    digest = hmac.new(server_key(), message, hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))
