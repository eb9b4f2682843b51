"""The standing orders form (issue 17): one choice a decision, for a game or as the default.

The slots and the answers each accepts are the engine's (``engine.ORDER_SLOTS``); this
form gives them words. A choice that does not exist is refused by the form, and again by
the engine (``games.play.orders.orders_checked``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import engine

SLOT_LABELS: dict[str, Any] = {
    "revolt_attacker": _("As the attacker in a revolt"),
    "revolt_defender": _("As the defender in a revolt"),
    "war_attacker": _("As the attacker in a war"),
    "war_defender": _("As the defender in a war"),
    "war_order": _("Which of several wars is fought first"),
    "monument": _("A monument you may build"),
    "treasure": _("Treasures you must take"),
}
KIND_LABELS: dict[str, Any] = {
    "ask": _("Ask me"),
    "all": _("Commit every tile I may"),
    "enough": _("Commit just enough to win, if I can (otherwise nothing)"),
    "none": _("Commit nothing"),
    "listed": _("In colour order: red, black, blue, green"),
    "build": _("Always build (the first one offered)"),
    "decline": _("Always decline"),
    "special_first": _("Special treasures first, then in square order"),
}


class StandingOrdersForm(forms.Form):
    """Choose an answer for each decision of ``engine.ORDER_SLOTS`` (``ask`` by default).

    With ``for_game`` the form has ``follow_default`` too: ticked, the game follows the
    player's default orders (settings) and the choices are ignored. ``orders()`` returns
    ``{slot: kind}``, or None for a game that follows the default.
    """

    def __init__(self, *args: Any, for_game: bool = False, **kwargs: Any) -> None:
        """Build one choice field a slot, and ``follow_default`` when ``for_game``."""
        super().__init__(*args, **kwargs)
        if for_game:
            self.fields["follow_default"] = forms.BooleanField(
                label=_("Follow my default orders (set in the settings)"), required=False
            )
        for slot, kinds in engine.ORDER_SLOTS.items():
            self.fields[slot] = forms.ChoiceField(
                label=SLOT_LABELS[slot],
                choices=[(kind, KIND_LABELS[kind]) for kind in kinds],
                initial=kinds[0],
            )

    @staticmethod
    def initial_for(orders: dict[str, str] | None, default: dict[str, str]) -> dict[str, Any]:
        """Return the initial data showing ``orders`` (None: following ``default``)."""
        shown = default if orders is None else orders
        initial: dict[str, Any] = {slot: shown.get(slot, "ask") for slot in engine.ORDER_SLOTS}
        initial["follow_default"] = orders is None
        return initial

    def orders(self) -> dict[str, str] | None:
        """Return the chosen ``{slot: kind}``, or None when following the default."""
        if self.cleaned_data.get("follow_default"):
            return None
        return {slot: self.cleaned_data[slot] for slot in engine.ORDER_SLOTS}
