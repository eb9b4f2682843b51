"""Actions and their text notation (issue 3; RULES.md §2, §15).

Every action is a frozen dataclass; ``str(action)`` is its notation and
``Action.parse(text)`` reads it back::

    tile red f7 · leader priest e3 · withdraw trader · catastrophe g5 ·
    swap red red blue · pass · commit 2 · war black · monument red-blue e4 ·
    decline monument · treasure b2

Actions sort by ``sort_key()`` (kind, then fields); ``legal_actions`` returns
them in that order. Every possible action is built once at import and looked
up, so the engine never allocates actions on the hot path.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import ClassVar

from .board import NUM_SQUARES, SQUARE_NAMES, block_squares, parse_square
from .kinds import ActionKind, Color, Leader, MonumentName
from .pieces import (
    COLOR_BY_NAME,
    COLOR_NAMES,
    HAND_SIZE,
    LEADER_BY_NAME,
    LEADER_NAMES,
    MONUMENT_BY_PAIR,
    MONUMENT_NAMES,
    MONUMENTS,
)


class Action:
    """Base class of all actions; ``Action.parse(text)`` reads any notation."""

    __slots__ = ()
    RANK: ClassVar[int] = 0
    # The first word of the notation: which of the eleven kinds of action this is (§2, §15).
    kind: ClassVar[ActionKind]
    __match_args__: ClassVar[tuple[str, ...]] = ()  # each action's fields (dataclass)

    def sort_key(self) -> tuple[int, ...]:
        """Return the key that orders actions: the kind's rank, then the fields in order."""
        key = [self.RANK]
        for name in self.__match_args__:  # a dataclass's fields, in declaration order
            value = getattr(self, name)
            if isinstance(value, tuple):
                key.extend(value)
            else:
                key.append(value)
        return tuple(key)

    def __repr__(self) -> str:
        """Return ``Action.parse('tile red f7')``: the notation, which round-trips."""
        return f"Action.parse({str(self)!r})"

    @property
    def target(self) -> str | None:
        """Return the name of the square the action is played on (``"f7"``), else None.

        A monument's target is its top-left square (RULES.md §8.2).
        """
        return None

    @property
    def touched(self) -> tuple[str, ...]:
        """Return the names of the squares the action would put a piece on.

        One square for a tile, leader, catastrophe or treasure; a monument's four (§8.2);
        none for the others.
        """
        target = self.target
        return () if target is None else (target,)

    @staticmethod
    def parse(text: str) -> Action:
        """Read one action from its notation; raise ``ValueError`` naming what is wrong."""
        return parse_action(text)


def _color(word: str) -> int:
    c = COLOR_BY_NAME.get(word)
    if c is None:
        raise ValueError(f"unknown colour {word!r}: use red, black, blue or green")
    return c


def _leader(word: str) -> int:
    c = LEADER_BY_NAME.get(word)
    if c is None:
        raise ValueError(f"unknown leader {word!r}: use king, priest, farmer or trader")
    return c


class _OnSquare(Action):
    """An action played on one square (``square``, 0..175): its ``target`` is that square."""

    __slots__ = ()
    square: int

    @property
    def target(self) -> str:
        """Return the name of the square the action is played on (``"f7"``)."""
        return SQUARE_NAMES[self.square]


@dataclass(frozen=True, slots=True, repr=False)
class PlaceTile(_OnSquare):
    """Place a civilization tile of ``color`` from the hand on ``square`` (RULES.md §5)."""

    color: int
    square: int
    RANK: ClassVar[int] = 0
    kind: ClassVar[ActionKind] = "tile"

    def __str__(self) -> str:
        return f"tile {COLOR_NAMES[self.color]} {SQUARE_NAMES[self.square]}"

    @property
    def color_name(self) -> Color:
        """Return the colour's name (``"red"``)."""
        return COLOR_NAMES[self.color]


@dataclass(frozen=True, slots=True, repr=False)
class PlaceLeader(_OnSquare):
    """Place (or move) the leader of ``color`` to ``square`` (RULES.md §4.1–4.2)."""

    color: int
    square: int
    RANK: ClassVar[int] = 1
    kind: ClassVar[ActionKind] = "leader"

    def __str__(self) -> str:
        return f"leader {LEADER_NAMES[self.color]} {SQUARE_NAMES[self.square]}"

    @property
    def leader_name(self) -> Leader:
        """Return the leader's name (``"king"``)."""
        return LEADER_NAMES[self.color]


