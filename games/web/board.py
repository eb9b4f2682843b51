"""Turn an ``engine.PlayerView`` into template-ready values (RULES.md §14).

This module and ``gamelog`` are the only places that read the engine's view fields, so a
renamed field costs one edit here. Everything returned derives from the view alone: the
full ``GameState`` never reaches a template.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext
from django.utils.translation import gettext as _

import engine
from engine.board import COL_LETTERS, IS_RIVER, SPECIAL_TREASURES, SQUARE_BY_NAME

COLORS = ("red", "black", "blue", "green")
LEADERS = ("king", "priest", "farmer", "trader")
LEADER_COLOR = {"king": "black", "priest": "red", "farmer": "blue", "trader": "green"}
LEADER_BY_LETTER = {"K": "king", "P": "priest", "F": "farmer", "T": "trader"}
TILE_BY_LETTER = {"r": "red", "k": "black", "b": "blue", "g": "green"}
# Letters drawn on tiles so colour is never the only cue (temple, settlement, farm, market).
TILE_LETTER = {"red": "T", "black": "S", "blue": "F", "green": "M"}
TILE_NAME = {
    "red": gettext_lazy("red temple"),
    "black": gettext_lazy("black settlement"),
    "blue": gettext_lazy("blue farm"),
    "green": gettext_lazy("green market"),
}
COLOR_NAME = {
    "red": gettext_lazy("red"),
    "black": gettext_lazy("black"),
    "blue": gettext_lazy("blue"),
    "green": gettext_lazy("green"),
}
LEADER_NAME = {
    "king": gettext_lazy("king"),
    "priest": gettext_lazy("priest"),
    "farmer": gettext_lazy("farmer"),
    "trader": gettext_lazy("trader"),
}
# Symbols from common fonts (DejaVu, system fonts) rather than emoji, which may be missing.
DYNASTY_SYMBOL = {"archer": "➶", "bull": "♉", "pot": "⚱", "lion": "♌"}
DYNASTY_NAME = {
    "archer": gettext_lazy("Archer"),
    "bull": gettext_lazy("Bull"),
    "pot": gettext_lazy("Pot"),
    "lion": gettext_lazy("Lion"),
}


@dataclass(frozen=True)
class SeatInfo:
    """Public facts about one seat from the database: number, player name and dynasty."""

    position: int
    username: str
    dynasty: str
    final_rank: int | None = None
    final_score: dict[str, Any] | None = None

    @property
    def symbol(self) -> str:
        """Return the dynasty's symbol (an emoji)."""
        return DYNASTY_SYMBOL.get(self.dynasty, "")

    @property
    def label(self) -> str:
        """Return "Seat 2 (bob, Bull)"."""
        return _("Seat %(n)s (%(name)s, %(dynasty)s)") % {
            "n": self.position,
            "name": self.username,
            "dynasty": DYNASTY_NAME.get(self.dynasty, self.dynasty),
        }


def list_text(items: Iterable[Any]) -> str:
    """Return ``items`` as one list in the viewer's language ("red, blue"; "红色、蓝色")."""
    return pgettext("list separator", ", ").join(str(i) for i in items)


def seat_label(seats: Mapping[int, SeatInfo], seat: int | None) -> str:
    """Return a seat's readable name, or "nobody" for None."""
    if seat is None:
        return _("nobody")
    info = seats.get(int(seat))
    return info.label if info else _("Seat %(n)s") % {"n": seat}


def monument_name(name: str) -> str:
    """Return a monument's name in the viewer's language: ``"red-black"`` → ``"red/black"``.

    A monument is named by its two colours (RULES.md §1.2); unknown names are returned
    as they are.
    """
    colors = name.split("-")
    if len(colors) != 2 or any(c not in COLOR_NAME for c in colors):
        return name
    return f"{COLOR_NAME[colors[0]]}/{COLOR_NAME[colors[1]]}"


def _monument_squares(built: Mapping[str, str]) -> dict[str, str]:
    """Return square name → monument name for each of the four squares of a built monument."""
    out = {}
    for name, top in built.items():
        col, row = top[0], int(top[1:])
        ci = COL_LETTERS.index(col)
        for dc in (0, 1):
            for dr in (0, 1):
                out[f"{COL_LETTERS[ci + dc]}{row + dr}"] = name
    return out


