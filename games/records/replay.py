"""Import a record: replay it through the engine, or refuse it with the ply and the reason.

``replay_record(data)`` reads a record (docs/record-format.md, a dict or its JSON text),
starts ``engine.new_game`` from its seed and applies every move in order, checking each
ply's number and seat; a record claiming a result must end in exactly that result
(RULES.md §13.2). It writes nothing: no ``Game`` or ``Move`` row is made.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

import engine
from games.play.errors import IllegalAction
from games.records.export import FORMAT, FORMAT_VERSION, RULES_EDITION
from games.text.messages import malformed_action_text

MAX_PLIES = 2000  # a real game ends in a few hundred plies; refuse a record much longer
MAX_SEED = 2**63 - 1


class RecordError(ValueError):
    """A record that does not replay: ``ply`` (0 for the header) and a readable ``reason``."""

    def __init__(self, ply: int, reason: str) -> None:
        super().__init__(ply, reason)
        self.ply = ply
        self.reason = reason

    def __str__(self) -> str:
        if self.ply == 0:
            return _("Record refused: %(reason)s") % {"reason": self.reason}
        return _("Record refused at ply %(ply)s: %(reason)s") % {
            "ply": self.ply,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class ReplayedRecord:
    """A record that replays: the ``start`` and ``final`` states (they hold secrets: pass
    them to ``engine.view_for``), the ``actions`` in order, and the seats' ``players``
    (``{"seat", "name", "dynasty", "bot"}``, as recorded)."""

    start: engine.GameState
    final: engine.GameState
    actions: tuple[engine.Action, ...]
    players: tuple[dict[str, Any], ...]

    @property
    def ranking(self) -> list[dict[str, Any]]:
        """Return the final ranking as the record writes it (empty if unfinished)."""
        if not self.final.is_over:
            return []
        return [p.to_dict() for p in engine.final_ranking(self.final)]


def load_record(text: str | bytes) -> dict[str, Any]:
    """Return the record in JSON ``text``; raise ``RecordError`` (ply 0) if it is not one."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordError(0, _("not JSON (%(error)s)") % {"error": exc}) from None
    except RecursionError:  # thousands of nested brackets: no record is that deep
        raise RecordError(0, _("not JSON (nested too deeply)")) from None
    if not isinstance(data, dict):
        raise RecordError(0, _("a record is a JSON object"))
    return data


def replay_record(data: dict[str, Any] | str | bytes) -> ReplayedRecord:
    """Replay a record through the engine; return the result or raise ``RecordError``.

    Refused, with the ply and the reason: a header that is not format 1 of these rules
    (ply 0), an incomplete record (an unfinished game's export has no seed), a ply out of
    order, a move by the wrong seat, a notation the engine cannot read, an illegal move
    (the engine's words), a move after the game ended, and a result that differs from the
    replay's (the last ply).
    """
    if not isinstance(data, dict):
        data = load_record(data)
    num_players, seed, open_scoring = _header(data)
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise RecordError(0, _("'moves' must be a list"))
    if len(moves) > MAX_PLIES:
        raise RecordError(0, _("more than %(n)s moves") % {"n": MAX_PLIES})
    start = engine.new_game(num_players, seed, open_scoring=open_scoring)
    state = start
    actions = []
    for n, move in enumerate(moves, start=1):
        action = _action(move, n, state)
        try:
            state = engine.apply(state, action)
        except engine.IllegalActionError as exc:
            # The player's words for the engine's refusal (games.text.messages).
            words = str(IllegalAction(str(exc), code=exc.code, params=exc.params))
            raise RecordError(
                n, _("illegal move “%(action)s”: %(error)s") % {"action": action, "error": words}
            ) from None
        actions.append(action)
    _check_result(data.get("result"), state, len(moves))
    return ReplayedRecord(
        start=start,
        final=state,
        actions=tuple(actions),
        players=_players(data.get("players"), num_players),
    )


