"""Positions as text diagrams: ``parse(text) -> GameState`` and ``render(state) -> str``.

Tests read like the rulebook's examples (issue 3). Example::

    players: 3
    active: 1
    actions: 2
    hand 1: r r k b g g
    hand 2: r b
    vp 1: red 3 black 0 blue 2 green 1 treasures 0
    catastrophes 2: 1
    monument red-blue: e4
    bag: r 40 k 20 b 30 g 25
    seed: 7

        a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p
     1  .  .  .  .  ~  ~  ~  ~  ~  .  r* .  ~  .  .  .
     2  .  r* .  .  ~  .  .  .  .  .  .  .  ~  .  .  r*
     ...                                (11 rows in all)

Header lines are ``key: value`` in any order. Omitted ones default:
``players`` to the highest seat named (at least 2), ``active: 1``,
``actions: 2``, empty hands, zero VP and treasures, 2 catastrophes each, no
monuments, ``seed: 0``, and a bag holding the 153 tiles minus those on the
board and in hands (a colour left out of a ``bag:`` line is 0). ``scoring:
open`` makes an open-scoring game (RULES.md §14); ``over: bag`` or ``over:
treasures`` an ended one. ``render`` also writes ``to_act:`` and ``pending:``
for information when a decision is pending; ``parse`` ignores them.

The grid is an optional column-letter line and 11 rows, each an optional row
number and 16 whitespace-separated cells: ``.`` empty land, ``~`` empty river
(both must agree with the map), ``r k b g`` face-up red, black, blue, green
tiles, ``#`` a face-down monument tile, each with an optional ``*`` for a
treasure, ``x`` a catastrophe, and leaders as seat digit + ``K P F T``
(``2P`` = seat 2's priest). Leaders not on the board are in supply. The
bag's order is drawn from ``seed``; squares under a monument count, for the
bag's default, as blue on a river and otherwise as the monument's first
non-blue colour.

``parse`` raises ``DiagramError`` (a ``ValueError``) naming the line and the
reason for anything inconsistent: a farm on land, a leader on a river or away
from any face-up temple, two same-colour leaders in one kingdom, an unknown
cell, more tiles of a colour than exist, and so on.
"""

from __future__ import annotations

import random

from .board import (
    COL_LETTERS,
    COLS,
    IS_RIVER,
    NEIGHBOURS,
    NUM_SQUARES,
    ROWS,
    SQUARE_NAMES,
    block_squares,
    parse_square,
)
from .errors import DiagramError
from .kinds import END_REASONS, known
from .kingdoms import label
from .pieces import (
    BLUE,
    CATASTROPHE,
    CATASTROPHES_EACH,
    COLOR_BY_LETTER,
    COLOR_BY_NAME,
    COLOR_LETTERS,
    COLOR_NAMES,
    EMPTY,
    FACE_DOWN,
    HAND_SIZE,
    LEADER_BASE,
    LEADER_NAMES,
    MAX_PLAYERS,
    MONUMENT_BY_PAIR,
    MONUMENT_NAMES,
    MONUMENTS,
    RED,
    TILE_BASE,
    TILE_TOTALS,
    TOTAL_TILES,
    cell_leader,
)
from .state import GameState, board_rows, token_cell

_INFO_ONLY = ("to_act", "pending")


def render(state: GameState) -> str:
    """Write ``state`` as a diagram (see the module doc): every header line, then the grid."""
    n = state.num_players
    lines = [f"players: {n}", f"active: {state.active_seat}", f"actions: {state.actions_left}"]
    if state.open_scoring:
        lines.append("scoring: open")
    if state.is_over:
        lines.append(f"over: {state.end_reason}")
    for i in range(n):
        tiles = [COLOR_LETTERS[c] for c in range(4) for _ in range(state.hands[i][c])]
        lines.append(f"hand {i + 1}: {' '.join(tiles)}".rstrip())
    for i in range(n):
        v = state.vp[i]
        parts = " ".join(f"{COLOR_NAMES[c]} {v[c]}" for c in range(4))
        lines.append(f"vp {i + 1}: {parts} treasures {state.treasures_held[i]}")
    for i in range(n):
        lines.append(f"catastrophes {i + 1}: {state.catastrophes[i]}")
    for m, top in enumerate(state.monuments):
        if top >= 0:
            lines.append(f"monument {MONUMENT_NAMES[m]}: {SQUARE_NAMES[top]}")
    lines.append("bag: " + " ".join(f"{COLOR_LETTERS[c]} {state.bag.count(c)}" for c in range(4)))
    lines.append(f"seed: {state.seed}")
    if state.pending is not None:
        lines.append(f"to_act: {state.pending.seat}")
        lines.append(f"pending: {state.pending.describe()}")
    lines.append("")
    lines.append("  " + "".join(f"{ch:>3}" for ch in COL_LETTERS))
    for r, row in enumerate(board_rows(state.board, state.treasures), start=1):
        lines.append(f"{r:>2}" + "".join(f"{t:>3}" for t in row.split()))
    return "\n".join(lines) + "\n"


