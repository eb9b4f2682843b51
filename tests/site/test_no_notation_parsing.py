"""Outside ``engine/`` nothing takes notation or square names apart (issue 27).

The engine says what a move shows (``engine.seen_action``), which squares a monument covers
(``BuildMonument.touched``), where the river meets the land (``SquareView.banks``), the order
of squares (``engine.square_coords``) and which square an action lands on (``target``). The
site reads those; it never splits ``"tile red f7"``, slices ``"b8"`` into a letter and a
number, or counts the board's 16 columns and 11 rows itself.

The check reads the site's Python (``games/``, ``tigris_site/``) as syntax trees and its
script (``static/``) as text. In Python it flags string surgery — ``split``, ``partition``,
``startswith``…, a subscript or slice, ``int()`` of one — applied to anything named like
notation or a square (``action``, ``notation``, ``square``, ``target``, ``top``, ``options``…),
and arithmetic or comparisons between a row or column and the board's sizes (11, 16). The
planted examples below show each rule catching what it is for.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.services import ROOT

# Names that hold one action's notation or one square's name in the site's code, and names
# of collections of them (an element of one, ``for m in preview.monuments``, is one).
NOTATION_WORDS = frozenset(
    {"action", "notation", "square", "sq", "target", "top", "from_square", "token"}
)
COLLECTION_WORDS = frozenset(
    {"actions", "legal_actions", "options", "squares", "tokens", "board", "monuments"}
)
STRING_SURGERY = frozenset(
    {
        "split",
        "rsplit",
        "partition",
        "rpartition",
        "startswith",
        "endswith",
        "removeprefix",
        "removesuffix",
        "isdigit",
        "isalpha",
        "index",
        "find",
        "rfind",
    }
)
BOARD_SIZES = frozenset({11, 16})
ROW_COL_WORDS = frozenset({"row", "rows", "col", "cols", "column", "columns", "r", "c"})


@dataclass(frozen=True)
class Finding:
    """One place that takes notation or a square name apart: ``line`` and what it does."""

    line: int
    what: str


def _words(node: ast.AST) -> set[str]:
    """Return the identifiers an expression is made of (names, attributes, string keys).

    ``x.get("square")`` and ``x["square"]`` count as ``square``.
    """
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            out.add(sub.id.lower())
        elif isinstance(sub, ast.Attribute):
            out.add(sub.attr.lower())
        elif isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant):
            if isinstance(sub.slice.value, str):
                out.add(sub.slice.value.lower())
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
            first = sub.args[0] if sub.func.attr == "get" and sub.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                out.add(first.value.lower())  # params.get("square")
    return out


def _is_notation_word(word: str) -> bool:
    return word in NOTATION_WORDS or word.endswith(("_square", "_action", "_notation"))


def _tainted(tree: ast.AST) -> set[str]:
    """Return the names bound to one notation or square: ``for m in preview.monuments``,
    ``at = action.target`` (module-wide, by name: the site's names are not reused so)."""
    out: set[str] = set()
    for _round in range(2):  # a name bound from a tainted name
        for node in ast.walk(tree):
            if isinstance(node, ast.For | ast.comprehension):
                target, words = node.target, _words(node.iter)
                one = any(w in COLLECTION_WORDS or w in out for w in words)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and _read(node.value):
                target, words = node.targets[0], _words(node.value)
                one = any(_is_notation_word(w) or w in out for w in words)
            else:
                continue
            if one and isinstance(target, ast.Name) and target.id not in COLLECTION_WORDS:
                out.add(target.id.lower())
    return out


def _read(value: ast.AST) -> bool:
    """Return whether ``value`` only reads a value (``x.target``, ``p.get("square") or ""``,
    ``str(x)``), rather than building a new one from it (a call, a comprehension)."""
    if isinstance(value, ast.Name | ast.Attribute | ast.Subscript | ast.Constant):
        return True
    if isinstance(value, ast.BoolOp):
        return all(_read(v) for v in value.values)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute | ast.Name):
        name = value.func.attr if isinstance(value.func, ast.Attribute) else value.func.id
        return name in ("get", "str", "strip", "lower") and all(_read(a) for a in value.args)
    return False


def _truncation(index: ast.AST) -> bool:
    """Return whether ``index`` is ``[:n]`` with a large ``n``: a length limit, not parsing."""
    return (
        isinstance(index, ast.Slice)
        and index.lower is None
        and isinstance(index.upper, ast.Constant)
        and isinstance(index.upper.value, int)
        and index.upper.value >= 8
    )