def _players(players: Any, num_players: int) -> tuple[dict[str, Any], ...]:
    """Return the record's seats as ``{"seat", "name", "dynasty", "bot"}``, typed and bounded.

    Absent or null gives none. Raises ``RecordError`` (ply 0) for anything but a list of
    at most ``num_players`` objects whose ``seat`` is a seat number; a name or dynasty
    that is not text is refused, a long one cut (40 and 10 characters, as the board shows).
    """
    if players is None:
        return ()
    reason = _("'players' must be a list of objects with a seat number, name and dynasty")
    if not isinstance(players, list) or len(players) > num_players:
        raise RecordError(0, reason)
    seats = []
    for p in players:
        if not isinstance(p, dict):
            raise RecordError(0, reason)
        seat, name, dynasty = p.get("seat"), p.get("name", ""), p.get("dynasty", "")
        if type(seat) is not int or not 1 <= seat <= num_players:
            raise RecordError(0, reason)
        if not isinstance(name, str | None) or not isinstance(dynasty, str | None):
            raise RecordError(0, reason)
        seats.append(
            {
                "seat": seat,
                "name": (name or "")[:40],
                "dynasty": (dynasty or "")[:10],
                "bot": p.get("bot") is True,
            }
        )
    return tuple(seats)


def _shown(value: Any) -> str:
    """Return ``repr(value)`` cut to 40 characters, for a refusal that quotes the record."""
    try:
        text = repr(value)
    except RecursionError:
        text = "…"
    return text if len(text) <= 40 else text[:39] + "…"


def _header(data: dict[str, Any]) -> tuple[int, int, bool]:
    """Return the player count, seed and scoring mode; raise ``RecordError`` (ply 0)."""
    if data.get("format") != FORMAT:
        raise RecordError(
            0, _("not a game record (format %(f)s)") % {"f": _shown(data.get("format"))}
        )
    if data.get("format_version") != FORMAT_VERSION:
        raise RecordError(
            0,
            _("format version %(v)s is not supported") % {"v": _shown(data.get("format_version"))},
        )
    if data.get("rules") != RULES_EDITION:
        raise RecordError(
            0, _("rules %(r)s are not this site's") % {"r": _shown(data.get("rules"))}
        )
    game = data.get("game")
    if not isinstance(game, dict):
        raise RecordError(0, _("'game' must be an object"))
    num_players = game.get("num_players")
    if type(num_players) is not int or not 2 <= num_players <= 4:
        raise RecordError(0, _("the number of players must be 2, 3 or 4"))
    seed = data.get("seed")
    if seed is None:
        raise RecordError(
            0, _("the record has no seed: only a finished game's record can be replayed")
        )
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise RecordError(0, _("the seed must be a whole number from 0 to 2⁶³−1"))
    open_scoring = game.get("open_scoring", False)
    if not isinstance(open_scoring, bool):
        raise RecordError(0, _("'open_scoring' must be true or false"))
    return num_players, seed, open_scoring


def _action(move: Any, n: int, state: engine.GameState) -> engine.Action:
    """Return ply ``n``'s action, checked against the record's ply and seat."""
    if not isinstance(move, dict):
        raise RecordError(n, _("a move is an object with its ply, seat and action"))
    if move.get("ply") != n:
        raise RecordError(n, _("ply %(got)s out of order") % {"got": _shown(move.get("ply"))})
    if state.is_over:
        raise RecordError(n, _("the game was already over"))
    if move.get("seat") != state.to_act:
        raise RecordError(
            n,
            _("seat %(got)s moves, but seat %(seat)s must act")
            % {
                "got": _shown(move.get("seat")),
                "seat": state.to_act,
            },
        )
    notation = move.get("action")
    if not isinstance(notation, str):
        raise RecordError(n, _("the move has no action (a hidden swap cannot be replayed)"))
    try:
        return engine.Action.parse(notation)
    except ValueError:
        raise RecordError(n, malformed_action_text(notation)) from None


def _check_result(result: Any, state: engine.GameState, last: int) -> None:
    """Refuse, at the last ply, a recorded result that differs from the replay's."""
    if result is None:
        return
    if not isinstance(result, dict):
        raise RecordError(last, _("'result' must be an object or null"))
    if not state.is_over:
        raise RecordError(last, _("the record claims a result but the game does not end"))
    ranking = [p.to_dict() for p in engine.final_ranking(state)]
    if result.get("ranking") != ranking or result.get("end_reason") != state.end_reason:
        raise RecordError(
            last,
            _("wrong result: the moves give %(got)s")
            % {
                "got": ", ".join(
                    _("seat %(seat)s rank %(rank)s score %(score)s") % p for p in ranking
                )
            },
        )