def _int(value: str, line: int, what: str, low: int, high: int) -> int:
    try:
        n = int(value)
    except ValueError:
        raise DiagramError(line, f"{what} must be a number, not {value!r}") from None
    if not low <= n <= high:
        raise DiagramError(line, f"{what} must be between {low} and {high}, not {n}")
    return n


def parse(text: str) -> GameState:
    """Read a diagram (see the module doc) into a ``GameState`` with no decision pending.

    Raises ``DiagramError`` naming the line and the reason when the text is
    malformed or the position contradicts RULES.md (§1, §3, §4.2, §5.1).
    """
    headers: dict[str, tuple[int, str]] = {}
    rows: list[tuple[int, list[str]]] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if ":" in line:
            key, _, value = line.partition(":")
            key = " ".join(key.split()).lower()
            if key in headers:
                raise DiagramError(no, f"header {key!r} is given twice")
            headers[key] = (no, value.strip())
            continue
        toks = line.split()
        if toks == list(COL_LETTERS):
            continue
        if len(toks) == COLS + 1 and toks[0].isdigit():
            if int(toks[0]) != len(rows) + 1:
                raise DiagramError(no, f"expected row {len(rows) + 1}, found row {toks[0]}")
            toks = toks[1:]
        if len(toks) != COLS:
            raise DiagramError(no, f"a board row has 16 cells, found {len(toks)}")
        rows.append((no, toks))
    if len(rows) != ROWS:
        raise DiagramError(0, f"the board has 11 rows, found {len(rows)}")
    return _build(headers, rows)


