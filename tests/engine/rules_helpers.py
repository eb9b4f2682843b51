"""Helpers for the rulebook scenario tests (``tests/engine/test_rules_*.py``).

The scenario tests use only the engine's public API (issue 3): positions are written as text
diagrams (``engine.diagram.parse``) over the map of ``RULES.md §1.1``, actions in notation, and
outcomes are read back from ``engine.diagram.render`` header lines and grid, from
``engine.legal_actions``, and from the state attributes issue 3 names. Every detail the public API
does not pin down (the shape of a ``Placing``'s colours, how a ``PlayerView`` serialises, how a
pending decision names its kind) is read here and nowhere else, so it can be adapted in one place.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re
from collections.abc import Mapping
from typing import Any

import pytest

import engine
from engine import diagram

COLS = "abcdefghijklmnop"
ROWS = range(1, 12)
COLORS = ("red", "black", "blue", "green")
LETTER = {"red": "r", "black": "k", "blue": "b", "green": "g"}
COLOR_OF = {letter: color for color, letter in LETTER.items()}

# RULES.md §1.1, copied cell by cell: '~' river, '.' land, 'T' starting temple with a treasure,
# 'S' starting temple with a special treasure.
MAP = """
. . . . ~ ~ ~ ~ ~ . T . ~ . . .
. S . . ~ . . . . . . . ~ . . S
. . . ~ ~ T . . . . . . ~ ~ . .
~ ~ ~ ~ . . . . . . . . . ~ ~ ~
. . . . . . . . . . . . . T ~ ~
. . . . . . . . . . . . . . ~ .
~ ~ ~ ~ . . . . T . . . ~ ~ ~ .
. S . ~ ~ ~ ~ . . . . . ~ . . .
. . . . . . ~ ~ ~ ~ ~ ~ ~ . S .
. . . . . T . . . . . . . . . .
. . . . . . . . . . T . . . . .
"""

_MAP_CELLS: dict[str, str] = {}
for _row, _line in zip(ROWS, MAP.strip().splitlines(), strict=True):
    for _col, _cell in zip(COLS, _line.split(), strict=True):
        _MAP_CELLS[f"{_col}{_row}"] = _cell

SQUARES = tuple(f"{c}{r}" for r in ROWS for c in COLS)
RIVERS = frozenset(sq for sq, cell in _MAP_CELLS.items() if cell == "~")
STARTING_TEMPLES = ("k1", "b2", "p2", "f3", "n5", "i7", "b8", "o9", "f10", "k11")
SPECIAL_TREASURES = ("b2", "p2", "b8", "o9")
assert len(RIVERS) == 41
assert {sq for sq, c in _MAP_CELLS.items() if c in "TS"} == set(STARTING_TEMPLES)
assert {sq for sq, c in _MAP_CELLS.items() if c == "S"} == set(SPECIAL_TREASURES)

_TILE = re.compile(r"^([rkbg]\*?|#\*?|x|[1-4][KPFT])$")


def neighbours(square: str) -> list[str]:
    """Return the squares sharing an edge with ``square`` (RULES.md §1.1)."""
    col, row = COLS.index(square[0]), int(square[1:])
    out = []
    for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
        c, r = col + dc, row + dr
        if 0 <= c < 16 and 1 <= r <= 11:
            out.append(f"{COLS[c]}{r}")
    return out


# ---------------------------------------------------------------------------- writing positions


def grid(cells: Mapping[str, str] | None = None, *, check: bool = True) -> str:
    """Return the 11-row diagram grid of the map with the ten starting ``r*`` temples.

    ``cells`` overrides squares (``{"g5": "1K", "f3": "."}``); an override must agree with the
    map (farms and empty rivers only on rivers, other tiles and leaders only on land), otherwise
    the scenario itself is wrong and an AssertionError says so. ``check=False`` writes the
    cells as given, to test that the parser refuses an inconsistent diagram.
    """
    board = {sq: ("r*" if c in "TS" else c) for sq, c in _MAP_CELLS.items()}
    for square, cell in (cells or {}).items():
        assert square in board, f"no square {square!r}"
        board[square] = cell
        if not check:
            continue
        river = square in RIVERS
        if cell in (".", "~"):
            assert cell == ("~" if river else "."), f"{square} is {'river' if river else 'land'}"
        else:
            assert _TILE.match(cell), f"bad cell {cell!r} at {square}"
            if cell.startswith("b"):
                assert river, f"farm on land at {square}"
            elif cell[0] in "rkg" or cell[0] in "1234":
                assert not river, f"{cell} on river at {square}"
            if cell.endswith("*"):
                assert square in STARTING_TEMPLES, f"treasure off a starting temple at {square}"
    lines = ["    " + "  ".join(COLS)]
    for r in ROWS:
        row = " ".join(f"{board[f'{c}{r}']:>2}" for c in COLS)
        lines.append(f"{r:>2}  {row}")
    return "\n".join(lines) + "\n"


def position(
    cells: Mapping[str, str] | None = None,
    *,
    players: int = 2,
    active: int = 1,
    actions: int = 2,
    hands: Mapping[int, str] | None = None,
    vp: Mapping[int, Mapping[str, int]] | None = None,
    catastrophes: Mapping[int, int] | None = None,
    monuments: Mapping[str, str] | None = None,
    bag: str | None = None,
    seed: int = 0,
) -> Any:
    """Parse a diagram position (issue 3 format) and return the engine's GameState.

    ``hands`` maps a seat to its tiles (``"r r k"``); ``vp`` maps a seat to colour totals and
    ``treasures`` (missing ones are 0); ``monuments`` maps a pair (``"red-blue"``) to the
    top-left square of its block; ``bag`` is the body of a ``bag:`` line (``"g 20"``), default
    the standard bag minus board and hands.
    """
    lines = [f"players: {players}", f"active: {active}", f"actions: {actions}"]
    for seat, tiles in (hands or {}).items():
        lines.append(f"hand {seat}: {tiles}".rstrip())
    for seat, totals in (vp or {}).items():
        assert set(totals) <= {*COLORS, "treasures"}, totals
        body = " ".join(f"{k} {totals.get(k, 0)}" for k in (*COLORS, "treasures"))
        lines.append(f"vp {seat}: {body}")
    for seat, count in (catastrophes or {}).items():
        lines.append(f"catastrophes {seat}: {count}")
    for pair, square in (monuments or {}).items():
        lines.append(f"monument {pair}: {square}")
    if bag is not None:
        lines.append(f"bag: {bag}")
    lines.append(f"seed: {seed}")
    board = dict(cells or {})
    for square in (monuments or {}).values():
        col, row = COLS.index(square[0]), int(square[1:])
        for c, r in ((col, row), (col + 1, row), (col, row + 1), (col + 1, row + 1)):
            board.setdefault(f"{COLS[c]}{r}", "#")
    return diagram.parse("\n".join(lines) + "\n\n" + grid(board))


def assert_rejected(header: str, cells: Mapping[str, str]) -> None:
    """Assert ``diagram.parse`` refuses the diagram (issue 3: with the line and reason).

    Issue 3 does not name the exception; the engine's is a ValueError, like malformed notation.
    """
    text = header.strip() + "\n\n" + grid(cells, check=False)
    with pytest.raises(ValueError) as info:
        diagram.parse(text)
    assert str(info.value).strip()


# ---------------------------------------------------------------------------- playing


def legal(state: Any) -> set[str]:
    """Return the notation of every legal action of ``state.to_act``."""
    return {str(a) for a in engine.legal_actions(state)}


def play(state: Any, *moves: str) -> Any:
    """Apply ``moves`` (notation) in order, checking each is offered by ``legal_actions``."""
    for move in moves:
        action = engine.Action.parse(move)
        offered = legal(state)
        assert str(action) in offered, f"{move!r} is not legal here; legal: {sorted(offered)}"
        state = engine.apply(state, action)
    return state


def assert_illegal(state: Any, move: str) -> Exception:
    """Assert ``move`` is refused with IllegalActionError and ``state`` is left unchanged."""
    before = state.to_json()
    action = engine.Action.parse(move)
    assert str(action) not in legal(state), f"{move!r} is offered by legal_actions"
    with pytest.raises(engine.IllegalActionError) as info:
        engine.apply(state, action)
    err = info.value
    assert isinstance(err, ValueError)
    assert str(err).strip(), "the error must read as a sentence"
    assert getattr(err, "code", None), "the error must carry a code"
    assert state.to_json() == before, "a refused action changed the state"
    return err


def decision(state: Any) -> str | None:
    """Return the kind of the pending decision: support, war, monument, treasure, or None.

    Read from the legal actions (``commit n``, ``war c``, ``monument …``/``decline monument``,
    ``treasure sq``) so that it does not depend on how ``Decision`` spells its kind.
    """
    if state.pending is None:
        return None
    kinds = {str(a).split()[0] for a in engine.legal_actions(state)}
    names = {
        "commit": "support",
        "war": "war",
        "monument": "monument",
        "decline": "monument",
        "treasure": "treasure",
    }
    found = {names.get(k, k) for k in kinds}
    assert len(found) == 1, f"a decision must offer one kind of action, got {sorted(kinds)}"
    return found.pop()


# ---------------------------------------------------------------------------- reading outcomes


def _render(state: Any) -> tuple[dict[str, str], dict[str, str]]:
    headers: dict[str, str] = {}
    cells: dict[str, str] = {}
    for line in diagram.render(state).splitlines():
        tokens = line.split()
        if not tokens:
            continue
        if len(tokens) == 17 and tokens[0].isdigit():
            row = int(tokens[0])
            for col, cell in zip(COLS, tokens[1:], strict=True):
                cells[f"{col}{row}"] = cell
        elif ":" in line and not line.startswith(" "):
            key, _, value = line.partition(":")
            headers[key.strip()] = value.strip()
    assert len(cells) == 176, "render must write 11 rows of 16 cells with row numbers"
    return headers, cells


def cells(state: Any) -> dict[str, str]:
    """Return every square's diagram cell as rendered (``"."``, ``"r*"``, ``"1K"``, ``"#"``…)."""
    return _render(state)[1]


