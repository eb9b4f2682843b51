"""The viewer's legal actions grouped for the page: a hand tile colour, a leader, swaps…

Groups are built from the engine's typed actions (``PlayerView.actions``), by action type
and fields; each button carries the action's notation in ``data-action`` (the stable
contract of ``POST /games/<id>/act``). Buttons are drawn by ``games/_action_buttons.html``,
rendered once per language and group and cached: a turn offers up to ~600 actions, whose
buttons were most of the game partial's bytes and rendering time (bench/page_cost.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.template.loader import get_template
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

import engine
from games.text.actions import SQUARE_MARK, action_words
from games.text.words import COLOR_NAME, LEADER_NAME, TILE_NAME, monument_name


@dataclass(frozen=True, slots=True)
class ActionItem:
    """One legal action: its ``notation``, ``words`` (for the confirm step), the ``square``
    it lands on (``""`` for none) and the ``short`` text of its button."""

    notation: str
    words: str
    square: str
    short: str


@dataclass(frozen=True, slots=True)
class ActionGroup:
    """Legal actions of one kind, in the engine's order (swaps: fewest tiles first).

    ``key`` names the group (``tile-red``, ``leader-king``, ``catastrophe``, ``swap``…);
    ``on_board`` groups land on a square, so the board highlights their targets. ``words``
    is set for groups whose actions differ only by their target square: the words with
    ``SQUARE_MARK`` for the square (the page writes them once per group, not per action).
    """

    key: str
    title: str
    actions: tuple[ActionItem, ...]
    on_board: bool = False
    words: str = ""

    @property
    def buttons_html(self) -> SafeString:
        """Return the buttons (``games/_action_buttons.html``), rendered once per language."""
        return _buttons(get_language(), self)


@lru_cache(maxsize=4096)
def _buttons(language: str | None, group: ActionGroup) -> SafeString:
    return SafeString(get_template("games/_action_buttons.html").render({"group": group}))


def _group_of(action: engine.Action) -> tuple[str, str, bool]:
    """Return ``(key, title, on_board)`` of the group ``action`` belongs to."""
    if isinstance(action, engine.PlaceTile):
        return f"tile-{action.color_name}", str(TILE_NAME[action.color_name]), True
    if isinstance(action, engine.PlaceLeader):
        return f"leader-{action.leader_name}", str(LEADER_NAME[action.leader_name]), True
    if isinstance(action, engine.PlaceCatastrophe):
        return "catastrophe", _("catastrophe"), True
    if isinstance(action, engine.TakeTreasure):
        return "treasure", _("take a treasure"), True
    if isinstance(action, engine.BuildMonument):
        return "monument", _("build a monument"), True
    if isinstance(action, engine.WithdrawLeader):
        return "withdraw", _("withdraw a leader"), False
    if isinstance(action, engine.SwapTiles):
        return "swap", _("swap tiles"), False
    if isinstance(action, engine.CommitSupport):
        return "commit", _("commit support"), False
    if isinstance(action, engine.ChooseWar):
        return "war", _("choose the next war"), False
    return type(action).__name__.lower(), _("other"), False


def _short(action: engine.Action, words: str) -> str:
    """Return the text of ``action``'s button: its square, or a word or two."""
    if isinstance(action, engine.BuildMonument):
        return f"{monument_name(action.monument_name)} {action.target}"
    if action.target is not None:
        return action.target
    if isinstance(action, engine.WithdrawLeader):
        return str(LEADER_NAME[action.leader_name])
    if isinstance(action, engine.SwapTiles):
        return " ".join(str(COLOR_NAME[c]) for c in action.tile_colors)
    if isinstance(action, engine.CommitSupport):
        return str(action.count)
    if isinstance(action, engine.ChooseWar):
        return str(COLOR_NAME[action.color_name])
    return words


# Actions whose words differ only by the square they name.
_SQUARE_ONLY = (engine.PlaceTile, engine.PlaceLeader, engine.PlaceCatastrophe, engine.TakeTreasure)


def action_groups(view: engine.PlayerView) -> list[ActionGroup]:
    """Group the viewer's legal actions (``view.actions``), in the engine's order.

    Leader moves name the square the leader leaves (``view.leaders``); commits the colour
    the pending decision asks for (RULES.md §6.3, §7.3).
    """
    mine = view.leaders.get(view.seat or 0, {})
    support = view.pending.support_color if view.pending is not None else None
    found: dict[str, tuple[str, bool, str, list[tuple[engine.Action, ActionItem]]]] = {}
    for action in view.actions:
        key, title, on_board = _group_of(action)
        from_square = (
            mine.get(action.leader_name) if isinstance(action, engine.PlaceLeader) else None
        )
        if key not in found:
            pattern = ""
            if isinstance(action, _SQUARE_ONLY):
                pattern = action_words(action, from_square=from_square, square=SQUARE_MARK)
            found[key] = (title, on_board, pattern, [])
        pattern, items = found[key][2], found[key][3]
        if pattern:
            words = pattern.replace(SQUARE_MARK, action.target or "")
        else:
            words = action_words(action, from_square=from_square, support_color=support)
        item = ActionItem(str(action), words, action.target or "", _short(action, words))
        items.append((action, item))
    if "swap" in found:
        # Fewest tiles first, then in colour order: "red", "black", …, "red red", …
        found["swap"][3].sort(key=lambda pair: _swap_order(pair[0]))
    return [
        ActionGroup(key, title, tuple(item for _action, item in items), on_board, pattern)
        for key, (title, on_board, pattern, items) in found.items()
    ]


def _swap_order(action: engine.Action) -> tuple[int, tuple[int, ...]]:
    """Order swaps by how many tiles they discard, then by colour (red, black, blue, green)."""
    if not isinstance(action, engine.SwapTiles):
        return (0, ())
    colors = tuple(c for c in range(4) for _unused in range(action.counts[c]))
    return (len(colors), colors)


def board_targets(groups: list[ActionGroup]) -> dict[str, list[str]]:
    """Return square → keys of the groups with an action landing on that square."""
    out: dict[str, list[str]] = {}
    for g in groups:
        for item in g.actions:
            if item.square:
                keys = out.setdefault(item.square, [])
                if g.key not in keys:
                    keys.append(g.key)
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