def _build(headers: dict[str, tuple[int, str]], rows: list[tuple[int, list[str]]]) -> GameState:
    board = [EMPTY] * NUM_SQUARES
    treasures: list[int] = []
    line_of = [0] * NUM_SQUARES
    for r, (no, toks) in enumerate(rows):
        for c, tok in enumerate(toks):
            s = r * COLS + c
            line_of[s] = no
            name = SQUARE_NAMES[s]
            bare = tok[:-1] if tok.endswith("*") else tok
            try:
                cell = token_cell(bare)
            except ValueError:
                raise DiagramError(no, f"unknown cell {tok!r} on {name}") from None
            if bare == "~" and not IS_RIVER[s]:
                raise DiagramError(no, f"{name} is land on the map, not river")
            if bare == "." and IS_RIVER[s]:
                raise DiagramError(no, f"{name} is river on the map, not land")
            if tok.endswith("*"):
                if cell != TILE_BASE + RED and cell != FACE_DOWN:
                    raise DiagramError(no, f"a treasure lies on a temple, not on {bare!r} ({name})")
                treasures.append(s)
            if TILE_BASE <= cell < FACE_DOWN:
                color = cell - TILE_BASE
                if color == BLUE and not IS_RIVER[s]:
                    raise DiagramError(no, f"a farm stands on a river square, not on land ({name})")
                if color != BLUE and IS_RIVER[s]:
                    raise DiagramError(
                        no, f"a {COLOR_NAMES[color]} tile cannot stand on the river ({name})"
                    )
            board[s] = cell

    def header(key: str, default: str) -> tuple[int, str]:
        return headers.pop(key, (0, default))

    seats_named = [
        int(k.split()[1]) for k in headers if len(k.split()) == 2 and k.split()[1].isdigit()
    ] + [cell_leader(c)[0] for c in board if c >= LEADER_BASE]
    no, value = header("players", str(max([2, *seats_named])))
    n = _int(value, no, "players", 2, MAX_PLAYERS)
    no, value = header("active", "1")
    active = _int(value, no, "active", 1, n)
    no, value = header("actions", "2")
    actions = _int(value, no, "actions", 1, 2)
    no, value = header("seed", "0")
    seed = _int(value, no, "seed", -(2**63), 2**63)
    no, value = header("scoring", "hidden")
    if value not in ("hidden", "open"):
        raise DiagramError(no, f"scoring is hidden or open, not {value!r}")
    open_scoring = value == "open"
    no, value = header("over", "")
    if value not in ("", *END_REASONS):
        raise DiagramError(no, f"over is bag or treasures, not {value!r}")
    end_reason = known(END_REASONS, value, "end") if value else None

    hands = [[0, 0, 0, 0] for _ in range(n)]
    vp = [[0, 0, 0, 0] for _ in range(n)]
    held = [0] * n
    cats = [CATASTROPHES_EACH] * n
    monuments = [-1] * len(MONUMENTS)
    bag_counts: list[int] | None = None
    for key, (no, value) in sorted(headers.items(), key=lambda kv: kv[1][0]):
        words = key.split()
        if key in _INFO_ONLY:
            continue
        if key == "bag":
            bag_counts = _parse_bag(value, no)
        elif len(words) == 2 and words[0] in ("hand", "vp", "catastrophes"):
            seat = _int(words[1], no, "seat", 1, n)
            if words[0] == "hand":
                for ch in value.replace(" ", ""):
                    if ch not in COLOR_BY_LETTER:
                        raise DiagramError(no, f"unknown tile {ch!r} in a hand (use r k b g)")
                    hands[seat - 1][COLOR_BY_LETTER[ch]] += 1
                if sum(hands[seat - 1]) > HAND_SIZE:
                    raise DiagramError(no, "a hand holds at most 6 tiles")
            elif words[0] == "vp":
                held[seat - 1] = _parse_vp(value, no, vp[seat - 1])
            else:
                cats[seat - 1] = _int(value, no, "catastrophes", 0, CATASTROPHES_EACH)
        elif len(words) == 2 and words[0] == "monument":
            pair = words[1].split("-")
            try:
                m = MONUMENT_BY_PAIR[frozenset(COLOR_BY_NAME[p] for p in pair)]
            except KeyError:
                raise DiagramError(no, f"unknown monument {words[1]!r}") from None
            if len(pair) != 2:
                raise DiagramError(no, f"unknown monument {words[1]!r}")
            try:
                top = parse_square(value)
            except ValueError as exc:
                raise DiagramError(no, str(exc)) from None
            if top % COLS == COLS - 1 or top // COLS == ROWS - 1:
                raise DiagramError(no, f"a monument's top-left square cannot be {value}")
            if any(board[x] != FACE_DOWN for x in block_squares(top)):
                raise DiagramError(no, f"the monument on {value} needs '#' on its four squares")
            monuments[m] = top
        else:
            raise DiagramError(no, f"unknown header {key!r}")

    under = [0, 0, 0, 0]
    covered: set[int] = set()
    for m, top in enumerate(monuments):
        if top < 0:
            continue
        squares = block_squares(top)
        if covered & set(squares):
            raise DiagramError(0, f"two monuments overlap at {SQUARE_NAMES[top]}")
        covered.update(squares)
        river = [IS_RIVER[x] for x in squares]
        if any(river) != all(river):
            raise DiagramError(
                line_of[top], f"the monument on {SQUARE_NAMES[top]} mixes land and river"
            )
        colours = MONUMENTS[m]
        if all(river):
            if BLUE not in colours:
                raise DiagramError(
                    line_of[top], f"a {MONUMENT_NAMES[m]} monument cannot stand on a river"
                )
            under[BLUE] += 4
        else:
            under[next(c for c in colours if c != BLUE)] += 4
    for s in range(NUM_SQUARES):
        if board[s] == FACE_DOWN and s not in covered:
            raise DiagramError(line_of[s], f"'#' on {SQUARE_NAMES[s]} is under no monument line")

    _check_leaders(board, n, line_of)

    used = [0, 0, 0, 0]
    for cell in board:
        if TILE_BASE <= cell < FACE_DOWN:
            used[cell - TILE_BASE] += 1
    for i in range(n):
        for c in range(4):
            used[c] += hands[i][c]
    for c in range(4):
        used[c] += under[c]
    if bag_counts is None:
        bag_counts = [max(0, TILE_TOTALS[c] - used[c]) for c in range(4)]
    for c in range(4):
        if used[c] + bag_counts[c] > TILE_TOTALS[c]:
            raise DiagramError(
                headers.get("bag", (0, ""))[0],
                f"more {COLOR_NAMES[c]} tiles than exist: "
                f"{used[c] + bag_counts[c]} > {TILE_TOTALS[c]}",
            )
    bag = [c for c in range(4) for _ in range(bag_counts[c])]
    random.Random(seed).shuffle(bag)
    discarded = TOTAL_TILES - sum(used) - len(bag)
    return GameState(
        num_players=n,
        seed=seed,
        open_scoring=open_scoring,
        board=tuple(board),
        treasures=tuple(sorted(treasures)),
        hands=tuple((h[0], h[1], h[2], h[3]) for h in hands),
        vp=tuple((v[0], v[1], v[2], v[3]) for v in vp),
        treasures_held=tuple(held),
        catastrophes=tuple(cats),
        bag=tuple(bag),
        discarded=discarded,
        monuments=tuple(monuments),
        active_seat=active,
        actions_left=0 if end_reason else actions,
        is_over=end_reason is not None,
        end_reason=end_reason,
    )


