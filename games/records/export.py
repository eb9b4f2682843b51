"""A game's record (docs/record-format.md): every move with its ply, seat, time and source.

``record_for(game_id, user)`` is what ``GET /games/<id>/record.json`` and the API serve:
the whole record of a finished game (seed, every move in the engine's notation, the
result), or, while the game is unfinished, only what ``user`` may see of it (RULES.md §14):
no seed, no bag, no other hand, another seat's swapped colours never, and the requester's
own ``view_for`` at the current ply. ``None`` when the game does not exist, has not started,
or ``user`` may not look at it (a stranger to a private game): the caller answers 404.

The record is built from an explicit list of fields, never from "everything" a model
holds: rows added by other features (private notes, standing orders, chat) can never slip
into an export.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

import engine
from games.core.states import game_state
from games.models import Game, Move, Seat
from games.selectors import games as selectors
from games.selectors.moves import moves_for_record
from games.selectors.visibility import games_visible_to
from games.text.seats import display_name

FORMAT = "tigris-euphrates-record"
FORMAT_VERSION = 1
# The rules the engine implements (RULES.md, first paragraph); an import refuses others.
RULES_EDITION = "ffg-2014-base"

UserLike = AbstractBaseUser | AnonymousUser

# ``Move.source`` values anyone may read while a game runs (the log tells them). Any other
# (a standing order, issue 17) is told as ``player`` to the other seats until the end: a
# player's standing orders are private.
PUBLIC_SOURCES = frozenset({"player", "timeout", "dropped", "bot"})


def viewable_game(
    game_id: int, user: UserLike, *, invite_tokens: list[str] | None = None
) -> Game | None:
    """Return the started game ``user`` may look at, with its seats; else None.

    Who may look is the one rule of the pages and the API (``games_visible_to``).
    """
    visible = games_visible_to(user, invite_tokens=invite_tokens or (), game_id=game_id)
    game = selectors.with_seats(Game.objects.filter(visible, pk=game_id)).first()
    if game is None or game.state is None:
        return None
    return game


def record_for(
    game_id: int, user: UserLike, *, invite_tokens: list[str] | None = None
) -> dict[str, Any] | None:
    """Return the record of game ``game_id`` as ``user`` may see it (format 1), or None.

    A finished game's record is public and complete. An unfinished game's is the
    requester's: ``perspective`` is their seat (None for a spectator of a public game),
    ``seed`` and ``result`` are None, another seat's swap is ``{"action": None, "hidden":
    "swap", "tiles": n}``, and ``view`` is ``engine.view_for(state, seat)`` now.
    """
    game = viewable_game(game_id, user, invite_tokens=invite_tokens)
    if game is None:
        return None
    seat = selectors.seat_for(game, user)
    return game_record(game, seat.position if seat is not None else None)


def game_record(game: Game, perspective: int | None) -> dict[str, Any]:
    """Return the record of a started ``game`` (with its seats) for seat ``perspective``.

    Everything when the game is finished; otherwise what ``perspective`` (None: a
    spectator) may see. The caller has checked that the viewer may look at the game.
    """
    finished = game.status == Game.Status.FINISHED
    state = game_state(game)
    # The plies of the snapshot read: one applied since is not in this record's view.
    moves = [m for m in moves_for_record(game.pk) if m.ply <= game.version]
    record: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "rules": RULES_EDITION,
        "game": {
            "id": game.pk,
            "status": str(game.status),
            "num_players": game.num_players,
            # The scoring mode the game started with, as its snapshot records it.
            "open_scoring": state.open_scoring,
            "is_rated": game.is_rated,
            "days_per_move": game.days_per_move,
            "started_at": _time(game.started_at),
            "finished_at": _time(game.finished_at) if finished else None,
        },
        "complete": finished,
        "perspective": None if finished else perspective,
        "players": [_player(s) for s in game.seats.all() if s.position is not None],
        "seed": game.seed if finished else None,
        # Numbered along the line of play: a ply taken back (issue 16) is not in a record.
        "moves": [_move(m, n, perspective, finished=finished) for n, m in enumerate(moves, 1)],
        "result": _result(state) if finished else None,
    }
    if not finished:
        record["view"] = engine.view_for(state, perspective).to_dict()
    return record


def _time(value: Any) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value is not None else None


def _player(seat: Seat) -> dict[str, Any]:
    """Return a seat's public facts: its number, name, dynasty, whether a bot plays it."""
    return {
        "seat": seat.position,
        "name": display_name(seat.user),
        "dynasty": seat.dynasty,
        "bot": seat.is_bot,
    }


def _move(move: Move, ply: int, perspective: int | None, *, finished: bool) -> dict[str, Any]:
    """Return ``move`` as ply ``ply`` of the line of play; another seat's swap of an
    unfinished game without its colours (RULES.md §14)."""
    out: dict[str, Any] = {
        "ply": ply,
        "seat": move.seat,
        "action": move.action,
        "source": move.source,
        "time": _time(move.created_at),
    }
    if finished or move.seat == perspective:
        return out
    if move.source not in PUBLIC_SOURCES:
        out["source"] = "player"
    seen = engine.seen_action(move.action, player=move.seat, viewer=perspective, game_over=False)
    if isinstance(seen, engine.HiddenSwap):
        out["action"] = None
        out["hidden"] = "swap"
        out["tiles"] = seen.tiles
    return out


def _result(state: engine.GameState) -> dict[str, Any]:
    """Return how the game ended: the reason and each seat's place (RULES.md §13.2)."""
    return {
        "end_reason": state.end_reason,
        "ranking": [p.to_dict() for p in engine.final_ranking(state)],
    }


def record_text(record: dict[str, Any]) -> str:
    """Return ``record`` as a plain-text move list: header lines, then one ply a line.

    ``#``-lines carry the header (a machine-readable format: its words are not
    translated); each move line is ``<ply>. <seat> <action>  ; <source> <time>``.
    """
    game = record["game"]
    lines = [
        f"# {FORMAT} {record['format_version']}",
        f"# rules: {record['rules']}",
        f"# game: {game['id']} ({game['status']}, {game['num_players']} players, "
        f"{'open' if game['open_scoring'] else 'hidden'} scoring)",
    ]
    if not record["complete"]:
        seat = record["perspective"]
        lines.append(f"# perspective: {'spectator' if seat is None else f'seat {seat}'}")
    lines += [
        f"# seat {p['seat']}: {p['name']} ({p['dynasty']}{', bot' if p['bot'] else ''})"
        for p in record["players"]
    ]
    if record["seed"] is not None:
        lines.append(f"# seed: {record['seed']}")
    for m in record["moves"]:
        action = m["action"] if m["action"] is not None else f"swap ({m['tiles']} hidden)"
        lines.append(f"{m['ply']}. {m['seat']} {action}  ; {m['source']} {m['time']}")
    result = record["result"]
    if result is not None:
        lines.append(f"# end: {result['end_reason']}")
        lines += [
            f"# rank {p['rank']}: seat {p['seat']}, score {p['score']} "
            f"(red {p['colors'][0]}, black {p['colors'][1]}, "
            f"blue {p['colors'][2]}, green {p['colors'][3]})"
            for p in result["ranking"]
        ]
    return "\n".join(lines) + "\n"
