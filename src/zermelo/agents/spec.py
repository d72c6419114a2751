"""Agents written as text, for the command line and for worker processes.

Syntax: ``KIND`` or ``KIND:OPTION=VALUE,OPTION=VALUE``. The kinds and their options:

* ``random``: a uniformly random legal move.
* ``easy``, ``medium``, ``hard``: the game's levels (:func:`zermelo.agents.levels.make_agent`);
  ``time=SECONDS`` sets the thinking time of levels that use one (``hard:time=2``); it is
  :data:`DEFAULT_LEVEL_TIME` when not given, so that a level never reads a big game to the end.
* ``engine``: alpha-beta; ``depth=PLIES``, ``time=SECONDS``, ``noise=SD`` (``engine:depth=3``),
  ``quiescent=yes|no`` (play out pending captures before judging a position at the horizon; for
  games whose states say when a position is quiet). Without depth or time it reads to the end of
  the game (fine for tic-tac-toe only).
* ``uci``: an external UCI chess engine (:class:`zermelo.agents.uci.UciAgent`): ``cmd=PATH``
  (its command line, no commas), ``elo=N`` (sets ``UCI_LimitStrength`` and ``UCI_Elo`` where the
  engine has them), ``time=SECONDS`` (default 1) or ``depth=PLIES`` per move.
* ``gnubg``: GNU Backgammon (backgammon only, :class:`zermelo.agents.backgammon.GnubgAgent`),
  cubeless, through ``/usr/games/gnubg``; ``plies=N`` its search depth in gnubg's count (default
  0, its static evaluation).
* ``mcts``: Monte Carlo tree search; ``iterations=N`` and/or ``time=SECONDS`` per move (default
  ``iterations=1000``), ``c=X`` the exploration constant, ``cutoff=PLIES`` the playout length after
  which the evaluation scores the position (``cutoff=none`` plays out to the end), ``scale=X`` the
  evaluation scale of that cut-off, ``playout=random|greedy``, ``epsilon=X`` (greedy playouts),
  ``reuse=yes|no`` (keep the tree between moves). Games set their own defaults for cutoff and
  scale in their record (``GameSpec.mcts``).
* ``az``: the learned player, AlphaZero-style (:class:`zermelo.agents.az.AzAgent`): PUCT search
  guided by a policy-value net, ``sims=N`` simulations per move (default :data:`DEFAULT_SIMS`,
  at most 100,000); ``net=PATH`` a net exported by ``zermelo learn`` (an ``.npz`` file, no
  commas in its path), else the net shipped for the game (the record's ``learned``). Games
  without a shipped net need ``net=PATH``.

A game's levels are written in the same syntax in its record (``GameSpec.levels``), or name a
factory of the game's own; :func:`make_agent` builds them.

An :class:`AgentSpec` is a plain picklable value: worker processes rebuild the live agent from it
with :meth:`AgentSpec.build`, never receive one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from zermelo.agents.base import Agent, RandomAgent
from zermelo.agents.engine import EngineAgent
from zermelo.agents.mcts import MctsAgent
from zermelo.agents.uci import UciAgent
from zermelo.core.capabilities import PolicyValue
from zermelo.core.errors import (
    N_,
    CapabilityError,
    InvalidOptionError,
    ParseError,
    Phrase,
    ZermeloError,
)
from zermelo.core.record import LEVELS, GameSpec, Ref
from zermelo.core.state import AnyState
from zermelo.games.registry import get_game
from zermelo.search.mcts import epsilon_greedy
from zermelo.search.quiescence import quiescent

if TYPE_CHECKING:
    from zermelo.agents.az import AzAgent

__all__ = [
    "AZ",
    "DEFAULT_LEVEL_TIME",
    "DEFAULT_SIMS",
    "FORMS",
    "MAX_SIMS",
    "AgentSpec",
    "OptionValue",
    "check_level",
    "learned_games",
    "levels_for",
    "make_agent",
    "parse_agent",
]

OptionValue: TypeAlias = int | float | bool | str | None
"""The value of one agent option: a count, a number of seconds or other number, yes/no, a word
or a command line, or ``None`` (``cutoff=none``)."""

_V = TypeVar("_V", int, float, bool, str)

FORMS = (
    "random, easy, medium, hard, hard:time=SECONDS, engine:depth=PLIES, engine:time=SECONDS, "
    "mcts:iterations=N, mcts:time=SECONDS, uci:cmd=PATH[,elo=N][,time=SECONDS], gnubg[:plies=N], "
    "az[:sims=N][,net=PATH]"
)
"""The accepted forms, for error messages and help texts."""

DEFAULT_LEVEL_TIME = 1.0
"""Seconds per move of the levels when the spec gives no ``time``."""

AZ = "az"
"""The learned player's kind, and its level in the faces for a game whose record has
``learned``."""

DEFAULT_SIMS = 200
"""Simulations per move of ``az`` when the spec gives no ``sims``."""

MAX_SIMS = 100_000
"""The most simulations per move ``az`` takes."""

_INT = N_("a whole number")
_POSITIVE = N_("a positive number")
_COMMAND = N_("the command line of a UCI engine")
_NET = N_("the path of a net exported by zermelo learn (.npz)")

# option name -> (kind of value, description for errors)
_OPTIONS: dict[str, dict[str, str]] = {
    "random": {},
    "easy": {"time": _POSITIVE},
    "medium": {"time": _POSITIVE},
    "hard": {"time": _POSITIVE},
    "engine": {
        "depth": _INT,
        "time": _POSITIVE,
        "noise": N_("a number of 0 or more"),
        "quiescent": N_("yes or no"),
    },
    "uci": {"cmd": _COMMAND, "elo": _INT, "time": _POSITIVE, "depth": _INT},
    "gnubg": {"plies": _INT},
    AZ: {"sims": _INT, "net": _NET},
    "mcts": {
        "iterations": _INT,
        "time": _POSITIVE,
        "c": N_("a number of 0 or more"),
        "cutoff": N_("a whole number or none"),
        "scale": _POSITIVE,
        "playout": N_("random or greedy"),
        "epsilon": N_("a number from 0 to 1"),
        "reuse": N_("yes or no"),
    },
}

_GENERIC_LEVELS: dict[str, str] = {
    "easy": "engine:depth=1,noise=3",
    "medium": "engine:depth=2,noise=1",
    "hard": "engine",
}
"""The levels of a game whose record names none: the engine, shallow and blurred, then deep."""


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """A parsed agent: its ``kind``, its ``options`` (name, value) in a canonical order, and
    ``label``, the canonical text (what tables and game records show)."""

    kind: str
    options: tuple[tuple[str, OptionValue], ...] = ()

    @property
    def label(self) -> str:
        if not self.options:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={_show(v)}" for k, v in self.options)

    def __str__(self) -> str:
        return self.label

    def check(self, game: str | GameSpec) -> None:
        """Refuse now, in one line, what :meth:`build` would refuse later in a worker process:
        for ``az``, a game that ships no net or a net file that is missing, unreadable, not a
        net or another game's (it loads the net once). Other kinds are checked when built."""
        if self.kind == AZ:
            self.build(game, seed=0)

    def build(self, game: str | GameSpec, seed: int | None = None) -> Agent:
        """The live agent for ``game`` (its name or its record), its randomness drawn from
        ``seed``."""
        options = dict(self.options)
        label = self.label
        if self.kind == "random":
            return RandomAgent(seed, name=label)
        spec = game if isinstance(game, GameSpec) else get_game(game)
        if self.kind in LEVELS:
            limit = _option(options, "time", float, label)
            agent = make_agent(
                spec,
                self.kind,
                seed=seed,
                time_limit=DEFAULT_LEVEL_TIME if limit is None else limit,
            )
            agent.name = label
            return agent
        if self.kind == "uci":
            command = _option(options, "cmd", str, label)
            if command is None:
                raise InvalidOptionError(f"agent {label!r}: a uci agent needs cmd=PATH")
            return UciAgent(
                command,
                elo=_option(options, "elo", int, label),
                time_limit=_option(options, "time", float, label),
                depth=_option(options, "depth", int, label),
                name=label,
            )
        if self.kind == "gnubg":
            if spec.name != "backgammon":
                raise InvalidOptionError(
                    N_("agent {label!r} plays backgammon only, not {game}"),
                    label=label,
                    game=spec.name,
                )
            from zermelo.agents.backgammon import GnubgAgent

            plies = _option(options, "plies", int, label)
            gnubg = GnubgAgent(0 if plies is None else plies)
            gnubg.name = label
            return gnubg
        if self.kind == AZ:
            return _az_agent(spec, options, seed, label)
        if self.kind == "engine":
            noise = _option(options, "noise", float, label)
            return EngineAgent(
                depth=_option(options, "depth", int, label),
                time_limit=_option(options, "time", float, label),
                noise=0.0 if noise is None else noise,
                seed=seed,
                name=label,
                evaluator=quiescent() if _option(options, "quiescent", bool, label) else None,
            )
        settings: dict[str, OptionValue] = {**spec.mcts, **options}
        iterations = _option(settings, "iterations", int, label)
        time_limit = _option(settings, "time", float, label)
        if iterations is None and time_limit is None:
            iterations = 1000
        playout = None
        if _option(settings, "playout", str, label) == "greedy":
            epsilon = _option(settings, "epsilon", float, label)
            playout = epsilon_greedy(0.25 if epsilon is None else epsilon)
        scale = _option(settings, "scale", float, label)
        reuse = _option(settings, "reuse", bool, label)
        return MctsAgent(
            iterations=iterations,
            time_limit=time_limit,
            seed=seed,
            exploration=_option(settings, "c", float, label),
            playout=playout,
            cutoff=_option(settings, "cutoff", int, label),
            eval_scale=1.0 if scale is None else scale,
            reuse=True if reuse is None else reuse,
            name=label,
        )