def cell(state: Any, square: str) -> str:
    """Return one square's rendered cell."""
    return cells(state)[square]


def leaders_on_board(state: Any) -> dict[str, str]:
    """Return ``{"1K": "g5", …}`` for every leader on the board."""
    return {c: sq for sq, c in cells(state).items() if re.fullmatch(r"[1-4][KPFT]", c)}


def treasures_on_board(state: Any) -> set[str]:
    """Return the squares holding a treasure."""
    return {sq for sq, c in cells(state).items() if c.endswith("*")}


def vp(state: Any, seat: int) -> dict[str, int]:
    """Return ``{"red": n, "black": n, "blue": n, "green": n, "treasures": n}`` of ``seat``."""
    headers, _ = _render(state)
    line = headers.get(f"vp {seat}", "")
    tokens = line.split()
    totals = {k: 0 for k in (*COLORS, "treasures")}
    for key, value in zip(tokens[::2], tokens[1::2], strict=True):
        totals[key] = int(value)
    return totals


def hand(state: Any, seat: int) -> list[str]:
    """Return ``seat``'s hand as sorted tile letters (``["k", "r", "r"]``)."""
    headers, _ = _render(state)
    return sorted(headers.get(f"hand {seat}", "").split())


def tiles(text: str) -> list[str]:
    """Return tile letters written like a hand line (``"r r k"``) sorted, to compare hands."""
    return sorted(text.split())


