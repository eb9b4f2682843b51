"""The game's vocabulary in the viewer's language: colours, tiles, leaders, dynasties, monuments.

Keys are the engine's names (``"red"``, ``"king"``, ``"red-blue"``); values are lazy
translations, so a module-level table follows the language active when it is read.
Terms follow ``locale/GLOSSARY.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

import engine

# The engine's names, in the engine's order (colour order: red, black, blue, green; a leader
# by the colour it stands for: priest, king, farmer, trader; RULES.md §1.2).
COLORS: tuple[engine.Color, ...] = engine.COLOR_NAMES
LEADERS: tuple[engine.Leader, ...] = engine.LEADER_NAMES
# Letters drawn on tiles so colour is never the only cue (temple, settlement, farm, market).
TILE_LETTER: dict[engine.Color, str] = {"red": "T", "black": "S", "blue": "F", "green": "M"}
# The civilization tile of each colour (RULES.md §1.2): the drawing each is shown with.
TILE_KIND: dict[engine.Color, str] = {
    "red": "temple",
    "black": "settlement",
    "blue": "farm",
    "green": "market",
}
# A leader's letter on the board: king, priest, farmer, trader.
LEADER_LETTER: dict[engine.Leader, str] = {"king": "K", "priest": "P", "farmer": "F", "trader": "T"}
TILE_NAME: dict[engine.Color, Promise] = {
    "red": gettext_lazy("red temple"),
    "black": gettext_lazy("black settlement"),
    "blue": gettext_lazy("blue farm"),
    "green": gettext_lazy("green market"),
}
COLOR_NAME: dict[engine.Color, Promise] = {
    "red": gettext_lazy("red"),
    "black": gettext_lazy("black"),
    "blue": gettext_lazy("blue"),
    "green": gettext_lazy("green"),
}
LEADER_NAME: dict[engine.Leader, Promise] = {
    "king": gettext_lazy("king"),
    "priest": gettext_lazy("priest"),
    "farmer": gettext_lazy("farmer"),
    "trader": gettext_lazy("trader"),
}
# Symbols from common fonts (DejaVu, system fonts) rather than emoji, which may be missing.
DYNASTY_SYMBOL = {"archer": "➶", "bull": "♉", "pot": "⚱", "lion": "♌"}
DYNASTY_NAME: dict[str, Promise] = {
    "archer": gettext_lazy("Archer"),
    "bull": gettext_lazy("Bull"),
    "pot": gettext_lazy("Pot"),
    "lion": gettext_lazy("Lion"),
}


def list_text(items: Iterable[Any]) -> str:
    """Return ``items`` as one list in the viewer's language ("red, blue"; "红色、蓝色")."""
    return pgettext("list separator", ", ").join(str(i) for i in items)


def color_word(name: object) -> str:
    """Return colour ``name`` (an engine name, as events carry it) in the viewer's language.

    A name the engine does not know is written as it is (``""`` for None).
    """
    return _word(COLOR_NAME, name)


def tile_word(name: object) -> str:
    """Return the tile of colour ``name`` in the viewer's language (``"red temple"``)."""
    return _word(TILE_NAME, name)


def leader_word(name: object) -> str:
    """Return leader ``name`` in the viewer's language (``"king"``)."""
    return _word(LEADER_NAME, name)


def _word(table: Mapping[Any, Promise], name: object) -> str:
    found = table.get(name)
    if found is not None:
        return str(found)
    return "" if name is None else str(name)


def monument_name(name: object) -> str:
    """Return a monument's name in the viewer's language: ``"red-black"`` → ``"red/black"``.

    A monument is named by its two colours (RULES.md §1.2); unknown names are returned
    as they are.
    """
    by_name: Mapping[Any, tuple[engine.Color, engine.Color]] = engine.MONUMENT_COLORS
    colors = by_name.get(name)
    if colors is None:
        return str(name)
    return f"{COLOR_NAME[colors[0]]}/{COLOR_NAME[colors[1]]}"


def conflict_name(kind: str | None) -> str:
    """Return "revolt" or "war" in the viewer's language (RULES.md §6, §7)."""
    return _("revolt") if kind == "revolt" else _("war")