def _option(options: Mapping[str, OptionValue], name: str, kind: type[_V], label: str) -> _V | None:
    """Option ``name`` as a ``kind`` (a whole number serves where a number is asked), or ``None``
    when it is not given. An :class:`AgentSpec` built by hand with a value of another kind gets
    one line saying so."""
    value = options.get(name)
    if value is None:
        return None
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return kind(value)
    if isinstance(value, kind) and (kind is bool or not isinstance(value, bool)):
        return value
    raise InvalidOptionError(
        f"agent {label!r}: option {name}={value!r} must be {kind.__name__}, "
        f"not {type(value).__name__}"
    )


def learned_games() -> list[str]:
    """The games whose record ships a learned net (``learned``): the games ``az`` plays without
    ``net=PATH``."""
    from zermelo.games.registry import all_games

    return [spec.name for spec in all_games() if spec.learned is not None]


def levels_for(spec: GameSpec) -> tuple[str, ...]:
    """The levels the faces offer for ``spec``: easy, medium and hard, and :data:`AZ` where the
    record ships a learned net."""
    return (*LEVELS, AZ) if spec.learned is not None else LEVELS


def check_level(spec: GameSpec, level: str) -> None:
    """Refuse the :data:`AZ` level for a game that ships no learned net, in one line naming the
    games that do."""
    if level == AZ and spec.learned is None:
        raise ParseError(
            N_("{game} has no learned net, so no level az: the games with one are {games}"),
            game=spec.name,
            games=", ".join(learned_games()) or "none",
        )