@dataclass(frozen=True)
class _LeaderOwner:
    """What a leader's square shows of its seat: symbol, dynasty and readable name."""

    symbol: str
    dynasty: str
    label: str


def _cell(
    token: str,
    square: str,
    owner: _LeaderOwner | None,
    monument: str,
    unification: bool,
) -> dict[str, Any]:
    river = IS_RIVER[SQUARE_BY_NAME[square]]
    treasure = token.endswith("*")
    token = token.rstrip("*")
    cell: dict[str, Any] = {
        "name": square,
        "river": river,
        "treasure": treasure,
        "special": treasure and SQUARE_BY_NAME[square] in SPECIAL_TREASURES,
        "kind": "empty",
        "monument": monument,
        "unification": unification,
    }
    words = [square, _("river") if river else _("land")]
    if token in TILE_BY_LETTER:
        color = TILE_BY_LETTER[token]
        cell.update(kind="tile", color=color, letter=TILE_LETTER[color])
        words.append(str(TILE_NAME[color]))
    elif token == "#":
        cell.update(kind="facedown", letter="")
        words.append(_("face-down tile"))
    elif token == "x":
        cell.update(kind="catastrophe", letter="✕")
        words.append(_("catastrophe"))
    elif len(token) == 2 and token[0].isdigit():
        seat = int(token[0])
        leader = LEADER_BY_LETTER[token[1]]
        cell.update(
            kind="leader",
            seat=seat,
            leader=leader,
            color=LEADER_COLOR[leader],
            letter=token[1],
            symbol=owner.symbol if owner else "",
            dynasty=owner.dynasty if owner else "",
        )
        label = owner.label if owner else _("Seat %(n)s") % {"n": seat}
        words.append(_("%(seat)s's %(leader)s") % {"seat": label, "leader": LEADER_NAME[leader]})
    if cell["monument"]:
        words.append(_("%(name)s monument") % {"name": monument_name(cell["monument"])})
    if treasure:
        words.append(_("special treasure") if cell["special"] else _("treasure"))
    if cell["unification"]:
        words.append(_("unification marker: wars pending"))
    cell["label"] = ", ".join(str(w) for w in words)
    return cell


_SIDES = (("n", -1, 0), ("e", 0, 1), ("s", 1, 0), ("w", 0, -1))
# Square name → the names of its neighbours per side (None off the board), computed once.
_NEIGHBOURS: dict[str, tuple[tuple[str, str | None], ...]] = {
    f"{COL_LETTERS[c]}{r + 1}": tuple(
        (
            side,
            f"{COL_LETTERS[c + dc]}{r + dr + 1}" if 0 <= r + dr < 11 and 0 <= c + dc < 16 else None,
        )
        for side, dr, dc in _SIDES
    )
    for r in range(11)
    for c in range(16)
}


def _kingdom_edges(kingdoms: Mapping[str, int], square: str) -> tuple[str, ...]:
    """Return the sides (``n e s w``) where the square's kingdom ends (RULES.md §3).

    The board draws these sides as a thick dashed line, so kingdoms read by pattern and
    not by colour alone. A square outside any kingdom has none.
    """
    kingdom = kingdoms.get(square)
    if kingdom is None:
        return ()
    return tuple(
        side
        for side, neighbour in _NEIGHBOURS[square]
        if neighbour is None or kingdoms.get(neighbour) != kingdom
    )


