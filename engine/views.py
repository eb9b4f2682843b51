"""What one seat may see: ``view_for`` (RULES.md §14)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .board import NUM_SQUARES, SQUARE_BY_NAME, SQUARE_NAMES
from .boardview import (
    LeaderView,
    MonumentView,
    SquareView,
    board_squares,
    leader_views,
    monument_views,
)
from .decisions import Decision
from .events import EventDict, event_visible
from .kinds import Color, EndReason, Leader, MonumentName, ScoreKey
from .kingdoms import label
from .legality import legal_actions
from .pieces import COLOR_NAMES, LEADER_NAMES, MONUMENT_NAMES
from .scoring import Placing, final_ranking
from .state import GameState, board_rows


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Hold everything ``seat`` (None = spectator) may see of a state (RULES.md §14).

    Each thing is held once, typed; ``to_dict`` writes the JSON (the API's and the records'
    shape, unchanged), with the board as diagram rows, the legal actions as notation and the
    ranking as dicts.

    The board: ``squares`` the 176 ``SquareView`` in square order (a1, b1, … p11: piece,
    owner and colour, kingdom number and the sides where the kingdom ends, covering
    monument, treasure, unification marker, river banks), computed once from ``cells`` (the
    board's cell codes, ``engine.pieces``: the engine's own form, read ``squares``);
    ``square(name)`` one of them. ``treasures`` the squares still holding a treasure;
    ``unification`` the square of the unification marker while wars are pending (§7.1),
    else None; ``kingdoms`` maps each square of a kingdom (§3) to its kingdom's number,
    1.. in square order (squares of leaderless regions are absent); ``leaders[seat][leader]``
    a square name or None (in supply), and ``board_leaders`` those on the board with their
    owner and colour; ``monuments_built`` each built monument's top-left square, and
    ``monuments`` the same with the four squares each covers (§8.2).

    The players: ``hand`` the viewer's own tile counts by colour (None for a spectator);
    ``hands`` every hand once they are public (the end), else None; ``scores`` only the
    totals this viewer may see (``{seat: {red, black, blue, green, treasures}}``);
    ``events`` the last action's events this viewer may see; ``actions`` the viewer's legal
    actions (``Action`` values, in ``legal_actions`` order) when the viewer must act, else
    (); ``placings`` the final ranking (empty before the end); ``pending`` the ``Decision``
    waiting, else None (all public, §15).
    """

    seat: int | None
    num_players: int
    open_scoring: bool
    is_over: bool
    end_reason: EndReason | None
    cells: tuple[int, ...] = field(repr=False)
    treasures: tuple[str, ...]
    unification: str | None
    kingdoms: dict[str, int]
    leaders: dict[int, dict[Leader, str | None]]
    catastrophes: dict[int, int]
    hand_sizes: dict[int, int]
    hand: dict[Color, int] | None
    hands: dict[int, dict[Color, int]] | None
    bag_size: int
    monuments_available: tuple[MonumentName, ...]
    monuments_built: dict[MonumentName, str]
    active_seat: int
    actions_left: int
    to_act: int | None
    pending: Decision | None
    scores: dict[int, dict[ScoreKey, int]]
    events: tuple[EventDict, ...]
    actions: tuple[Action, ...] = ()
    placings: tuple[Placing, ...] = ()
    # Derived parts, computed once when first read (outside ``==`` and JSON).
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def squares(self) -> tuple[SquareView, ...]:
        """Return the 176 ``SquareView`` in square order (a1, b1, … p11), computed once."""
        got = self.cache.get("squares")
        if got is None:
            got = board_squares(
                self.cells,
                frozenset(self.treasures),
                self.kingdoms,
                self.monuments,
                self.unification,
            )
            self.cache["squares"] = got
        squares: tuple[SquareView, ...] = got
        return squares

    @property
    def board_leaders(self) -> tuple[LeaderView, ...]:
        """Return every leader on the board with its owner and colour, in square order."""
        return leader_views(self.leaders)

    @property
    def monuments(self) -> tuple[MonumentView, ...]:
        """Return the built monuments with the four squares each covers (RULES.md §8.2)."""
        return monument_views(self.monuments_built)

    @property
    def treasures_left(self) -> int:
        """Return how many treasures are still on the board (RULES.md §9, §13.1)."""
        return len(self.treasures)

    def square(self, name: str) -> SquareView:
        """Return the ``SquareView`` of square ``name`` (``"f7"``); raise ``KeyError``."""
        return self.squares[SQUARE_BY_NAME[name]]

    def to_dict(self) -> dict[str, Any]:
        """Return the view as a JSON-able dict (seat keys become strings in JSON).

        The board is written as 11 rows of 16 diagram tokens (``r*`` a temple with a
        treasure, ``2P`` seat 2's priest, ``~`` empty river), the legal actions as notation
        (``legal_actions``) and the ranking as ``Placing.to_dict`` (``ranking``).
        """
        return {
            "seat": self.seat,
            "num_players": self.num_players,
            "open_scoring": self.open_scoring,
            "is_over": self.is_over,
            "end_reason": self.end_reason,
            "board": board_rows(self.cells, tuple(SQUARE_BY_NAME[t] for t in self.treasures)),
            "treasures": list(self.treasures),
            "unification": self.unification,
            "kingdoms": self.kingdoms,
            "leaders": {str(k): v for k, v in self.leaders.items()},
            "catastrophes": {str(k): v for k, v in self.catastrophes.items()},
            "hand_sizes": {str(k): v for k, v in self.hand_sizes.items()},
            "hand": self.hand,
            "hands": None if self.hands is None else {str(k): v for k, v in self.hands.items()},
            "bag_size": self.bag_size,
            "monuments_available": list(self.monuments_available),
            "monuments_built": self.monuments_built,
            "treasures_left": self.treasures_left,
            "active_seat": self.active_seat,
            "actions_left": self.actions_left,
            "to_act": self.to_act,
            "pending": None if self.pending is None else self.pending.to_dict(),
            "scores": {str(k): v for k, v in self.scores.items()},
            "events": list(self.events),
            "legal_actions": [str(a) for a in self.actions],
            "ranking": [p.to_dict() for p in self.placings],
        }

    def to_json(self) -> str:
        """Return the view as JSON text with a stable key order."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))


def _counts(c: tuple[int, ...]) -> dict[Color, int]:
    return {COLOR_NAMES[i]: c[i] for i in range(4)}


def _totals(vp: tuple[int, ...], treasures: int) -> dict[ScoreKey, int]:
    out: dict[ScoreKey, int] = {COLOR_NAMES[i]: vp[i] for i in range(4)}
    out["treasures"] = treasures
    return out


def _kingdom_numbers(state: GameState) -> list[int]:
    """Return per square its kingdom's number (1.., in square order) or 0 (RULES.md §3)."""
    kid = label(state.board).kid
    numbers: dict[int, int] = {}
    out = [0] * NUM_SQUARES
    for square, k in enumerate(kid):
        if k >= 0:
            out[square] = numbers.setdefault(k, len(numbers) + 1)
    return out