def _az_agent(
    spec: GameSpec, options: Mapping[str, OptionValue], seed: int | None, label: str
) -> AzAgent:
    """The learned player of an ``az`` spec: the net of ``net=PATH``, else the game's shipped
    net, searched ``sims`` times a move."""
    from zermelo.agents.az import AzAgent

    sims = _option(options, "sims", int, label)
    if sims is None:
        sims = DEFAULT_SIMS
    if not 1 <= sims <= MAX_SIMS:
        raise InvalidOptionError(
            N_("agent {label!r}: sims={sims} must be from 1 to {most}"),
            label=label,
            sims=sims,
            most=f"{MAX_SIMS:,}",
        )
    path = _option(options, "net", str, label)
    net = _shipped(spec, label) if path is None else _load_net(spec, path, label)
    agent = AzAgent(net, sims=sims, seed=seed)
    agent.name = label
    return agent


def _shipped(spec: GameSpec, label: str) -> PolicyValue[AnyState]:
    from zermelo.agents.az import shipped_net

    net = shipped_net(spec)
    if net is None:
        raise CapabilityError(
            N_(
                "agent {label!r}: {game} ships no learned net; give net=PATH (a net exported "
                "by zermelo learn), or play az at {games}"
            ),
            label=label,
            game=spec.name,
            games=", ".join(learned_games()) or "none",
        )
    return net


