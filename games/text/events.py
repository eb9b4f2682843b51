"""The names of events (issue 30): a tournament's own, or a league division's, said in the
reader's language. Pure: django.utils only.

A league's division is a round-robin tournament whose row keeps the league's name; its
season and division numbers live on ``LeagueDivision``, and the words are put together
here when a page or an email is made, in its reader's language (never stored).
"""

from __future__ import annotations

from django.utils.translation import gettext as _


def event_name(name: str, season: int | None = None, division: int | None = None) -> str:
    """Return "Ur League · season 2 · division 1" for a division, else ``name`` as it is."""
    if season is None or division is None:
        return name
    return _("%(league)s · season %(season)s · division %(division)s") % {
        "league": name,
        "season": season,
        "division": division,
    }
