"""The board of a game page: one cell per square from ``PlayerView.squares``, drawn by templates.

``board_rows`` turns the engine's ``SquareView`` values (piece, owner, colour, kingdom
outline, monument, treasure, unification marker, river banks) into ``BoardCell`` values and
renders each square with ``games/_square.html`` and each row with ``games/_board_row.html``.
Both renders are cached per language and per what they show: between two renders of a board
almost every square is the same, and rendering its template anew was the largest part of the
game partial's time (bench/page_cost.py). Everything comes from the view: the full
``GameState`` never reaches a template (RULES.md §14).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from operator import attrgetter

from django.template.loader import get_template
from django.utils.safestring import SafeString
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

import engine
from games.text.seats import SeatInfo
from games.text.words import (
    LEADER_LETTER,
    LEADER_NAME,
    TILE_KIND,
    TILE_LETTER,
    TILE_NAME,
    monument_name,
)


@dataclass(frozen=True, slots=True)
class Owner:
    """What a leader's square shows of its seat: symbol, dynasty and readable name."""

    symbol: str
    dynasty: str
    label: str


@dataclass(frozen=True, slots=True)
class BoardCell:
    """One square as the page draws it (``games/_square.html``).

    ``square`` is the engine's ``SquareView``; ``label`` the ``aria-label`` (``"e2, river,
    blue farm"``, ``"a2, land, empty"``; game.js adds ``", legal"`` while a piece that may
    go there is picked); ``letter`` the piece's letter; ``owner`` the leader's seat as shown;
    ``changed`` whether it was touched since the viewer's last move; ``targets`` the keys of
    the action groups that may land there (space-separated); ``pick`` the action group a
    click on the square picks (the viewer's own leader that may move), else ``""``.
    """

    square: engine.SquareView
    label: str
    letter: str
    owner: Owner | None
    changed: bool
    targets: str
    pick: str

    @property
    def kind(self) -> str:
        """Return the drawing of the square's tile (``temple``, ``settlement``…), else ``""``."""
        color = self.square.color
        return TILE_KIND[color] if self.square.piece == "tile" and color is not None else ""


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One row of the board: its ``number`` (1..11), ``cells``, each cell's ``<td>``
    (``cell_html``) and the row's ``html`` (its 16 squares)."""

    number: int
    cells: tuple[BoardCell, ...]
    cell_html: tuple[SafeString, ...]
    html: SafeString


def _label(square: engine.SquareView, owner: Owner | None) -> str:
    """Return a square's name for screen readers: its name, terrain and what lies on it, or
    that nothing does (issue 34: a square never names only its terrain)."""
    words = [square.name, _("river") if square.river else _("land")]
    if square.piece == "empty":
        words.append(pgettext("a square with no piece on it", "empty"))
    elif square.piece == "tile" and square.color:
        words.append(str(TILE_NAME[square.color]))
    elif square.piece == "facedown":
        words.append(_("face-down tile"))
    elif square.piece == "catastrophe":
        words.append(_("catastrophe"))
    elif square.piece == "leader" and square.leader:
        who = owner.label if owner else _("Seat %(n)s") % {"n": square.seat}
        words.append(
            _("%(seat)s's %(leader)s") % {"seat": who, "leader": LEADER_NAME[square.leader]}
        )
    if square.monument:
        words.append(_("%(name)s monument") % {"name": monument_name(square.monument.name)})
    if square.treasure:
        words.append(_("special treasure") if square.special else _("treasure"))
    if square.unification:
        words.append(_("unification marker: wars pending"))
    return ", ".join(str(w) for w in words)


@lru_cache(maxsize=16384)
def _cell(
    language: str | None,
    square: engine.SquareView,
    owner: Owner | None,
    changed: bool,
    targets: str,
    pick: str,
) -> tuple[BoardCell, SafeString]:
    # Cached per language and everything drawn; read-only values, shared between renders.
    if square.piece == "tile" and square.color:
        letter = TILE_LETTER[square.color]
    elif square.piece == "leader" and square.leader:
        letter = LEADER_LETTER[square.leader]
    else:
        letter = ""
    cell = BoardCell(square, _label(square, owner), letter, owner, changed, targets, pick)
    # The autoescaping template's output is already safe; the stubs type it as ``str``.
    return cell, SafeString(get_template("games/_square.html").render({"c": cell}))


@lru_cache(maxsize=4096)
def _row_html(cells: tuple[SafeString, ...]) -> SafeString:
    return SafeString(get_template("games/_board_row.html").render({"cells": cells}))


def board_rows(
    view: engine.PlayerView,
    seats: Mapping[int, SeatInfo],
    *,
    changed: Iterable[str] = (),
    targets: Mapping[str, list[str]] | None = None,
    picks: Mapping[str, str] | None = None,
) -> list[BoardRow]:
    """Return the 11 ``BoardRow`` of the board partial, top row first.

    ``changed`` names the squares touched since the viewer's last move, ``targets`` maps a
    square to the keys of the action groups landing there, ``picks`` a square to the group
    its leader picks. Each row's ``html`` is its 16 squares' ``<td>``, escaped by the
    templates (labels hold player names).
    """
    language = get_language()
    changed_set = set(changed)
    targets = targets or {}
    picks = picks or {}
    owners = {n: Owner(info.symbol, info.dynasty, info.label) for n, info in seats.items()}
    rows = []
    for number, squares in groupby(view.squares, key=attrgetter("row")):
        drawn = [
            _cell(
                language,
                sq,
                owners.get(sq.seat) if sq.seat is not None else None,
                sq.name in changed_set,
                " ".join(targets.get(sq.name, ())),
                picks.get(sq.name, ""),
            )
            for sq in squares
        ]
        cell_html = tuple(html for _cell, html in drawn)
        rows.append(
            BoardRow(
                number=number,
                cells=tuple(cell for cell, _html in drawn),
                cell_html=cell_html,
                html=_row_html(cell_html),
            )
        )
    return rows