def _cell_html(cell: Mapping[str, Any], marker_title: str) -> SafeString:
    """Return the ``<td>`` of one board square (see ``board_rows`` for the cell's keys).

    Built here rather than in a template loop: the 176 squares' lookups were the largest
    part of the game partial's rendering time (bench/web_load.py). The label is escaped
    (it holds player names); every other value comes from a fixed vocabulary.
    """
    classes = ["sq", "river" if cell["river"] else "land", f"k-{cell['kind']}"]
    if cell["monument"]:
        classes.append("monument")
    if cell["changed"]:
        classes.append("changed")
    classes.extend(f"kb-{side}" for side in cell["kingdom_edges"])
    label = escape(cell["label"])
    attrs = f' data-targets="{cell["targets"]}"' if cell["targets"] else ""
    if cell["pick"]:
        # The viewer's own leader: clicking it picks its group, as the list does.
        classes.append("pick")
        attrs += f' data-group="{cell["pick"]}"'

    kind = cell["kind"]
    if kind == "tile":
        inner = f'<span class="piece tile c-{cell["color"]}">{cell["letter"]}</span>'
    elif kind == "leader":
        inner = (
            f'<span class="piece leader c-{cell["color"]} d-{cell["dynasty"]}">'
            f'<span class="sym">{cell["symbol"]}</span>{cell["letter"]}</span>'
        )
    elif kind == "catastrophe":
        inner = '<span class="piece cat">✕</span>'
    elif kind == "facedown" and cell["monument"]:
        # A monument's four face-down tiles show its two colours, split on the diagonal.
        first, second = cell["monument"].split("-")
        inner = f'<span class="piece facedown mon a-{first} b-{second}">▦</span>'
    elif kind == "facedown":
        inner = '<span class="piece facedown">▦</span>'
    else:
        inner = ""
    if cell["treasure"]:
        inner += (
            '<span class="treasure special">◆</span>'
            if cell["special"]
            else '<span class="treasure">◇</span>'
        )
    if cell["unification"]:
        inner += f'<span class="unification" title="{escape(marker_title)}">⚔</span>'
    return mark_safe(  # noqa: S308 - the label and title are escaped, the rest is fixed
        f'<td role="gridcell" class="{" ".join(classes)}" data-square="{cell["name"]}"{attrs} '
        f'aria-label="{label}" title="{label}">{inner}</td>'
    )


@lru_cache(maxsize=8192)
def _square(
    language: str | None,
    token: str,
    square: str,
    owner: _LeaderOwner | None,
    monument: str,
    unification: bool,
    changed: bool,
    targets: str,
    edges: tuple[str, ...],
    pick: str,
) -> Mapping[str, Any]:
    # Cached per language and everything drawn: between two renders of a board almost
    # every square is the same, and building its words anew (a dozen translations) was
    # the largest part of the partial's time (bench/page_cost.py). Read-only: shared.
    cell = _cell(token, square, owner, monument, unification)
    cell.update(changed=changed, targets=targets, kingdom_edges=list(edges), pick=pick)
    cell["html"] = _cell_html(cell, _("unification marker"))
    return MappingProxyType(cell)