def view_for(state: GameState, seat: int | None, *, game_ended: bool = False) -> PlayerView:
    """Return what ``seat`` (1..N, or None for a spectator) may see of ``state`` (RULES.md §14).

    Never the bag order or seed; another seat's hand never before the end;
    another seat's VP and treasures only in an open-scoring game or after the
    end. ``game_ended`` says the game this state belongs to has ended since
    (a replay of a finished game): every hand, total and private event of
    ``state`` is then public too (§14, "after the game ends, everything is
    public"). Raises ``ValueError`` for a seat outside 1..N.
    """
    n = state.num_players
    if seat is not None and not 1 <= seat <= n:
        raise ValueError(f"seat must be 1..{n} or None, not {seat!r}")
    over = state.is_over
    public = over or game_ended
    positions = state.leader_squares()
    leaders = {
        i + 1: {
            LEADER_NAMES[c]: (SQUARE_NAMES[q] if q >= 0 else None)
            for c, q in enumerate(positions[i])
        }
        for i in range(n)
    }
    visible_totals = [i + 1 for i in range(n) if public or state.open_scoring or seat == i + 1]
    scores = {s: _totals(state.vp[s - 1], state.treasures_held[s - 1]) for s in visible_totals}
    events = tuple(e.to_dict() for e in state.events if event_visible(e, seat, game_over=public))
    mine = seat is not None and state.to_act == seat
    actions = legal_actions(state) if mine else ()
    kingdom_of = _kingdom_numbers(state)
    placings = tuple(final_ranking(state)) if over else ()
    return PlayerView(
        seat=seat,
        num_players=n,
        open_scoring=state.open_scoring,
        is_over=over,
        end_reason=state.end_reason,
        cells=state.board,
        treasures=tuple(SQUARE_NAMES[t] for t in state.treasures),
        unification=SQUARE_NAMES[state.unification] if state.unification >= 0 else None,
        kingdoms={SQUARE_NAMES[q]: k for q, k in enumerate(kingdom_of) if k},
        leaders=leaders,
        catastrophes={i + 1: state.catastrophes[i] for i in range(n)},
        hand_sizes={i + 1: sum(state.hands[i]) for i in range(n)},
        hand=None if seat is None else _counts(state.hands[seat - 1]),
        hands={i + 1: _counts(state.hands[i]) for i in range(n)} if public else None,
        bag_size=len(state.bag),
        monuments_available=tuple(
            MONUMENT_NAMES[m] for m, t in enumerate(state.monuments) if t < 0
        ),
        monuments_built={
            MONUMENT_NAMES[m]: SQUARE_NAMES[t] for m, t in enumerate(state.monuments) if t >= 0
        },
        active_seat=state.active_seat,
        actions_left=state.actions_left,
        to_act=state.to_act,
        pending=state.pending,
        scores=scores,
        events=events,
        actions=tuple(actions),
        placings=placings,
    )
