"""A mutable working copy of a ``GameState`` used inside ``apply``.

``Work(state)`` copies the tuples into lists, the rule modules change it, and
``freeze()`` returns the new immutable state: copy-on-write, so ``apply``
never mutates its input. The new state inherits its parent's board analysis
so that its own is a local update (analysis.derive), and ``log=False`` skips
building the events (the fast path of playouts).
"""

from __future__ import annotations

from typing import Any

from .analysis import analysis
from .board import NEIGHBOURS, SQUARE_NAMES
from .decisions import Conflict, Decision
from .events import Event
from .kinds import EndReason, EventCode
from .kingdoms import Regions, label, relabel
from .pieces import (
    COLOR_NAMES,
    EMPTY,
    LEADER_BASE,
    LEADER_NAMES,
    RED,
    TILE_BASE,
    cell_leader,
)
from .state import GameState

# Setting an event's slots directly (``Work.emit``, several times a ply).
_new = object.__new__
_set_code, _set_params, _set_private_to = (
    getattr(Event, name).__set__ for name in ("code", "params", "private_to")
)


class Work:
    """Hold every field of a state as mutable lists while one action resolves."""

    __slots__ = (
        "num_players",
        "seed",
        "open_scoring",
        "board",
        "treasures",
        "hands",
        "vp",
        "treasures_held",
        "catastrophes",
        "bag",
        "discarded",
        "monuments",
        "active",
        "actions_left",
        "pending",
        "conflict",
        "unification",
        "placed",
        "is_over",
        "end_reason",
        "events",
        "leaders",
        "log",
        "parent",
        "touched",
        "_memo_writes",
        "_memo",
        "_changed_writes",
        "_changed",
        "_apart",
        "_tuple",
    )

    def __init__(self, st: GameState, *, log: bool = True) -> None:
        """Copy ``st`` into mutable fields (events start empty; none are kept unless ``log``)."""
        self.num_players = st.num_players
        self.seed = st.seed
        self.open_scoring = st.open_scoring
        self.board = list(st.board)
        self.treasures = st.treasures  # sorted; replaced, not changed, when one is taken
        # The state's tuples, each replaced when written (``set_hand``).
        self.hands: list[tuple[int, int, int, int]] = list(st.hands)
        # Written rarely: kept as the state's tuples and replaced when written.
        self.vp = st.vp
        self.treasures_held = st.treasures_held
        self.catastrophes = st.catastrophes
        self.bag = st.bag  # a tuple: drawn from by slicing, so rarely copied
        self.discarded = st.discarded
        self.monuments = st.monuments
        self.active = st.active_seat
        self.actions_left = st.actions_left
        self.pending: Decision | None = st.pending
        self.conflict: Conflict | None = st.conflict
        self.unification = st.unification
        self.placed = st.placed
        self.is_over = st.is_over
        self.end_reason = st.end_reason
        self.events: list[Event] = []
        # The state's tuples until a leader moves (``set_leader``).
        self.leaders: tuple[tuple[int, ...], ...] = st.leader_squares()
        self.log = log
        self.parent = st
        self.touched: list[int] = []  # squares written since the copy, for local updates
        self._memo_writes = -1  # len(touched) when _memo was made
        self._memo: tuple[Regions, list[int]] | None = None
        self._changed_writes = -1  # len(touched) when _changed was made
        self._changed: list[int] = []
        # (len(touched), skip, regions): the last labelling with a square set apart, which a
        # state made by apply passes on while its board is unchanged (a war's decisions).
        self._apart: tuple[int, int, Regions] | None = None
        self._tuple: tuple[int, tuple[int, ...]] = (0, st.board)  # (len(touched), board tuple)
        got = st.cache.get("apart")
        if got is not None:
            self._apart = (0, got[0], got[1])

    def freeze(self) -> GameState:
        """Return the immutable state holding the current values."""
        parent = self.parent
        st = GameState._make(
            (
                self.num_players,
                self.seed,
                self.open_scoring,
                self.board_tuple(),
                self.treasures,
                tuple(self.hands),
                self.vp,
                self.treasures_held,
                self.catastrophes,
                self.bag,
                self.discarded,
                self.monuments,
                self.active,
                self.actions_left,
                self.pending,
                self.conflict,
                self.unification,
                self.placed,
                self.is_over,
                self.end_reason,
                tuple(self.events),
            )
        )
        st.cache["leaders"] = self.leaders
        apart = self._apart
        if apart is not None and apart[0] == len(self.touched):
            st.cache["apart"] = (apart[1], apart[2])
        cache = parent.cache
        if "analysis" in cache or "base" in cache:
            # The parent's analysis (derived on demand, cheaply) seeds the child's.
            memo = self._memo if self._memo_writes == len(self.touched) else None
            st.cache["base"] = (analysis(parent), parent.board, self.changed(), memo)
        return st

    # --- small helpers shared by the rule modules -------------------------

    def emit(self, code: EventCode, private_to: int | None = None, **params: Any) -> None:
        """Append an event (unless events are not kept)."""
        if self.log:
            event = _new(Event)  # the frozen dataclass's __init__ costs twice as much
            _set_code(event, code)
            _set_params(event, params)
            _set_private_to(event, private_to)
            self.events.append(event)

    def regions(self, skip: int = -1) -> Regions:
        """Return the regions of the current board, ``skip`` counted as empty (§3).

        Without ``skip`` they are derived from the parent state's regions
        (kingdoms.relabel) and remembered until the board changes again; with
        it, the last labelling is remembered the same way, and passed on to
        the next state while the board stays as it is.
        """
        if skip >= 0:
            apart = self._apart
            writes = len(self.touched)
            if apart is not None and apart[0] == writes and apart[1] == skip:
                return apart[2]
            got = label(self.board, skip)
            self._apart = (writes, skip, got)
            return got
        if self._memo is not None and self._memo_writes == len(self.touched):
            return self._memo[0]
        board = self.board_tuple()
        changed = self.changed()
        parent = analysis(self.parent).regions
        if changed:
            self._memo = relabel(parent, self.parent.board, board, changed)
        else:
            self._memo = (parent, [])
        self._memo_writes = len(self.touched)
        return self._memo[0]

    def set_hand(self, seat: int, hand: list[int]) -> None:
        """Replace ``seat``'s hand by the counts ``hand`` (red, black, blue, green)."""
        self.hands[seat - 1] = (hand[0], hand[1], hand[2], hand[3])

    def add_tiles(self, seat: int, color: int, delta: int) -> None:
        """Add ``delta`` tiles of ``color`` to ``seat``'s hand (negative: played or committed)."""
        hand = list(self.hands[seat - 1])
        hand[color] += delta
        self.set_hand(seat, hand)

    def set_leader(self, seat: int, color: int, square: int) -> None:
        """Record that ``seat``'s leader of ``color`` now stands on ``square`` (-1: in supply)."""
        row = self.leaders[seat - 1]
        row = (*row[:color], square, *row[color + 1 :])
        self.leaders = (*self.leaders[: seat - 1], row, *self.leaders[seat:])

    def board_tuple(self) -> tuple[int, ...]:
        """Return the current board as a tuple, remembered until the board is written again."""
        got = self._tuple
        writes = len(self.touched)
        if got[0] != writes:
            got = self._tuple = (writes, tuple(self.board))
        return got[1]

    def add(self, field: str, index: int, delta: int) -> None:
        """Add ``delta`` to item ``index`` of ``treasures_held`` or ``catastrophes`` (``field``)."""
        t: tuple[int, ...] = getattr(self, field)
        setattr(self, field, (*t[:index], t[index] + delta, *t[index + 1 :]))

    def put(self, square: int, cell: int) -> None:
        """Write ``cell`` on ``square``: every board change must go through here.

        ``touched`` is what ``changed`` and the remembered regions rely on.
        """
        self.board[square] = cell
        self.touched.append(square)

    def changed(self) -> list[int]:
        """Return the squares where the board now differs from the parent state's, in order.

        Remembered until the board is written again; do not change the list.
        """
        touched = self.touched
        if self._changed_writes != len(touched):
            old, board = self.parent.board, self.board
            if len(touched) == 1:
                x = touched[0]
                self._changed = [x] if board[x] != old[x] else []
            else:
                self._changed = sorted({x for x in touched if board[x] != old[x]})
            self._changed_writes = len(touched)
        return self._changed

    def score(self, seat: int, color: int, amount: int, reason: str) -> None:
        """Give ``seat`` ``amount`` VP of ``color`` and log it."""
        v = list(self.vp[seat - 1])
        v[color] += amount
        self.vp = (*self.vp[: seat - 1], (v[0], v[1], v[2], v[3]), *self.vp[seat:])
        if self.log:
            self.emit(
                "vp_scored", seat=seat, color=COLOR_NAMES[color], amount=amount, reason=reason
            )

    def remove_leader(self, square: int, reason: str) -> None:
        """Return the leader on ``square`` to its owner's supply and log why."""
        seat, color = cell_leader(self.board[square])
        self.put(square, EMPTY)
        self.set_leader(seat, color, -1)
        self.emit(
            "leader_withdrawn",
            seat=seat,
            leader=LEADER_NAMES[color],
            square=SQUARE_NAMES[square],
            reason=reason,
        )

    def withdraw_stranded(self, near: list[int] | tuple[int, ...]) -> None:
        """Withdraw leaders next to ``near`` squares left without a face-up temple (§4.3)."""
        board = self.board
        temple = TILE_BASE + RED
        seen: set[int] = set()
        for s in near:
            for y in NEIGHBOURS[s]:
                if board[y] >= LEADER_BASE and y not in seen:
                    seen.add(y)
                    if not any(board[z] == temple for z in NEIGHBOURS[y]):
                        self.remove_leader(y, "no_temple")

    def draw(self, seat: int, n: int) -> bool:
        """Draw ``n`` tiles for ``seat``; return False (drawing nothing) if the bag is short."""
        if n <= 0:
            return True
        if len(self.bag) < n:
            return False
        hand = list(self.hands[seat - 1])
        for c in self.bag[-n:]:
            hand[c] += 1
        self.set_hand(seat, hand)
        self.bag = self.bag[:-n]
        if self.log:
            self.emit("tiles_drawn", seat=seat, count=n)
        return True

    def end_game(self, reason: EndReason) -> None:
        """End the game now (§13.1)."""
        self.is_over = True
        self.end_reason = reason
        self.pending = None
        self.conflict = None
        self.unification = -1
        self.placed = -1
        self.actions_left = 0
        self.emit("game_over", reason=reason)