def board_rows(
    view: engine.PlayerView,
    seats: Mapping[int, SeatInfo],
    *,
    changed: Iterable[str] = (),
    targets: Mapping[str, list[str]] | None = None,
    picks: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Return 11 rows ``{"number", "cells": [cell × 16], "html"}`` for the board partial.

    A cell is a read-only mapping with ``name`` (``"e2"``), ``river``, ``kind`` (empty,
    tile, facedown, catastrophe, leader), ``color``, ``letter``, ``treasure``, ``special``,
    ``monument``, ``unification`` (the marker lies here while wars are pending, RULES.md
    §7.1), ``label`` (the ``aria-label``: ``"e2, river, blue farm"``), ``changed`` (touched
    since the viewer's last move), ``targets`` (the action groups that may land there),
    ``kingdom_edges`` (the sides where the square's kingdom ends), ``pick`` (the action
    group a click on the square picks: the viewer's own leader that may move, from
    ``picks``) and ``html``, the square's ``<td>`` ready to render; a row's ``html`` is its
    16 squares' (escaped).
    """
    language = get_language()
    monuments = _monument_squares(view.monuments_built)
    changed_set = set(changed)
    targets = targets or {}
    picks = picks or {}
    owners = {
        str(n): _LeaderOwner(info.symbol, info.dynasty, info.label) for n, info in seats.items()
    }
    rows = []
    for r, line in enumerate(view.board):
        cells = []
        for c, token in enumerate(line.split()):
            square = f"{COL_LETTERS[c]}{r + 1}"
            cells.append(
                _square(
                    language,
                    token,
                    square,
                    owners.get(token[0]) if token[0].isdigit() else None,
                    monuments.get(square, ""),
                    square == view.unification,
                    square in changed_set,
                    " ".join(targets.get(square, ())),
                    _kingdom_edges(view.kingdoms, square),
                    picks.get(square, ""),
                )
            )
        rows.append(
            {
                "number": r + 1,
                "cells": cells,
                "html": mark_safe("".join(cell["html"] for cell in cells)),  # noqa: S308
            }
        )
    return rows


def hand_tiles(hand: Mapping[str, int] | None) -> list[dict[str, Any]]:
    """Return one item per tile in ``hand`` (colour counts) in colour order."""
    if not hand:
        return []
    return [
        {"color": color, "letter": TILE_LETTER[color], "name": TILE_NAME[color]}
        for color in COLORS
        for _unused in range(int(hand.get(color, 0)))
    ]


def hand_code(hand: Mapping[str, int] | None) -> str:
    """Return a hand as ``"red:3,black:0,blue:2,green:1"`` (the ``data-hand`` attribute)."""
    if hand is None:
        return ""
    return ",".join(f"{c}:{int(hand.get(c, 0))}" for c in COLORS)


def players(view: engine.PlayerView, seats: Mapping[int, SeatInfo]) -> list[dict[str, Any]]:
    """Return the public panel of every seat, with totals only where the view has them."""
    out = []
    for n in range(1, view.num_players + 1):
        info = seats.get(n)
        leaders = view.leaders.get(n, {})
        scores = view.scores.get(n)
        hand = view.hands.get(n) if view.hands else None
        out.append(
            {
                "seat": n,
                "label": seat_label(seats, n),
                "username": info.username if info else "",
                "symbol": info.symbol if info else "",
                "dynasty": info.dynasty if info else "",
                "is_me": view.seat == n,
                "to_act": view.to_act == n,
                "active": view.active_seat == n,
                "supply": [
                    {"leader": name, "name": LEADER_NAME[name], "color": LEADER_COLOR[name]}
                    for name in LEADERS
                    if leaders.get(name) is None
                ],
                "catastrophes": view.catastrophes.get(n, 0),
                "hand_size": view.hand_sizes.get(n, 0),
                "scores": scores,
                "score_code": score_code(scores),
                "hand": hand_tiles(hand) if hand is not None else None,
                "final_rank": info.final_rank if info else None,
                "final_score": info.final_score if info else None,
            }
        )
    return out


def score_code(scores: Mapping[str, int] | None) -> str:
    """Return totals as ``"red:3,black:0,blue:2,green:1,treasures:0"`` (``data-vp``)."""
    if scores is None:
        return ""
    return ",".join(f"{k}:{int(scores.get(k, 0))}" for k in (*COLORS, "treasures"))


def ranking(view: engine.PlayerView, seats: Mapping[int, SeatInfo]) -> list[dict[str, Any]]:
    """Return the final ranking rows (rank, seat label, treasures, colours after them, score)."""
    rows = []
    for placing in view.ranking:
        colors = list(placing["colors"])
        rows.append(
            {
                "rank": placing["rank"],
                "seat": placing["seat"],
                "label": seat_label(seats, placing["seat"]),
                "treasures": (view.scores.get(placing["seat"]) or {}).get("treasures", 0),
                "colors": dict(zip(COLORS, colors, strict=True)),
                "sorted": sorted(colors),
                "score": placing.get("score", min(colors)),
            }
        )
    return rows


# ----------------------------------------------------------------------------- actions


def action_words(notation: str, view: engine.PlayerView) -> str:
    """Return an action in words for the confirm step (``"Place a red temple on f7"``)."""
    words = notation.split()
    from_square = None
    if words[0] == "leader":
        from_square = view.leaders.get(view.seat or 0, {}).get(words[1])
    support_color = view.pending.support_color if words[0] == "commit" and view.pending else None
    return _action_words(get_language(), notation, from_square, support_color)


@lru_cache(maxsize=8192)
def _action_words(
    language: str | None, notation: str, from_square: str | None, support_color: str | None
) -> str:
    # Cached per language: a turn offers up to ~600 actions, and translating each one's
    # words anew cost a fifth of the game partial's rendering time (bench/web_load.py).
    words = notation.split()
    head, args = words[0], words[1:]
    if head == "tile":
        return _("Place a %(tile)s on %(square)s") % {
            "tile": TILE_NAME[args[0]],
            "square": args[1],
        }
    if head == "leader":
        if from_square:
            return _("Move your %(leader)s from %(from)s to %(square)s") % {
                "leader": LEADER_NAME[args[0]],
                "from": from_square,
                "square": args[1],
            }
        return _("Place your %(leader)s on %(square)s") % {
            "leader": LEADER_NAME[args[0]],
            "square": args[1],
        }
    if head == "withdraw":
        return _("Withdraw your %(leader)s") % {"leader": LEADER_NAME[args[0]]}
    if head == "catastrophe":
        return _("Place a catastrophe on %(square)s") % {"square": args[0]}
    if head == "swap":
        return ngettext("Swap %(n)s tile: %(tiles)s", "Swap %(n)s tiles: %(tiles)s", len(args)) % {
            "n": len(args),
            "tiles": list_text(COLOR_NAME[a] for a in args),
        }
    if head == "pass":
        return _("Pass and end your turn")
    if head == "commit":
        n = int(args[0])
        return ngettext(
            "Commit %(n)s %(color)s tile as support", "Commit %(n)s %(color)s tiles as support", n
        ) % {
            "n": n,
            "color": COLOR_NAME.get(support_color or "", ""),
        }
    if head == "war":
        return _("Fight the %(color)s war next") % {"color": COLOR_NAME[args[0]]}
    if head == "monument":
        return _("Build the %(name)s monument on %(square)s") % {
            "name": monument_name(args[0]),
            "square": args[1],
        }
    if head == "decline":
        return _("Decline to build a monument")
    if head == "treasure":
        return _("Take the treasure on %(square)s") % {"square": args[0]}
    return notation


# Stands for the target square in a group's words (``"Place a red temple on @"``).
SQUARE_MARK = "@"


@dataclass
class ActionGroup:
    """Legal actions of one kind: a hand tile colour, a leader, catastrophes, swaps…

    ``words`` is set for groups whose actions differ only by their target square: the
    words of every action with ``SQUARE_MARK`` for the square (the page writes them once
    per group, not once per action).
    """

    key: str
    title: str
    actions: list[dict[str, str]] = field(default_factory=list)
    on_board: bool = False
    words: str = ""

    def buttons_html(self) -> SafeString:
        """Return one button per action, each carrying its ``data-action`` notation.

        A group without ``words`` also gives each button its ``data-words``. Built here
        rather than in a template loop, and kept short: a turn offers up to ~600 actions,
        whose buttons were most of the game partial's bytes and rendering time
        (bench/page_cost.py). Every value is escaped.
        """
        if self.words:
            parts = [
                f'<button data-action="{html.escape(a["notation"])}">'
                f"{html.escape(a['short'])}</button>"
                for a in self.actions
            ]
        else:
            parts = [
                f'<button data-action="{html.escape(a["notation"])}" '
                f'data-words="{html.escape(a["words"])}">{html.escape(a["short"])}</button>'
                for a in self.actions
            ]
        return mark_safe(" ".join(parts))  # noqa: S308 - every value is escaped just above


# Actions whose words differ only by the square they name (the last word of the notation).
_SQUARE_ONLY = {"tile", "leader", "catastrophe", "treasure"}


def action_groups(view: engine.PlayerView) -> list[ActionGroup]:
    """Group the viewer's legal actions (``view.legal_actions``, engine notation only).

    Each action is ``{"notation", "words", "square", "short"}``; groups whose actions
    land on a square (``on_board``) let the board highlight their targets.
    """
    groups: dict[str, ActionGroup] = {}

    def group(key: str, title: Any, on_board: bool = False) -> ActionGroup:
        if key not in groups:
            groups[key] = ActionGroup(key=key, title=str(title), on_board=on_board)
        return groups[key]

    for notation in view.legal_actions:
        words = notation.split()
        head = words[0]
        item = {"notation": notation, "square": ""}
        if head == "tile":
            g = group(f"tile-{words[1]}", TILE_NAME[words[1]], True)
            item.update(square=words[2], short=words[2])
        elif head == "leader":
            g = group(f"leader-{words[1]}", LEADER_NAME[words[1]], True)
            item.update(square=words[2], short=words[2])
        elif head == "catastrophe":
            g = group("catastrophe", _("catastrophe"), True)
            item.update(square=words[1], short=words[1])
        elif head == "treasure":
            g = group("treasure", _("take a treasure"), True)
            item.update(square=words[1], short=words[1])
        elif head == "monument":
            g = group("monument", _("build a monument"), True)
            item.update(square=words[2], short=f"{monument_name(words[1])} {words[2]}")
        elif head == "withdraw":
            g = group("withdraw", _("withdraw a leader"))
            item["short"] = str(LEADER_NAME[words[1]])
        elif head == "swap":
            g = group("swap", _("swap tiles"))
            item["short"] = " ".join(str(COLOR_NAME[c]) for c in words[1:])
        elif head == "commit":
            g = group("commit", _("commit support"))
            item["short"] = words[1]
        elif head == "war":
            g = group("war", _("choose the next war"))
            item["short"] = str(COLOR_NAME[words[1]])
        else:
            g = group(head, _("other"))
        if head in _SQUARE_ONLY:
            if not g.words:
                g.words = action_words(" ".join([*words[:-1], SQUARE_MARK]), view)
            item["words"] = g.words.replace(SQUARE_MARK, words[-1])
        else:
            item["words"] = action_words(notation, view)
            item.setdefault("short", item["words"])
        g.actions.append(item)
    if "swap" in groups:
        # Fewest tiles first, then in colour order: "red", "black", …, "red red", …
        groups["swap"].actions.sort(
            key=lambda a: (
                len(a["notation"].split()),
                [COLORS.index(c) for c in a["notation"].split()[1:]],
            )
        )
    return list(groups.values())


def board_targets(groups: list[ActionGroup]) -> dict[str, list[str]]:
    """Return square → keys of the groups with an action landing on that square."""
    out: dict[str, list[str]] = {}
    for g in groups:
        for item in g.actions:
            if item["square"]:
                out.setdefault(item["square"], [])
                if g.key not in out[item["square"]]:
                    out[item["square"]].append(g.key)
    return out


def board_picks(view: engine.PlayerView, groups: list[ActionGroup]) -> dict[str, str]:
    """Return square → group key for the viewer's leaders on the board that may move now."""
    keys = {g.key for g in groups if g.on_board}
    mine = view.leaders.get(view.seat or 0, {}) if view.seat is not None else {}
    return {
        square: f"leader-{leader}"
        for leader, square in mine.items()
        if square and f"leader-{leader}" in keys
    }


# ----------------------------------------------------------------------------- decisions


def waiting_text(view: engine.PlayerView, seats: Mapping[int, SeatInfo]) -> str:
    """Return what the game waits for, and on whom (``"Waiting for Seat 2 … to commit"``)."""
    if view.is_over:
        return _("The game is over.")
    who = seat_label(seats, view.to_act)
    pending = view.pending
    if pending is None:
        return _("Waiting for %(who)s to take an action (%(n)s left this turn).") % {
            "who": who,
            "n": view.actions_left,
        }
    kind = pending.kind
    if kind == "support":
        return _("Waiting for %(who)s to commit support in the %(color)s %(conflict)s.") % {
            "who": who,
            "color": COLOR_NAME.get(pending.color or "", ""),
            "conflict": conflict_name(pending.conflict),
        }
    if kind == "war_order":
        return _("Waiting for %(who)s to choose which war is fought next.") % {"who": who}
    if kind == "monument":
        return _("Waiting for %(who)s to build a monument or decline.") % {"who": who}
    if kind == "treasure":
        return _("Waiting for %(who)s to choose treasures.") % {"who": who}
    return _("Waiting for %(who)s.") % {"who": who}


def conflict_name(kind: str | None) -> str:
    """Return "revolt" or "war" in the viewer's language."""
    return _("revolt") if kind == "revolt" else _("war")


def decision(view: engine.PlayerView, seats: Mapping[int, SeatInfo]) -> dict[str, Any] | None:
    """Return the pending decision for the panel, or None when no decision is pending.

    ``{"kind", "seat", "mine", "waiting", "conflict", "color", "support_color",
    "attacker", "defender", "attacker_strength", "defender_strength", "options", "count"}``
    with seats as labels; every value is public (RULES.md §15).
    """
    pending = view.pending
    if pending is None or view.is_over:
        return None
    out = pending.to_dict()
    out["mine"] = view.seat is not None and pending.seat == view.seat
    out["waiting"] = waiting_text(view, seats)
    out["who"] = seat_label(seats, pending.seat)
    out["conflict_name"] = conflict_name(pending.conflict)
    out["color_name"] = COLOR_NAME.get(pending.color or "", "")
    out["support_color_name"] = COLOR_NAME.get(pending.support_color or "", "")
    if pending.attacker is not None:
        out["attacker_label"] = seat_label(seats, pending.attacker)
        out["defender_label"] = seat_label(seats, pending.defender)
    return out