@dataclass(frozen=True, slots=True, repr=False)
class WithdrawLeader(Action):
    """Withdraw the leader of ``color`` from the board to the supply (RULES.md §4.1)."""

    color: int
    RANK: ClassVar[int] = 2
    kind: ClassVar[ActionKind] = "withdraw"

    def __str__(self) -> str:
        return f"withdraw {LEADER_NAMES[self.color]}"

    @property
    def leader_name(self) -> Leader:
        """Return the leader's name (``"king"``)."""
        return LEADER_NAMES[self.color]


@dataclass(frozen=True, slots=True, repr=False)
class PlaceCatastrophe(_OnSquare):
    """Place a catastrophe on ``square`` (RULES.md §10)."""

    square: int
    RANK: ClassVar[int] = 3
    kind: ClassVar[ActionKind] = "catastrophe"

    def __str__(self) -> str:
        return f"catastrophe {SQUARE_NAMES[self.square]}"


@dataclass(frozen=True, slots=True, repr=False)
class SwapTiles(Action):
    """Discard ``counts`` (red, black, blue, green) tiles and draw as many (RULES.md §11)."""

    counts: tuple[int, int, int, int]
    RANK: ClassVar[int] = 4
    kind: ClassVar[ActionKind] = "swap"

    def __str__(self) -> str:
        words = [COLOR_NAMES[c] for c in range(4) for _ in range(self.counts[c])]
        return "swap " + " ".join(words)

    @property
    def tile_colors(self) -> tuple[Color, ...]:
        """Return the discarded tiles' colour names, one per tile, in colour order."""
        return tuple(COLOR_NAMES[c] for c in range(4) for _ in range(self.counts[c]))


@dataclass(frozen=True, slots=True, repr=False)
class Pass(Action):
    """End the turn now, giving up any remaining action (RULES.md §11)."""

    RANK: ClassVar[int] = 5
    kind: ClassVar[ActionKind] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, repr=False)
class CommitSupport(Action):
    """Commit ``count`` tiles of the conflict's colour (RULES.md §6.3, §7.3)."""

    count: int
    RANK: ClassVar[int] = 6
    kind: ClassVar[ActionKind] = "commit"

    def __str__(self) -> str:
        return f"commit {self.count}"


@dataclass(frozen=True, slots=True, repr=False)
class ChooseWar(Action):
    """Choose the war of ``color`` to be fought next (RULES.md §7.2)."""

    color: int
    RANK: ClassVar[int] = 7
    kind: ClassVar[ActionKind] = "war"

    def __str__(self) -> str:
        return f"war {COLOR_NAMES[self.color]}"

    @property
    def color_name(self) -> Color:
        """Return the colour's name (``"red"``)."""
        return COLOR_NAMES[self.color]


@dataclass(frozen=True, slots=True, repr=False)
class BuildMonument(_OnSquare):
    """Build monument number ``monument`` with its top-left on ``square`` (RULES.md §8)."""

    monument: int
    square: int
    RANK: ClassVar[int] = 8
    kind: ClassVar[ActionKind] = "monument"

    def __str__(self) -> str:
        return f"monument {MONUMENT_NAMES[self.monument]} {SQUARE_NAMES[self.square]}"

    @property
    def touched(self) -> tuple[str, ...]:
        """Return the four squares of the 2×2 block the monument covers, top row first."""
        return tuple(SQUARE_NAMES[q] for q in block_squares(self.square))

    @property
    def monument_name(self) -> MonumentName:
        """Return the monument's name (``"red-blue"``, RULES.md §1.2)."""
        return MONUMENT_NAMES[self.monument]


@dataclass(frozen=True, slots=True, repr=False)
class DeclineMonument(Action):
    """Decline to build a monument (RULES.md §8.1)."""

    RANK: ClassVar[int] = 9
    kind: ClassVar[ActionKind] = "decline"

    def __str__(self) -> str:
        return "decline monument"


@dataclass(frozen=True, slots=True, repr=False)
class TakeTreasure(_OnSquare):
    """Take the treasure on ``square`` (RULES.md §9)."""

    square: int
    RANK: ClassVar[int] = 10
    kind: ClassVar[ActionKind] = "treasure"

    def __str__(self) -> str:
        return f"treasure {SQUARE_NAMES[self.square]}"