def catastrophes_left(state: Any, seat: int) -> int:
    """Return how many catastrophes ``seat`` still holds."""
    headers, _ = _render(state)
    return int(headers.get(f"catastrophes {seat}", "2"))


def bag(state: Any) -> dict[str, int]:
    """Return the bag's content per tile letter (``{"r": 47, "k": 30, "b": 36, "g": 30}``)."""
    headers, _ = _render(state)
    tokens = headers.get("bag", "").split()
    counts = {"r": 0, "k": 0, "b": 0, "g": 0}
    for letter, count in zip(tokens[::2], tokens[1::2], strict=True):
        counts[letter] = int(count)
    return counts


def built_monuments(state: Any) -> dict[str, str]:
    """Return ``{"red-blue": "g4", …}`` for every monument on the board."""
    headers, _ = _render(state)
    return {k.split()[1]: v for k, v in headers.items() if k.startswith("monument ")}


def placing_colors(placing: Any) -> dict[str, int]:
    """Return a ``Placing``'s colours after treasures as ``{"red": n, …}``.

    Issue 3 names the attribute ``colors`` but not its shape: a mapping keyed by colour name,
    letter or enum, a dataclass with colour fields, or a sequence in red, black, blue, green order.
    """
    colors = placing.colors
    if dataclasses.is_dataclass(colors) and not isinstance(colors, type):
        colors = dataclasses.asdict(colors)
    if isinstance(colors, Mapping):
        return {_color_name(k): int(v) for k, v in colors.items()}
    return dict(zip(COLORS, (int(v) for v in colors), strict=True))


def _color_name(key: Any) -> str:
    if isinstance(key, enum.Enum):
        key = key.name if isinstance(key.value, int) else key.value
    name = str(key).lower()
    return COLOR_OF.get(name, name)


def view_json(view: Any) -> str:
    """Return a PlayerView as canonical JSON text (sorted keys), whatever its serialiser."""
    data: Any = view
    for attr in ("to_json", "to_dict", "as_dict", "asdict"):
        method = getattr(view, attr, None)
        if callable(method):
            data = method()
            break
    else:
        if dataclasses.is_dataclass(view) and not isinstance(view, type):
            data = dataclasses.asdict(view)
    if isinstance(data, str):
        data = json.loads(data)
    return json.dumps(data, sort_keys=True, default=str)