def _load_net(spec: GameSpec, path: str, label: str) -> PolicyValue[AnyState]:
    """The net in the file ``path``, for ``spec``'s game; one line for a file that is missing,
    unreadable, not a net, or a net of another game."""
    from zermelo.agents.az import Net

    try:
        net = Net.load(path)
    except ZermeloError as error:  # NetError: missing, unreadable, not a net, no such game
        raise InvalidOptionError(
            N_("agent {label!r} cannot use its net: {problem}"), label=label, problem=error
        ) from None
    except OSError as error:  # what the loader does not name itself
        raise InvalidOptionError(
            N_("agent {label!r}: cannot read the net {path}: {problem}"),
            label=label,
            path=path,
            problem=error.strerror or type(error).__name__,
        ) from None
    if net.game != spec.name:
        raise InvalidOptionError(
            N_("agent {label!r}: the net {path} plays {net_game}, not {game}"),
            label=label,
            path=path,
            net_game=net.game,
            game=spec.name,
        )
    return net


def make_agent(
    game: str | GameSpec,
    level: str,
    *,
    seed: int | None = None,
    time_limit: float | None = None,
) -> Agent:
    """The agent for ``level`` ("easy", "medium", "hard" or "random") at ``game``, as its record
    says (:attr:`GameSpec.levels`); ``time_limit`` replaces the thinking time of a level that has
    one. The level :data:`AZ` is the learned player with the game's shipped net (no time: it
    searches :data:`DEFAULT_SIMS` simulations). The agent is named after the level."""
    if level == "random":
        return RandomAgent(seed)
    if level == AZ:
        spec = game if isinstance(game, GameSpec) else get_game(game)
        check_level(spec, level)
        learned = AgentSpec(AZ).build(spec, seed)
        learned.name = level
        return learned
    if level not in LEVELS:
        raise ParseError(
            N_("unknown level {level!r}: expected easy, medium, hard or random"), level=level
        )
    spec = game if isinstance(game, GameSpec) else get_game(game)
    entry = spec.levels.get(level)
    if isinstance(entry, Ref):
        made: object = entry.resolve()(seed, time_limit)
        if not isinstance(made, Agent):
            raise TypeError(f"level {level!r} of {spec.name}: {entry.target} made no agent")
        agent: Agent = made
    else:
        text = entry if entry is not None else _GENERIC_LEVELS[level]
        parsed = parse_agent(text)
        if parsed.kind in LEVELS:
            raise ParseError(
                f"level {level!r} of {spec.name} is {text!r}: name an agent, not a level"
            )
        options = dict(parsed.options)
        timed = "time" in options or (entry is None and level == "hard")
        given = _option(options, "time", float, text)
        limit = time_limit if time_limit is not None else given
        if limit is None:
            limit = spec.default_time
        if timed and limit is not None:
            options["time"] = limit
            names = _OPTIONS[parsed.kind]
            parsed = AgentSpec(parsed.kind, tuple((n, options[n]) for n in names if n in options))
        agent = parsed.build(spec, seed)
    agent.name = level
    return agent