# Interned actions: the engine only ever selects these prebuilt objects.
TILE_ACTIONS: tuple[tuple[PlaceTile, ...], ...] = tuple(
    tuple(PlaceTile(c, s) for s in range(NUM_SQUARES)) for c in range(4)
)
LEADER_ACTIONS: tuple[tuple[PlaceLeader, ...], ...] = tuple(
    tuple(PlaceLeader(c, s) for s in range(NUM_SQUARES)) for c in range(4)
)
WITHDRAW_ACTIONS: tuple[WithdrawLeader, ...] = tuple(WithdrawLeader(c) for c in range(4))
CATASTROPHE_ACTIONS: tuple[PlaceCatastrophe, ...] = tuple(
    PlaceCatastrophe(s) for s in range(NUM_SQUARES)
)
PASS = Pass()
DECLINE = DeclineMonument()
COMMIT_ACTIONS: tuple[CommitSupport, ...] = tuple(CommitSupport(n) for n in range(HAND_SIZE + 1))
WAR_ACTIONS: tuple[ChooseWar, ...] = tuple(ChooseWar(c) for c in range(4))
TREASURE_ACTIONS: tuple[TakeTreasure, ...] = tuple(TakeTreasure(s) for s in range(NUM_SQUARES))
MONUMENT_ACTIONS: tuple[tuple[BuildMonument, ...], ...] = tuple(
    tuple(BuildMonument(m, s) for s in range(NUM_SQUARES)) for m in range(len(MONUMENTS))
)
# Every non-empty sub-multiset of a hand of at most six tiles, in sort order.
SWAP_ACTIONS: dict[tuple[int, int, int, int], SwapTiles] = {
    (a, b, c, d): SwapTiles((a, b, c, d))
    for a, b, c, d in itertools.product(range(HAND_SIZE + 1), repeat=4)
    if 0 < a + b + c + d <= HAND_SIZE
}


def swap_actions_for(hand: tuple[int, ...]) -> list[SwapTiles]:
    """Return every swap possible with ``hand`` counts, sorted (RULES.md §11)."""
    a, b, c, d = hand
    table = SWAP_ACTIONS
    return [
        table[(i, j, k, m)]
        for i in range(a + 1)
        for j in range(b + 1)
        for k in range(c + 1)
        for m in range(d + 1)
        if i + j + k + m
    ]


def parse_action(text: str) -> Action:
    """Read one action from its notation (see module doc); raise ``ValueError``."""
    if not isinstance(text, str):
        raise ValueError("an action must be given as text")
    words = text.strip().lower().split()
    if not words:
        raise ValueError("empty action text")
    head, args = words[0], words[1:]

    def need(n: int, shape: str) -> None:
        if len(args) != n:
            raise ValueError(f"{head!r} takes the form {shape!r}, got {text!r}")

    if head == "tile":
        need(2, "tile <colour> <square>")
        return TILE_ACTIONS[_color(args[0])][parse_square(args[1])]
    if head == "leader":
        need(2, "leader <leader> <square>")
        return LEADER_ACTIONS[_leader(args[0])][parse_square(args[1])]
    if head == "withdraw":
        need(1, "withdraw <leader>")
        return WITHDRAW_ACTIONS[_leader(args[0])]
    if head == "catastrophe":
        need(1, "catastrophe <square>")
        return CATASTROPHE_ACTIONS[parse_square(args[0])]
    if head == "swap":
        if not 1 <= len(args) <= HAND_SIZE:
            raise ValueError(f"a swap names 1 to 6 tile colours, got {text!r}")
        counts = [0, 0, 0, 0]
        for w in args:
            counts[_color(w)] += 1
        return SWAP_ACTIONS[(counts[0], counts[1], counts[2], counts[3])]
    if head == "pass":
        need(0, "pass")
        return PASS
    if head == "commit":
        need(1, "commit <number>")
        if not args[0].isdigit() or int(args[0]) > HAND_SIZE:
            raise ValueError(f"commit takes a number from 0 to 6, got {args[0]!r}")
        return COMMIT_ACTIONS[int(args[0])]
    if head == "war":
        need(1, "war <colour>")
        return WAR_ACTIONS[_color(args[0])]
    if head == "monument":
        need(2, "monument <colour>-<colour> <square>")
        parts = args[0].split("-")
        if len(parts) != 2:
            raise ValueError(f"a monument is named by two colours like red-blue, got {args[0]!r}")
        pair = frozenset(_color(p) for p in parts)
        if len(pair) != 2:
            raise ValueError(f"a monument has two different colours, got {args[0]!r}")
        return MONUMENT_ACTIONS[MONUMENT_BY_PAIR[pair]][parse_square(args[1])]
    if head == "decline":
        if args != ["monument"]:
            raise ValueError(f"'decline' takes the form 'decline monument', got {text!r}")
        return DECLINE
    if head == "treasure":
        need(1, "treasure <square>")
        return TREASURE_ACTIONS[parse_square(args[0])]
    raise ValueError(f"unknown action {head!r} in {text!r}")