def _is_board_size(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in BOARD_SIZES


def notation_parsing(source: str) -> list[Finding]:
    """Return the places in Python ``source`` that take notation or square names apart."""
    tree = ast.parse(source)
    tainted = _tainted(tree)

    def names_notation(node: ast.AST, *, collections: bool = True) -> bool:
        return any(
            _is_notation_word(w) or w in tainted or (collections and w in COLLECTION_WORDS)
            for w in _words(node)
        )

    found: list[Finding] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in STRING_SURGERY and names_notation(node.func.value):
                found.append(Finding(node.lineno, f".{node.func.attr}() on notation"))
        elif isinstance(node, ast.Subscript) and names_notation(node.value, collections=False):
            index = node.slice
            if _truncation(index):
                continue
            if isinstance(index, ast.Slice) or (
                isinstance(index, ast.Constant | ast.UnaryOp)
                and not isinstance(getattr(index, "value", None), str)
            ):
                found.append(Finding(node.lineno, "a subscript or slice of notation"))
        elif isinstance(node, ast.BinOp | ast.Compare):
            parts = (
                [node.left, node.right]
                if isinstance(node, ast.BinOp)
                else [node.left, *node.comparators]
            )
            sizes = any(_is_board_size(p) for part in parts for p in ast.walk(part))
            if sizes and any(_words(part) & ROW_COL_WORDS for part in parts):
                found.append(Finding(node.lineno, "board geometry (11 rows, 16 columns)"))
    return sorted(set(found), key=lambda f: f.line)


# What the script does with notation: split it, match its end, or step over 16 squares.
SCRIPT_PATTERNS = {
    "splits notation": re.compile(r"(notation|action)[\w.]*\.split\("),
    "matches the end of notation": re.compile(r"data-action\$="),
    "counts the board's columns": re.compile(r"[-+%] ?16\b|\b16 ?[-+%*]|: ?-?16\b"),
}


def script_parsing(source: str) -> list[Finding]:
    """Return the places in a script ``source`` that take notation apart or count columns."""
    return [
        Finding(number, what)
        for number, line in enumerate(source.splitlines(), start=1)
        for what, pattern in SCRIPT_PATTERNS.items()
        if pattern.search(line)
    ]


def site_python() -> list[Path]:
    files = [*(ROOT / "games").rglob("*.py"), *(ROOT / "tigris_site").rglob("*.py")]
    return sorted(p for p in files if "migrations" not in p.parts)


def test_the_sites_python_takes_no_notation_apart() -> None:
    found = {
        str(path.relative_to(ROOT)): notation_parsing(path.read_text(encoding="utf-8"))
        for path in site_python()
    }
    assert {path: f for path, f in found.items() if f} == {}


def test_the_sites_script_takes_no_notation_apart() -> None:
    found = {
        str(path.relative_to(ROOT)): script_parsing(path.read_text(encoding="utf-8"))
        for path in (ROOT / "static").rglob("*.js")
    }
    assert {path: f for path, f in found.items() if f} == {}


@pytest.mark.parametrize(
    ("planted", "what"),
    [
        # The record's old hidden swap, the default policy's old square key, the old block.
        ('if move.action.startswith("swap "):\n    pass', ".startswith() on notation"),
        ("n = len(move.action.split()) - 1", ".split() on notation"),
        ('key = (square or "")[:1], int(square[1:] or 0)', "a subscript or slice of notation"),
        ("row = int(top[1:]) + 1", "a subscript or slice of notation"),
        ("names = {m.split()[0] for m in preview.monuments}", ".split() on notation"),
        ('head, _, rest = action.partition(" ")', ".partition() on notation"),
        # The board's old river banks: rows and columns against the board's size.
        ("ok = 0 <= r < 11 and 0 <= c < 16", "board geometry (11 rows, 16 columns)"),
        ("other = squares[r * 16 + c]", "board geometry (11 rows, 16 columns)"),
    ],
)
def test_the_check_catches_a_planted_example(planted: str, what: str) -> None:
    assert what in [f.what for f in notation_parsing(planted)], notation_parsing(planted)


@pytest.mark.parametrize(
    "fine",
    [
        "text = str(engine.seen_action(move.action, player=1, viewer=2, game_over=False))",
        'first, last = monument.touched[0], p["square"]',
        'action = request.GET.get("action", "")[:64]',
        "first = engine.legal_actions(state)[0]",
        'parts = header.partition(" ")',
        'lookup.split("__", 1)[0]',
        "key = engine.square_coords(action.target)",
        "for number, squares in groupby(view.squares, key=attrgetter('row')): pass",
    ],
)
def test_the_check_leaves_other_string_work_alone(fine: str) -> None:
    assert notation_parsing(fine) == []


@pytest.mark.parametrize(
    ("planted", "what"),
    [
        ('var sq = notation.split(" ").pop();', "splits notation"),
        ("q('[data-action$=\" ' + square + '\"]')", "matches the end of notation"),
        ("var step = {ArrowUp: -16, ArrowDown: 16}[key];", "counts the board's columns"),
        ("next = cells[i - (i % 16)];", "counts the board's columns"),
    ],
)
def test_the_script_check_catches_a_planted_example(planted: str, what: str) -> None:
    assert what in [f.what for f in script_parsing(planted)]
