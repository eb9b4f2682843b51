"""Deal a full state consistent with what one seat saw: ``determinize`` (RULES.md §14).

A search under hidden information (information-set MCTS) plays many games
from one ``PlayerView``. Each needs a complete ``GameState``: the viewer's
opponents' hands and the bag are dealt at random from the tiles the viewer
cannot see, and the totals hidden behind the other screens are rebuilt from
the public ``vp_scored``/``treasure_taken`` events the viewer saw, or
estimated when no history is given. Only the view (and the event history the
same seat saw) is read, never a ``GameState``: the result cannot depend on
anything the seat does not know.

Which tiles are unseen. With the seat's event history from the start of the
game, the colours of every tile that left the bag are known (placed,
committed in support, the viewer's own swaps) except the colours other seats
swapped out; without it, the face-down tiles under monuments and the
discarded tiles are of unknown colour. Either way the unseen tiles' colours
are ``TILE_TOTALS`` minus the tiles of known colour, and the hands and bag
are a uniformly random draw (without replacement) of the right size from
them: the multivariate hypergeometric distribution, which ignores what the
opponents' play reveals about their hands.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .board import NEIGHBOURS, SQUARE_BY_NAME, SQUARE_NAMES
from .decisions import Conflict, Decision
from .events import Event
from .kinds import Color, ScoreKey
from .kingdoms import label
from .monuments import options as monument_options
from .pieces import (
    COLOR_BY_NAME,
    FACE_DOWN,
    LEADER_NAMES,
    MONUMENT_NAMES,
    MONUMENTS,
    RED,
    TILE_BASE,
    TILE_TOTALS,
    TOTAL_TILES,
    TREASURE_COUNT,
)
from .state import GameState
from .views import PlayerView

Counts = tuple[int, int, int, int]
SeenEvent = Mapping[str, Any] | Event
SeenEvents = Iterable[SeenEvent | Sequence[SeenEvent]]

_MONUMENT_BY_NAME = {n: i for i, n in enumerate(MONUMENT_NAMES)}


def determinize(
    view: PlayerView, rng: random.Random, *, seen_events: SeenEvents | None = None
) -> GameState:
    """Return a full ``GameState`` whose ``view_for(·, view.seat)`` equals ``view`` (RULES.md §14).

    ``view`` is what one seat (or a spectator, ``seat=None``) sees;
    ``rng`` draws the unseen hands, the bag order, any estimated totals and
    the new state's ``seed`` (never the real one). ``seen_events`` is every
    event that seat's log showed since the game began (``new_game``), in
    order and including ``view.events`` (the last action's): a flat iterable
    of event dicts as ``Event.to_dict`` writes them (or ``Event`` values),
    or an iterable of per-ply sequences of them (``[v.events for v in
    views_seen]``). With it, hidden VP and treasure totals are the sums of the public
    ``vp_scored``/``treasure_taken`` events, and the unseen tiles exclude
    every tile whose colour was shown. Without it (``None``), each hidden
    total is estimated: VP as the mean of the totals the seat can see
    (0 when it sees none), the treasures not accounted for shared out evenly.

    Raises ``TypeError`` unless ``view`` is a ``PlayerView``, and
    ``ValueError`` when the view and the history disagree (a history that
    does not start at ``new_game`` or counts an action twice).
    """
    return Determinizer(view, seen_events=seen_events).sample(rng)


class Determinizer:
    """Prepare one view once, then ``sample(rng)`` as many determinized states as needed.

    ``determinize(view, rng, seen_events=h)`` is
    ``Determinizer(view, seen_events=h).sample(rng)``; a search that deals a
    fresh state per iteration from the same view reuses the parsing here.
    Raises as ``determinize`` does.
    """

    __slots__ = (
        "_base",
        "_hidden_hands",
        "_hidden_out",
        "_hidden_totals",
        "_known_hands",
        "_pool",
        "_treasure_spare",
        "_vp",
        "_held",
        "_view",
    )

    def __init__(self, view: PlayerView, *, seen_events: SeenEvents | None = None) -> None:
        """Read ``view`` and ``seen_events`` (see ``determinize``)."""
        if not isinstance(view, PlayerView):
            raise TypeError(f"determinize reads a PlayerView only, not {type(view).__name__}")
        self._view = view
        n = view.num_players
        seat = view.seat
        board = view.cells
        history = None if seen_events is None else _History(seen_events)

        # Hands: the viewer's own (or all, once public); the others are dealt.
        known: dict[int, Counts] = {}
        if view.hands is not None:
            known = {s: _counts(view.hands[s]) for s in range(1, n + 1)}
        elif seat is not None and view.hand is not None:
            known = {seat: _counts(view.hand)}
        self._known_hands = known
        self._hidden_hands = [(s, view.hand_sizes[s]) for s in range(1, n + 1) if s not in known]
        unseen = view.bag_size + sum(size for _, size in self._hidden_hands)

        # The colours of the unseen tiles (§1.2: 57 red, 30 black, 36 blue, 30 green).
        shown = [0, 0, 0, 0]
        for hand in known.values():
            for c in range(4):
                shown[c] += hand[c]
        if history is not None:
            for c in range(4):
                shown[c] += history.left_bag[c]
            shown[RED] += TREASURE_COUNT  # the ten starting temples (§1.3)
            hidden_out = history.swapped - history.discards_seen
        else:
            for cell in board:
                if TILE_BASE <= cell < FACE_DOWN:
                    shown[cell - TILE_BASE] += 1
            on_board = sum(1 for cell in board if TILE_BASE <= cell <= FACE_DOWN)
            in_hands = sum(view.hand_sizes.values())
            hidden_out = (
                TOTAL_TILES
                - on_board
                - in_hands
                - view.bag_size
                + sum(1 for cell in board if cell == FACE_DOWN)
            )
        pool = [TILE_TOTALS[c] - shown[c] for c in range(4)]
        if min(pool) < 0 or sum(pool) != unseen + hidden_out or hidden_out < 0:
            raise ValueError(
                "the view and the seen events disagree about the tiles: "
                f"{pool} unseen by colour for {unseen} hidden and {hidden_out} discarded"
            )
        self._pool = [c for c in range(4) for _ in range(pool[c])]
        self._hidden_out = hidden_out

        # Totals: seen ones as shown, hidden ones from the history or estimated.
        vp: dict[int, Counts] = {}
        held: dict[int, int] = {}
        for s, sheet in view.scores.items():
            vp[s] = (sheet["red"], sheet["black"], sheet["blue"], sheet["green"])
            held[s] = sheet["treasures"]
        hidden = [s for s in range(1, n + 1) if s not in vp]
        taken = TREASURE_COUNT - view.treasures_left
        if history is not None:
            for s in range(1, n + 1):
                got = history.vp.get(s, (0, 0, 0, 0))
                if s in vp and vp[s] != got:
                    raise ValueError(
                        f"seat {s}'s seen VP {vp[s]} differ from the seen events' sum {got}"
                    )
                vp[s] = got
                got_t = history.treasures.get(s, 0)
                if s in held and held[s] != got_t:
                    raise ValueError(f"seat {s}'s treasures differ from the seen events")
                held[s] = got_t
            if sum(held.values()) != taken:
                raise ValueError("the seen events do not account for every treasure taken")
            hidden = []
        elif hidden:
            seen_vp = [vp[s] for s in vp]
            mean = tuple(
                sum(v[c] for v in seen_vp) // len(seen_vp) if seen_vp else 0 for c in range(4)
            )
            for s in hidden:
                vp[s] = (mean[0], mean[1], mean[2], mean[3])
        self._vp = vp
        self._held = held
        self._hidden_totals = hidden
        self._treasure_spare = taken - sum(held.values())
        if self._treasure_spare < 0 or (self._treasure_spare and not hidden):
            raise ValueError("the view's treasure totals do not add up (RULES.md §9)")

        # Everything public, fixed for every sample.
        self._base = _public_fields(view, board, history)

    def sample(self, rng: random.Random) -> GameState:
        """Return one determinized state, drawn with ``rng`` (see ``determinize``)."""
        view = self._view
        n = view.num_players
        pool = self._pool[:]
        rng.shuffle(pool)
        # The last ``hidden_out`` tiles are out of the game; deal hands, the rest is the bag.
        if self._hidden_out:
            del pool[-self._hidden_out :]
        hands = dict(self._known_hands)
        for s, size in self._hidden_hands:
            h = [0, 0, 0, 0]
            for c in pool[len(pool) - size :]:
                h[c] += 1
            del pool[len(pool) - size :]
            hands[s] = (h[0], h[1], h[2], h[3])
        held = dict(self._held)
        if self._hidden_totals:
            spare = self._treasure_spare
            share, extra = divmod(spare, len(self._hidden_totals))
            lucky = set(rng.sample(self._hidden_totals, extra))
            for s in self._hidden_totals:
                held[s] = share + (1 if s in lucky else 0)
        base = self._base
        on_board = sum(1 for cell in base["board"] if TILE_BASE <= cell <= FACE_DOWN)
        in_hands = sum(sum(h) for h in hands.values())
        return GameState(
            num_players=n,
            seed=rng.getrandbits(63),
            open_scoring=view.open_scoring,
            hands=tuple(hands[s] for s in range(1, n + 1)),
            vp=tuple(self._vp[s] for s in range(1, n + 1)),
            treasures_held=tuple(held[s] for s in range(1, n + 1)),
            bag=tuple(pool),
            discarded=TOTAL_TILES - on_board - in_hands - len(pool),
            **base,
        )


class _History:
    """Sum up the events one seat saw: tiles that left the bag, VP and treasures by seat."""

    def __init__(self, seen: SeenEvents) -> None:
        self.left_bag = [0, 0, 0, 0]  # placed, committed, or swapped out in the seat's sight
        self.swapped = 0
        self.discards_seen = 0
        self.vp: dict[int, Counts] = {}
        self.treasures: dict[int, int] = {}
        self.last_tile = -1
        for item in seen:
            if isinstance(item, Mapping | Event):
                self._add(item)
            else:
                for e in item:
                    self._add(e)

    def _add(self, e: SeenEvent) -> None:
        if isinstance(e, Event):
            code, p = e.code, e.params
        else:
            code, p = e["code"], e["params"]
        if code == "tile_placed":
            self.left_bag[COLOR_BY_NAME[p["color"]]] += 1
            self.last_tile = SQUARE_BY_NAME[p["square"]]
        elif code == "support_committed":
            self.left_bag[COLOR_BY_NAME[p["color"]]] += p["count"]
        elif code == "tiles_swapped":
            self.swapped += p["count"]
        elif code == "tiles_discarded":
            for name in p["colors"]:
                self.left_bag[COLOR_BY_NAME[name]] += 1
            self.discards_seen += len(p["colors"])
        elif code == "vp_scored":
            v = list(self.vp.get(p["seat"], (0, 0, 0, 0)))
            v[COLOR_BY_NAME[p["color"]]] += p["amount"]
            self.vp[p["seat"]] = (v[0], v[1], v[2], v[3])
        elif code == "treasure_taken":
            self.treasures[p["seat"]] = self.treasures.get(p["seat"], 0) + 1


def _counts(sheet: Mapping[Color, int] | Mapping[ScoreKey, int]) -> Counts:
    return (sheet["red"], sheet["black"], sheet["blue"], sheet["green"])


def _public_fields(
    view: PlayerView, board: tuple[int, ...], history: _History | None
) -> dict[str, Any]:
    """Return the ``GameState`` fields the view shows outright or implies (§6, §7, §8, §15)."""
    pending = _decision(view.pending)
    unification = SQUARE_BY_NAME[view.unification] if view.unification is not None else -1
    monuments = [-1] * len(MONUMENTS)
    for name, square in view.monuments_built.items():
        monuments[_MONUMENT_BY_NAME[name]] = SQUARE_BY_NAME[square]
    conflict = None
    placed = -1
    if pending is not None:
        if pending.kind == "support":
            conflict = _conflict(view, board, pending, unification)
        if unification >= 0:
            placed = unification  # the unification tile is the tile just placed (§7.1)
        elif pending.kind == "monument":
            placed = _placed_for_monument(board, pending, monuments, history)
    return {
        "board": board,
        "treasures": tuple(sorted(SQUARE_BY_NAME[t] for t in view.treasures)),
        "catastrophes": tuple(view.catastrophes[s] for s in range(1, view.num_players + 1)),
        "monuments": tuple(monuments),
        "active_seat": view.active_seat,
        "actions_left": view.actions_left,
        "pending": pending,
        "conflict": conflict,
        "unification": unification,
        "placed": placed,
        "is_over": view.is_over,
        "end_reason": view.end_reason,
        "events": tuple(Event.from_dict(dict(e)) for e in view.events),
    }


def _decision(pending: Any) -> Decision | None:
    if pending is None or isinstance(pending, Decision):
        return pending
    return Decision.from_dict(pending)


def _conflict(view: PlayerView, board: tuple[int, ...], p: Decision, unification: int) -> Conflict:
    """Rebuild the conflict behind a support decision from the board (§6.2, §7.3)."""
    assert p.conflict is not None and p.color is not None
    assert p.attacker is not None and p.defender is not None
    assert p.attacker_strength is not None and p.defender_strength is not None
    color = COLOR_BY_NAME[p.color]
    leader = LEADER_NAMES[color]
    a_name = view.leaders[p.attacker][leader]
    d_name = view.leaders[p.defender][leader]
    assert a_name is not None and d_name is not None
    a_sq, d_sq = SQUARE_BY_NAME[a_name], SQUARE_BY_NAME[d_name]
    if p.seat == p.attacker:
        a_base, commit = p.attacker_strength, -1
    else:
        # The board has not changed since the conflict began: its base strength is recomputed.
        if p.conflict == "revolt":
            a_base = sum(1 for y in NEIGHBOURS[a_sq] if board[y] == TILE_BASE + RED)
        else:
            regions = label(board, unification)
            tile = TILE_BASE + color
            a_base = sum(1 for x in regions.squares[regions.rid[a_sq]] if board[x] == tile)
        commit = p.attacker_strength - a_base
    return Conflict(
        p.conflict, color, p.attacker, p.defender, a_sq, d_sq, a_base, p.defender_strength, commit
    )


def _placed_for_monument(
    board: tuple[int, ...], p: Decision, built: list[int], history: _History | None
) -> int:
    """Return the square of the tile whose placing offers ``p``'s monuments (§8.1).

    The last tile placed in the history when there is one; otherwise a square
    of every offered block that offers exactly those monuments (any such
    square resolves the offer identically).
    """
    want = list(p.options)

    def offers(square: int) -> bool:
        got = monument_options(board, square, built)
        return [f"{MONUMENT_NAMES[m]} {SQUARE_NAMES[t]}" for m, t in got] == want

    if history is not None and history.last_tile >= 0 and offers(history.last_tile):
        return history.last_tile
    tops = [SQUARE_BY_NAME[o.split()[1]] for o in want]
    common = set.intersection(*({t, t + 1, t + 16, t + 17} for t in tops))
    for square in sorted(common):
        if offers(square):
            return square
    raise ValueError(f"no placed tile offers the monuments {want} (RULES.md §8.1)")


__all__ = ["Determinizer", "determinize"]
