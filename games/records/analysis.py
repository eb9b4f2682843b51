"""Positions of the analysis board (``/analysis/``): a start, a main line, a line tried.

An analysis board never touches a real game: nothing here writes a ``Game`` or ``Move``.
Where a board starts decides where it is kept:

- a **finished game** is public and replays from its record, so the board is named in the
  URL alone (``?game=<id>&ply=N&line=…``): links stay short, shareable and bookmarkable,
  and the back button steps back;
- a **pasted** diagram or record, or a position **re-dealt** from a player's own view of
  an unfinished game, cannot be rebuilt from the database (the deal is random, once), so
  its start is kept in the visitor's session under a short random key
  (``?board=<key>&ply=N&line=…``); the session is the visitor's own, and what it holds
  they pasted or were dealt from what they could see.

The moves tried from a position (``line``) are always in the URL: every request replays
them through the engine, which refuses any that is not legal (a URL edited by hand).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

import engine
from games.core.states import replay, state_from_db, state_to_db
from games.models import Game
from games.play.errors import IllegalAction
from games.records.export import game_record, viewable_game
from games.records.replay import RecordError, ReplayedRecord, replay_record
from games.selectors import games as selectors
from games.selectors.moves import moves_all

SESSION_KEY = "analysis_boards"
KEEP_BOARDS = 8  # the session keeps the latest boards a visitor opened
MAX_LINE = 200  # moves tried from one position
MAX_DIAGRAM = 8000  # characters of a pasted diagram

UserLike = AbstractBaseUser | AnonymousUser


class AnalysisError(ValueError):
    """A board that cannot be opened or a move that cannot be tried: a readable message."""


@dataclass(frozen=True)
class Board:
    """Where an analysis starts: ``start`` (secret: pass it to ``view_for``), the ``main``
    line of actions (a record's moves; empty for a diagram), the seats' ``names``, the
    ``kind`` (``game``, ``record``, ``diagram``, ``redealt``), the real ``game_id`` it
    came from (or None), and whether every hand is ``public`` (a finished game, a
    pasted position) or only the dealt seat's own (``seat``, a re-dealt view)."""

    kind: str
    start: engine.GameState
    main: tuple[engine.Action, ...]
    names: dict[int, str] = field(default_factory=dict)
    dynasties: dict[int, str] = field(default_factory=dict)
    game_id: int | None = None
    public: bool = True
    seat: int | None = None
    from_ply: int = 0


@dataclass(frozen=True)
class Position:
    """One position of a board: ``ply`` steps of the main line then the ``line`` tried;
    ``state`` is secret (pass it to ``view_for``)."""

    board: Board
    ply: int
    line: tuple[engine.Action, ...]
    state: engine.GameState


def _boards(session: MutableMapping[str, Any]) -> dict[str, Any]:
    boards = session.get(SESSION_KEY)
    return dict(boards) if isinstance(boards, dict) else {}


def _store(session: MutableMapping[str, Any], entry: dict[str, Any]) -> str:
    """Keep ``entry`` in the session under a new key (the oldest boards dropped); return it."""
    boards = _boards(session)
    key = secrets.token_urlsafe(6)
    boards[key] = entry
    session[SESSION_KEY] = dict(list(boards.items())[-KEEP_BOARDS:])
    return key


def _seat_facts(players: Sequence[dict[str, Any]]) -> tuple[dict[int, str], dict[int, str]]:
    names: dict[int, str] = {}
    dynasties: dict[int, str] = {}
    for p in players:
        seat = p.get("seat")
        if isinstance(seat, int):
            names[seat] = str(p.get("name") or "")[:40]
            dynasties[seat] = str(p.get("dynasty") or "")[:10]
    return names, dynasties


def board_of_game(game_id: int, user: UserLike, *, invite_tokens: list[str] | None = None) -> Board:
    """Return the board of a finished game ``user`` may see, from its record.

    Raises ``AnalysisError`` for a game that is not there, not visible or not finished
    (an unfinished game opens only from the player's own view: ``board_redeal``).
    """
    game = viewable_game(game_id, user, invite_tokens=invite_tokens)
    if game is None:
        raise AnalysisError(_("There is no such game."))
    if game.status in (Game.Status.ABORTED, Game.Status.EXPIRED):
        # Never played to its end: its hands and bag stay hidden, as in a game in progress.
        raise AnalysisError(_("This game was not played to its end: it does not open here."))
    if game.status != Game.Status.FINISHED:
        raise AnalysisError(
            _("Only a finished game opens here; a game in progress opens from your own view.")
        )
    try:
        replayed = replay_record(game_record(game, None))
    except RecordError as exc:  # a stored game that no longer replays (verify_games says so)
        raise AnalysisError(str(exc)) from None
    return _board_of_record("game", replayed, game_id=game.pk)


def _board_of_record(kind: str, replayed: ReplayedRecord, *, game_id: int | None) -> Board:
    names, dynasties = _seat_facts(replayed.players)
    return Board(kind, replayed.start, replayed.actions, names, dynasties, game_id=game_id)


def board_paste_record(session: MutableMapping[str, Any], text: str) -> str:
    """Replay a pasted record and keep it in the session; return the board's key.

    Raises ``RecordError`` (the ply and the reason) for a record that does not replay.
    """
    replayed = replay_record(text)
    start = replayed.start
    return _store(
        session,
        {
            "kind": "record",
            "num_players": start.num_players,
            "seed": start.seed,
            "open_scoring": start.open_scoring,
            "main": [str(a) for a in replayed.actions],
            "players": list(replayed.players),
        },
    )


def board_paste_diagram(session: MutableMapping[str, Any], text: str) -> str:
    """Read a pasted position diagram and keep it in the session; return the board's key.

    Raises ``AnalysisError`` with the diagram's line and reason (``engine.DiagramError``).
    """
    if len(text) > MAX_DIAGRAM:
        raise AnalysisError(_("A diagram has at most %(n)s characters.") % {"n": MAX_DIAGRAM})
    try:
        engine.parse_diagram(text)
    except ValueError as exc:
        raise AnalysisError(_("This diagram cannot be read: %(error)s") % {"error": exc}) from None
    return _store(session, {"kind": "diagram", "diagram": text})


def board_redeal(
    session: MutableMapping[str, Any],
    game_id: int,
    user: UserLike,
    *,
    ply: int | None = None,
    invite_tokens: list[str] | None = None,
) -> str:
    """Deal a position from ``user``'s own view of game ``game_id`` at ``ply``; return its key.

    What the player's seat (a spectator: the public view) saw at ``ply`` (default: now)
    and the events its log showed until then go to ``engine.determinize``, which deals the
    hands it cannot see and the bag anew from the tiles it has not seen, with a fresh
    random generator (never the game's seed): the board shows nothing the player did not
    know (RULES.md §14). Raises ``AnalysisError`` for a game that is not there or not
    visible, or is finished (which opens whole, from its record).
    """
    game = viewable_game(game_id, user, invite_tokens=invite_tokens)
    if game is None:
        raise AnalysisError(_("There is no such game."))
    if game.status == Game.Status.FINISHED:
        raise AnalysisError(_("A finished game opens whole, from its record."))
    seat = selectors.seat_for(game, user)
    position = seat.position if seat is not None else None
    moves = moves_all(game.pk)
    ply = len(moves) if ply is None else max(0, min(ply, len(moves)))
    state = replay(game, moves[:ply])
    view = engine.view_for(state, position)
    seen = [
        [dict(e) for e in m.events if engine.event_visible(e, position, game_over=False)]
        for m in moves[:ply]
    ]
    dealt = engine.determinize(view, random.Random(secrets.randbits(64)), seen_events=seen)
    infos = selectors.seat_infos(game)
    return _store(
        session,
        {
            "kind": "redealt",
            "state": state_to_db(dealt),
            "game_id": game.pk,
            "seat": position,
            "from_ply": ply,
            "players": [
                {"seat": n, "name": i.username, "dynasty": i.dynasty} for n, i in infos.items()
            ],
        },
    )


def board_from_session(session: MutableMapping[str, Any], key: str) -> Board:
    """Return the board kept under ``key``; raise ``AnalysisError`` if it is gone."""
    entry = _boards(session).get(key)
    if not isinstance(entry, dict):
        raise AnalysisError(_("This analysis board is no longer open: load it again."))
    kind = entry.get("kind")
    try:
        if kind == "diagram":
            return Board("diagram", engine.parse_diagram(entry["diagram"]), ())
        names, dynasties = _seat_facts(entry.get("players", []))
        if kind == "record":
            start = engine.new_game(
                entry["num_players"], entry["seed"], open_scoring=entry["open_scoring"]
            )
            main = tuple(engine.Action.parse(a) for a in entry["main"])
            return Board("record", start, main, names, dynasties)
        if kind == "redealt":
            return Board(
                "redealt",
                state_from_db(entry["state"]),
                (),
                names,
                dynasties,
                game_id=entry["game_id"],
                public=False,
                seat=entry["seat"],
                from_ply=entry["from_ply"],
            )
    except (KeyError, TypeError, ValueError):
        pass
    raise AnalysisError(_("This analysis board is no longer open: load it again."))


def position_at(board: Board, ply: int, line: Sequence[str]) -> Position:
    """Return the position ``ply`` steps into the main line (clamped), then ``line`` tried.

    Raises ``AnalysisError`` naming the first tried move that does not read or apply.
    """
    ply = max(0, min(ply, len(board.main)))
    if len(line) > MAX_LINE:
        raise AnalysisError(_("At most %(n)s moves can be tried.") % {"n": MAX_LINE})
    state = board.start
    for action in board.main[:ply]:
        state = engine.apply(state, action)
    tried = []
    for n, text in enumerate(line, start=1):
        try:
            action = engine.Action.parse(text)
            state = engine.apply(state, action)
        except ValueError as exc:  # IllegalActionError is a ValueError too
            raise AnalysisError(
                _("Tried move %(n)s (“%(action)s”) cannot be played: %(error)s")
                % {"n": n, "action": text, "error": _refusal(exc)}
            ) from None
        tried.append(action)
    return Position(board, ply, tuple(tried), state)


def position_try(position: Position, notation: str) -> Position:
    """Return ``position`` with ``notation`` tried next; raise ``AnalysisError`` if refused."""
    try:
        action = engine.Action.parse(notation)
    except ValueError:
        raise AnalysisError(_("Not a valid action: “%(text)s”.") % {"text": notation}) from None
    if len(position.line) >= MAX_LINE:
        raise AnalysisError(_("At most %(n)s moves can be tried.") % {"n": MAX_LINE})
    try:
        state = engine.apply(position.state, action)
    except engine.IllegalActionError as exc:
        raise AnalysisError(_refusal(exc)) from None
    return Position(position.board, position.ply, (*position.line, action), state)


def _refusal(exc: ValueError) -> str:
    """Return the player's words for the engine's refusal (``games.text.messages``)."""
    if isinstance(exc, engine.IllegalActionError):
        return str(IllegalAction(str(exc), code=exc.code, params=exc.params))
    return _("it is not written as an action.")


__all__ = [
    "AnalysisError",
    "Board",
    "Position",
    "RecordError",
    "board_from_session",
    "board_of_game",
    "board_paste_diagram",
    "board_paste_record",
    "board_redeal",
    "position_at",
    "position_try",
]
