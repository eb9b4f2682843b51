"""The game state: an immutable value with an exact JSON round trip.

``GameState`` is a frozen dataclass of tuples. ``apply`` (rules.py) copies it
into a mutable ``Work`` and freezes the result, so no state is ever mutated.
Derived data (regions, kingdoms) is cached on the instance, outside ``==``
and JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from .board import COLS, NUM_SQUARES, ROWS, SQUARE_BY_NAME, SQUARE_NAMES
from .decisions import Conflict, Decision
from .events import Event
from .kinds import EndReason
from .pieces import (
    CATASTROPHE,
    COLOR_BY_LETTER,
    COLOR_BY_NAME,
    COLOR_LETTERS,
    COLOR_NAMES,
    EMPTY,
    FACE_DOWN,
    LEADER_BASE,
    LEADER_BY_LETTER,
    LEADER_LETTERS,
    TILE_BASE,
    cell_leader,
    leader_cell,
)

Counts = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class GameState:
    """Hold a whole position (RULES.md §1–§16); compare with ``==``.

    Seats are 1..N. ``board`` has 176 cell codes (pieces.py); ``treasures``
    the sorted squares still holding a treasure; ``hands``/``vp`` per seat
    counts in colour order red, black, blue, green; ``bag`` the remaining
    tiles in draw order (drawn from the end; secret); ``monuments`` the top-left
    square of each built monument or -1; ``discarded`` counts tiles out of the
    game. ``conflict``/``unification``/``placed`` carry an action being
    resolved while ``pending`` waits for a decision.
    """

    num_players: int
    seed: int
    open_scoring: bool
    board: tuple[int, ...]
    treasures: tuple[int, ...]
    hands: tuple[Counts, ...]
    vp: tuple[Counts, ...]
    treasures_held: tuple[int, ...]
    catastrophes: tuple[int, ...]
    bag: tuple[int, ...]
    discarded: int
    monuments: tuple[int, ...]
    active_seat: int
    actions_left: int
    pending: Decision | None = None
    conflict: Conflict | None = None
    unification: int = -1
    placed: int = -1
    is_over: bool = False
    end_reason: EndReason | None = None
    events: tuple[Event, ...] = ()
    # init=False: ``dataclasses.replace`` gives the new state an empty cache of its own.
    cache: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def to_act(self) -> int | None:
        """Return the seat that must act now (RULES.md §15), or None when the game is over."""
        if self.is_over:
            return None
        if self.pending is not None:
            return self.pending.seat
        return self.active_seat

    def leader_square(self, seat: int, color: int) -> int:
        """Return the square of ``seat``'s leader of ``color``, or -1 if in supply."""
        return self.leader_squares()[seat - 1][color]

    def leader_squares(self) -> tuple[tuple[int, ...], ...]:
        """Return per seat (index seat-1) the four leader squares (-1 = in supply)."""
        got = self.cache.get("leaders")
        if got is None:
            pos = [[-1] * 4 for _ in range(self.num_players)]
            for s, cell in enumerate(self.board):
                if cell >= LEADER_BASE:
                    seat, color = cell_leader(cell)
                    pos[seat - 1][color] = s
            got = tuple(tuple(p) for p in pos)
            self.cache["leaders"] = got
        return got  # type: ignore[no-any-return,unused-ignore]

    @staticmethod
    def _make(values: tuple[Any, ...]) -> GameState:
        """Return a state from every field but ``cache``, in declaration order, unchecked.

        ``apply`` makes one state per ply: setting the slots directly, one
        call each without a loop, costs a fifth of the frozen dataclass's
        ``__init__`` (``Work.freeze``).
        """
        (
            num_players,
            seed,
            open_scoring,
            board,
            treasures,
            hands,
            vp,
            treasures_held,
            catastrophes,
            bag,
            discarded,
            monuments,
            active_seat,
            actions_left,
            pending,
            conflict,
            unification,
            placed,
            is_over,
            end_reason,
            events,
        ) = values
        st: GameState = object.__new__(GameState)
        put = _PUT
        put["num_players"](st, num_players)
        put["seed"](st, seed)
        put["open_scoring"](st, open_scoring)
        put["board"](st, board)
        put["treasures"](st, treasures)
        put["hands"](st, hands)
        put["vp"](st, vp)
        put["treasures_held"](st, treasures_held)
        put["catastrophes"](st, catastrophes)
        put["bag"](st, bag)
        put["discarded"](st, discarded)
        put["monuments"](st, monuments)
        put["active_seat"](st, active_seat)
        put["actions_left"](st, actions_left)
        put["pending"](st, pending)
        put["conflict"](st, conflict)
        put["unification"](st, unification)
        put["placed"](st, placed)
        put["is_over"](st, is_over)
        put["end_reason"](st, end_reason)
        put["events"](st, events)
        put["cache"](st, {})
        return st

    def to_dict(self) -> dict[str, Any]:
        """Return the complete state as a JSON-able dict (includes secrets)."""
        return {
            "version": 1,
            "num_players": self.num_players,
            "seed": self.seed,
            "open_scoring": self.open_scoring,
            "board": board_rows(self.board, ()),
            "treasures": [SQUARE_NAMES[s] for s in self.treasures],
            "hands": [list(h) for h in self.hands],
            "vp": [list(v) for v in self.vp],
            "treasures_held": list(self.treasures_held),
            "catastrophes": list(self.catastrophes),
            "bag": "".join(COLOR_LETTERS[c] for c in self.bag),
            "discarded": self.discarded,
            "monuments": list(self.monuments),
            "active_seat": self.active_seat,
            "actions_left": self.actions_left,
            "pending": None if self.pending is None else self.pending.to_dict(),
            "conflict": None if self.conflict is None else self.conflict.to_dict(),
            "unification": self.unification,
            "placed": self.placed,
            "is_over": self.is_over,
            "end_reason": self.end_reason,
            "events": [e.to_dict() for e in self.events],
        }

    def to_json(self) -> str:
        """Return the state as JSON text with a stable key order (exact round trip)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @staticmethod
    def from_dict(d: dict[str, Any]) -> GameState:
        """Rebuild a state from ``to_dict`` output; raise ``ValueError`` if malformed."""
        try:
            return GameState(
                num_players=int(d["num_players"]),
                seed=int(d["seed"]),
                open_scoring=bool(d["open_scoring"]),
                board=parse_board_rows(d["board"]),
                treasures=tuple(SQUARE_BY_NAME[n] for n in d["treasures"]),
                hands=tuple(_counts(h) for h in d["hands"]),
                vp=tuple(_counts(v) for v in d["vp"]),
                treasures_held=tuple(int(x) for x in d["treasures_held"]),
                catastrophes=tuple(int(x) for x in d["catastrophes"]),
                bag=tuple(COLOR_BY_LETTER[ch] for ch in d["bag"]),
                discarded=int(d["discarded"]),
                monuments=tuple(int(x) for x in d["monuments"]),
                active_seat=int(d["active_seat"]),
                actions_left=int(d["actions_left"]),
                pending=None if d["pending"] is None else Decision.from_dict(d["pending"]),
                conflict=None if d["conflict"] is None else Conflict.from_dict(d["conflict"]),
                unification=int(d["unification"]),
                placed=int(d["placed"]),
                is_over=bool(d["is_over"]),
                end_reason=d["end_reason"],
                events=tuple(Event.from_dict(e) for e in d["events"]),
            )
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"malformed game state JSON: {exc!r}") from exc

    @staticmethod
    def from_json(text: str) -> GameState:
        """Rebuild a state from ``to_json`` text; raise ``ValueError`` if malformed."""
        return GameState.from_dict(json.loads(text))


# Each slot's setter by field name (``_make``); mypy reads a slot as a class variable.
_PUT: dict[str, Any] = {f.name: getattr(GameState, f.name).__set__ for f in fields(GameState)}


def _counts(seq: Any) -> Counts:
    a, b, c, d = (int(x) for x in seq)
    return (a, b, c, d)


def cell_token(cell: int) -> str:
    """Return the diagram token of a cell code, without terrain or treasure (``r``, ``2P``)."""
    if cell == EMPTY:
        return "."
    if cell == CATASTROPHE:
        return "x"
    if cell == FACE_DOWN:
        return "#"
    if cell >= LEADER_BASE:
        seat, color = cell_leader(cell)
        return f"{seat}{LEADER_LETTERS[color]}"
    return COLOR_LETTERS[cell - TILE_BASE]


def token_cell(token: str) -> int:
    """Return the cell code of a diagram token (no ``*``); raise ``ValueError`` if unknown."""
    if token in (".", "~"):
        return EMPTY
    if token == "x":
        return CATASTROPHE
    if token == "#":
        return FACE_DOWN
    if token in COLOR_BY_LETTER:
        return TILE_BASE + COLOR_BY_LETTER[token]
    if len(token) == 2 and token[0] in "1234" and token[1] in LEADER_BY_LETTER:
        return leader_cell(int(token[0]), LEADER_BY_LETTER[token[1]])
    raise ValueError(f"unknown cell {token!r}")


def board_rows(board: tuple[int, ...], treasures: tuple[int, ...]) -> list[str]:
    """Return the board as 11 strings of 16 space-separated tokens (``*`` marks treasures)."""
    from .board import IS_RIVER

    marks = set(treasures)
    rows = []
    for r in range(ROWS):
        toks = []
        for s in range(r * COLS, (r + 1) * COLS):
            cell = board[s]
            tok = "~" if cell == EMPTY and IS_RIVER[s] else cell_token(cell)
            if s in marks:
                tok += "*"
            toks.append(tok)
        rows.append(" ".join(toks))
    return rows


def parse_board_rows(rows: list[str]) -> tuple[int, ...]:
    """Return the cell codes of 11 rows written by ``board_rows`` (treasure marks ignored)."""
    cells = [token_cell(t.rstrip("*")) for row in rows for t in row.split()]
    if len(cells) != NUM_SQUARES:
        raise ValueError("a board has 176 cells")
    return tuple(cells)


def color_name(c: int) -> str:
    """Return the name of colour index ``c``."""
    return COLOR_NAMES[c]


def color_index(name: str) -> int:
    """Return the index of colour ``name``."""
    return COLOR_BY_NAME[name]
