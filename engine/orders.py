"""Standing orders: how a seat's decisions are answered while its player is away (issue 17).

A player may leave orders for the decisions of RULES.md §15 — support in a revolt or a war
as attacker or defender, the order of wars, a monument, treasures. ``order_action(view,
orders)`` reads only what that seat sees (its ``PlayerView``: the pending decision, its own
hand, its legal actions) and returns the legal action the order names, or None when no
order covers the decision (the player is asked). The answer is always one of
``view.actions``: an order that no longer fits asks the player instead.

Orders are slots (``ORDER_SLOTS``) each set to a kind; ``ASK`` is every slot's default::

    orders = StandingOrders.from_dict({"revolt_defender": "all", "monument": "decline"})
    order_action(view_for(state, 2), orders)  # → CommitSupport(3), or None
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .actions import Action, BuildMonument, ChooseWar, CommitSupport, DeclineMonument, TakeTreasure
from .board import SPECIAL_TREASURES
from .views import PlayerView

ASK = "ask"

# Support (RULES.md §6.3, §7.3): every tile of the colour, the fewest that win (a tie
# goes to the defender), or none.
SUPPORT_ALL = "all"
SUPPORT_ENOUGH = "enough"
SUPPORT_NONE = "none"
SUPPORT_KINDS: tuple[str, ...] = (ASK, SUPPORT_ALL, SUPPORT_ENOUGH, SUPPORT_NONE)

WAR_ORDER_LISTED = "listed"  # the wars in colour order: red, black, blue, green (§7.2)
MONUMENT_BUILD = "build"  # the first monument offered: by monument, then square (§8.1)
MONUMENT_DECLINE = "decline"
TREASURE_SPECIAL_FIRST = "special_first"  # special treasures, then in square order (§9)

#: Every slot an order may fill and the kinds each accepts (the first, ``ASK``, is the
#: default). A slot names one decision of RULES.md §15 and the seat's part in it.
ORDER_SLOTS: dict[str, tuple[str, ...]] = {
    "revolt_attacker": SUPPORT_KINDS,
    "revolt_defender": SUPPORT_KINDS,
    "war_attacker": SUPPORT_KINDS,
    "war_defender": SUPPORT_KINDS,
    "war_order": (ASK, WAR_ORDER_LISTED),
    "monument": (ASK, MONUMENT_BUILD, MONUMENT_DECLINE),
    "treasure": (ASK, TREASURE_SPECIAL_FIRST),
}


@dataclass(frozen=True, slots=True)
class StandingOrders:
    """Hold one seat's standing orders: ``kinds`` maps a slot to a kind other than ``ASK``.

    Build with ``from_dict``, which refuses a slot or kind that does not exist; compare
    with ``==``; ``to_dict`` gives back only the slots that do not ask.
    """

    kinds: Mapping[str, str] = field(default_factory=dict)

    @staticmethod
    def from_dict(data: Mapping[str, object]) -> StandingOrders:
        """Return the orders written as ``{slot: kind}``; raise ``ValueError`` naming a bad one.

        A slot set to ``ASK`` is the same as a slot left out.
        """
        kinds: dict[str, str] = {}
        for slot, kind in data.items():
            allowed = ORDER_SLOTS.get(slot)
            if allowed is None:
                raise ValueError(
                    f"unknown standing order {slot!r}: use one of {sorted(ORDER_SLOTS)}"
                )
            if not isinstance(kind, str) or kind not in allowed:
                raise ValueError(
                    f"unknown answer {kind!r} for the standing order {slot!r}: use one of {allowed}"
                )
            if kind != ASK:
                kinds[slot] = kind
        return StandingOrders(dict(sorted(kinds.items())))

    def to_dict(self) -> dict[str, str]:
        """Return ``{slot: kind}`` for the slots that do not ask, in slot order."""
        return dict(sorted(self.kinds.items()))

    def kind(self, slot: str) -> str:
        """Return the kind set for ``slot`` (``ASK`` when none); raise ``KeyError`` if unknown."""
        if slot not in ORDER_SLOTS:
            raise KeyError(slot)
        return self.kinds.get(slot, ASK)


def order_slot(view: PlayerView) -> str | None:
    """Return the slot that covers the decision ``view``'s seat must take now, else None.

    None when the seat is a spectator, does not act now, or acts in an ordinary turn.
    Support is the ``revolt_``/``war_`` slot of the seat's part (``attacker``/``defender``).
    """
    pending = view.pending
    seat = view.seat
    if seat is None or pending is None or view.to_act != seat or pending.seat != seat:
        return None
    if pending.kind == "support":
        part = "attacker" if pending.attacker == view.seat else "defender"
        return f"{pending.conflict}_{part}"
    if pending.kind in ORDER_SLOTS:
        return pending.kind
    return None


def order_action(view: PlayerView, orders: StandingOrders) -> Action | None:
    """Return the legal action ``orders`` give for ``view``'s pending decision, or None.

    ``view`` is the deciding seat's own view (``view_for(state, seat)``): only its hand
    and the public decision are read. None — ask the player — when no slot covers the
    decision, its slot asks, or the order names nothing ``view.actions`` offers.

    Support (RULES.md §6.3, §7.3): ``all`` commits every tile it may, ``none`` nothing,
    ``enough`` the fewest tiles that win — a defender needs only to tie (§6.4), an
    attacker must pass the defender's strength so far — and nothing when even all its
    tiles would not be enough (committed tiles are discarded, win or lose).
    War order (§7.2): ``listed`` fights the wars in colour order (red, black, blue, green).
    Monument (§8.1): ``build`` the first offered (by monument, then square), ``decline``.
    Treasures (§9): ``special_first`` takes a special treasure first, then the first in
    square order (a1, b1, … p11).
    """
    slot = order_slot(view)
    if slot is None:
        return None
    kind = orders.kind(slot)
    if kind == ASK:
        return None
    legal = view.actions
    pending = view.pending
    assert pending is not None  # order_slot found a decision
    chosen: Action | None = None
    if pending.kind == "support":
        counts = sorted(a.count for a in legal if isinstance(a, CommitSupport))
        if not counts:
            return None
        if kind == SUPPORT_ALL:
            chosen = CommitSupport(counts[-1])
        elif kind == SUPPORT_NONE:
            chosen = CommitSupport(counts[0])
        else:
            chosen = CommitSupport(_enough(view, counts))
    elif kind == WAR_ORDER_LISTED:
        chosen = min((a for a in legal if isinstance(a, ChooseWar)), key=_key, default=None)
    elif kind == MONUMENT_BUILD:
        chosen = min((a for a in legal if isinstance(a, BuildMonument)), key=_key, default=None)
    elif kind == MONUMENT_DECLINE:
        chosen = next((a for a in legal if isinstance(a, DeclineMonument)), None)
    elif kind == TREASURE_SPECIAL_FIRST:
        takes = [a for a in legal if isinstance(a, TakeTreasure)]
        chosen = min(takes, key=_treasure_key, default=None)
    return chosen if chosen in legal else None


def _key(action: Action) -> tuple[int, ...]:
    return action.sort_key()


def _treasure_key(action: TakeTreasure) -> tuple[bool, int]:
    return (action.square not in SPECIAL_TREASURES, action.square)


def _enough(view: PlayerView, counts: list[int]) -> int:
    """Return the fewest tiles in ``counts`` that win the conflict for ``view``'s seat, else 0."""
    pending = view.pending
    assert pending is not None and pending.kind == "support"
    attacker = pending.attacker_strength or 0
    defender = pending.defender_strength or 0
    # A tie goes to the defender (§6.4, §7.3): an attacker must pass the defender.
    need = max(defender - attacker + 1 if pending.attacker == view.seat else attacker - defender, 0)
    if need in counts:
        return need
    return counts[0]  # even every tile would lose: keep them