def _parse_bag(value: str, no: int) -> list[int]:
    words = value.split()
    if len(words) % 2:
        raise DiagramError(no, "a bag line pairs colour letters and counts: 'r 40 k 20 b 30 g 25'")
    counts = [0, 0, 0, 0]
    for letter, count in zip(words[::2], words[1::2], strict=True):
        if letter not in COLOR_BY_LETTER:
            raise DiagramError(no, f"unknown colour {letter!r} in the bag (use r k b g)")
        counts[COLOR_BY_LETTER[letter]] = _int(count, no, "a bag count", 0, TOTAL_TILES)
    return counts


def _parse_vp(value: str, no: int, into: list[int]) -> int:
    words = value.split()
    if len(words) % 2:
        raise DiagramError(no, "a vp line pairs names and numbers: 'red 3 black 0 ... treasures 0'")
    held = 0
    for key, count in zip(words[::2], words[1::2], strict=True):
        if key == "treasures":
            held = _int(count, no, "treasures", 0, 10)
        elif key in COLOR_BY_NAME:
            into[COLOR_BY_NAME[key]] = _int(count, no, f"{key} VP", 0, 10_000)
        else:
            raise DiagramError(no, f"unknown score {key!r} (use red black blue green treasures)")
    return held


def _check_leaders(board: list[int], n: int, line_of: list[int]) -> None:
    seen: set[int] = set()
    for s in range(NUM_SQUARES):
        cell = board[s]
        if cell < LEADER_BASE:
            continue
        seat, color = cell_leader(cell)
        who = f"seat {seat}'s {LEADER_NAMES[color]}"
        if seat > n:
            raise DiagramError(
                line_of[s], f"{who} on {SQUARE_NAMES[s]}: there are only {n} players"
            )
        if cell in seen:
            raise DiagramError(line_of[s], f"{who} stands on the board twice")
        seen.add(cell)
        if IS_RIVER[s]:
            raise DiagramError(line_of[s], f"{who} cannot stand on the river ({SQUARE_NAMES[s]})")
        if not any(board[y] == TILE_BASE + RED for y in NEIGHBOURS[s]):
            raise DiagramError(
                line_of[s],
                f"{who} on {SQUARE_NAMES[s]} is next to no face-up temple (RULES.md §4.3)",
            )
    regions = label(board)
    for leaders in regions.leaders:
        colors = [c for _, c, _ in leaders]
        for _, c, s in leaders:
            if colors.count(c) > 1:
                raise DiagramError(
                    line_of[s],
                    f"two {LEADER_NAMES[c]}s in one kingdom ({SQUARE_NAMES[s]}) (RULES.md §3)",
                )


__all__ = ["parse", "render", "CATASTROPHE"]