def _show(value: OptionValue) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_MOST: dict[str, float] = {
    "depth": 99,
    "iterations": 10_000_000,
    "sims": MAX_SIMS,
    "elo": 4000,
    "cutoff": 1000,
    "time": 3600.0,
    "scale": 1e9,
    "c": 1e9,
    "noise": 1e9,
}
"""The largest value each option takes: every budget an agent is given is finite and bounded."""


def _bad(text: str, problem: str, **params: object) -> ParseError:
    """The error for the agent ``text``: ``problem`` is a template filled with ``params``."""
    return ParseError(
        N_("bad agent {text!r}: {problem}; expected one of {forms}"),
        text=text,
        problem=ParseError(problem, **params),
        forms=FORMS,
    )


def _value(text: str, kind: str, name: str, raw: str) -> OptionValue:
    expected = _OPTIONS[kind][name]
    word = raw.strip().lower()
    if expected in (_COMMAND, _NET):
        if not raw.strip():
            raise _bad(
                text,
                N_("{name}= is empty, {name} must be {expected}"),
                name=name,
                expected=Phrase(expected),
            )
        return raw.strip()
    try:
        if expected == _INT:
            number = int(word)
            if number < 1:
                raise ValueError(word)
            return number
        if expected == "a whole number or none":
            if word == "none":
                return None
            number = int(word)
            if number < 0:
                raise ValueError(word)
            return number
        if expected == "random or greedy":
            if word not in ("random", "greedy"):
                raise ValueError(word)
            return word
        if expected == "yes or no":
            if word not in ("yes", "no", "true", "false", "1", "0"):
                raise ValueError(word)
            return word in ("yes", "true", "1")
        number_f = float(word)
        if not math.isfinite(number_f):
            raise ValueError(word)
        if expected == _POSITIVE and not number_f > 0:
            raise ValueError(word)
        if expected == "a number of 0 or more" and number_f < 0:
            raise ValueError(word)
        if expected == "a number from 0 to 1" and not 0 <= number_f <= 1:
            raise ValueError(word)
        return number_f
    except ValueError:
        raise _bad(
            text,
            N_("{name}={raw!r} is not valid, {name} must be {expected}"),
            name=name,
            raw=raw,
            expected=Phrase(expected),
        ) from None


def _bounded(text: str, name: str, raw: str, value: OptionValue) -> OptionValue:
    most = _MOST.get(name)
    if most is not None and isinstance(value, int | float) and value > most:
        shown = f"{int(most):,}" if float(most).is_integer() else f"{most:g}"
        raise _bad(
            text,
            N_("{name}={raw!r} is too large, {name} must be at most {shown}"),
            name=name,
            raw=raw,
            shown=shown,
        )
    return value


def parse_agent(text: str) -> AgentSpec:
    """Read an agent spec such as ``"mcts:time=1"``; raises :class:`ParseError` quoting ``text``."""
    kind_text, _, rest = text.strip().partition(":")
    kind = kind_text.strip().lower()
    if kind not in _OPTIONS:
        raise _bad(text, N_("unknown kind {kind!r}"), kind=kind_text)
    accepted = _OPTIONS[kind]
    options: dict[str, OptionValue] = {}
    if rest.strip():
        for item in rest.split(","):
            name, equals, raw = item.partition("=")
            name = name.strip().lower()
            if not equals:
                raise _bad(
                    text, N_("option {item!r} has no value (write NAME=VALUE)"), item=item.strip()
                )
            if name not in accepted:
                names = ", ".join(accepted) if accepted else "none"
                raise _bad(
                    text,
                    N_("unknown option {name!r} for {kind} (its options: {names})"),
                    name=name,
                    kind=kind,
                    names=names,
                )
            if name in options:
                raise _bad(text, N_("option {name!r} is given twice"), name=name)
            options[name] = _bounded(text, name, raw, _value(text, kind, name, raw))
    elif rest or text.strip().endswith(":"):
        raise _bad(text, N_("nothing after ':'"))
    if kind == "uci" and "cmd" not in options:
        raise _bad(text, N_("a uci agent needs cmd=PATH, the command of the engine"))
    ordered = tuple((name, options[name]) for name in accepted if name in options)
    return AgentSpec(kind, ordered)
