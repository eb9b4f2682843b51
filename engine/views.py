"""What one seat may see: ``view_for`` (RULES.md §14)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .board import SQUARE_NAMES
from .kingdoms import label
from .pieces import COLOR_NAMES, LEADER_NAMES, MONUMENT_NAMES
from .state import GameState, board_rows


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Hold everything ``seat`` (None = spectator) may see of a state (RULES.md §14).

    ``board`` is 11 rows of 16 diagram tokens (``r*`` a temple with a
    treasure, ``2P`` seat 2's priest, ``~`` empty river); ``leaders[seat][leader]``
    a square name or None (in supply); ``unification`` the square of the
    unification marker while wars are pending (§7.1), else None; ``kingdoms``
    maps each square of a kingdom (§3) to its kingdom's number, 1.. in square
    order (squares of leaderless regions are absent); ``hand`` the
    viewer's own tile counts by colour name (None for a spectator); ``scores``
    only the totals this viewer may see (``{seat: {red, black, blue, green,
    treasures}}``); ``events`` the last action's events this viewer may see;
    ``legal_actions`` the viewer's legal actions in notation when the viewer
    must act, else ().
    """

    seat: int | None
    num_players: int
    open_scoring: bool
    is_over: bool
    end_reason: str | None
    board: tuple[str, ...]
    treasures: tuple[str, ...]
    unification: str | None
    kingdoms: dict[str, int]
    leaders: dict[int, dict[str, str | None]]
    catastrophes: dict[int, int]
    hand_sizes: dict[int, int]
    hand: dict[str, int] | None
    hands: dict[int, dict[str, int]] | None
    bag_size: int
    monuments_available: tuple[str, ...]
    monuments_built: dict[str, str]
    treasures_left: int
    active_seat: int
    actions_left: int
    to_act: int | None
    pending: dict[str, Any] | None
    scores: dict[int, dict[str, int]]
    events: tuple[dict[str, Any], ...]
    legal_actions: tuple[str, ...]
    ranking: tuple[dict[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        """Return the view as a JSON-able dict (seat keys become strings in JSON)."""
        return {
            "seat": self.seat,
            "num_players": self.num_players,
            "open_scoring": self.open_scoring,
            "is_over": self.is_over,
            "end_reason": self.end_reason,
            "board": list(self.board),
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
            "pending": self.pending,
            "scores": {str(k): v for k, v in self.scores.items()},
            "events": list(self.events),
            "legal_actions": list(self.legal_actions),
            "ranking": list(self.ranking),
        }

    def to_json(self) -> str:
        """Return the view as JSON text with a stable key order."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))


def _counts(c: tuple[int, ...]) -> dict[str, int]:
    return {COLOR_NAMES[i]: c[i] for i in range(4)}


def _kingdom_numbers(state: GameState) -> dict[str, int]:
    kid = label(state.board).kid
    numbers: dict[int, int] = {}
    out: dict[str, int] = {}
    for square, k in enumerate(kid):
        if k >= 0:
            out[SQUARE_NAMES[square]] = numbers.setdefault(k, len(numbers) + 1)
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
    from .legality import legal_actions
    from .scoring import final_ranking

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
    scores = {
        s: {**_counts(state.vp[s - 1]), "treasures": state.treasures_held[s - 1]}
        for s in visible_totals
    }
    events = tuple(
        e.to_dict() for e in state.events if public or e.private_to is None or e.private_to == seat
    )
    mine = seat is not None and state.to_act == seat
    return PlayerView(
        seat=seat,
        num_players=n,
        open_scoring=state.open_scoring,
        is_over=over,
        end_reason=state.end_reason,
        board=tuple(board_rows(state.board, state.treasures)),
        treasures=tuple(SQUARE_NAMES[t] for t in state.treasures),
        unification=SQUARE_NAMES[state.unification] if state.unification >= 0 else None,
        kingdoms=_kingdom_numbers(state),
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
        treasures_left=len(state.treasures),
        active_seat=state.active_seat,
        actions_left=state.actions_left,
        to_act=state.to_act,
        pending=None if state.pending is None else state.pending.to_dict(),
        scores=scores,
        events=events,
        legal_actions=tuple(str(a) for a in legal_actions(state)) if mine else (),
        ranking=tuple(p.to_dict() for p in final_ranking(state)) if over else (),
    )
