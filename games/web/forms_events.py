"""What the tournament and league forms share (issue 30): the invited players' field.

One field and one cleaner (``invited_field``, ``clean_invited``) for the three forms that
name invited players (a tournament's, a league's, a league's next season): names as the
site shows them, checked against the players while the other fields are checked, so an
unknown name or a bot is reported beside the field with every other error at once.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.selectors.people import people_named
from games.tournaments.services import invited_refusal


def invited_field() -> forms.CharField:
    """Return a new invited players' field (names separated by commas or lines)."""
    return forms.CharField(
        label=_(
            "Invited players (names as the site shows them, separated by commas or lines; "
            "by invitation only)"
        ),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


def names_in(text: str) -> tuple[str, ...]:
    """Return the players' names in ``text`` (separated by commas or lines), once each.

    A name is a display name (which may hold spaces: "Li Wei") or a username
    (``selectors.people.people_named`` resolves it).
    """
    parts = (part.strip() for part in text.replace("\n", ",").split(","))
    return tuple(dict.fromkeys(part for part in parts if part))


def clean_invited(form: forms.Form) -> tuple[str, ...]:
    """Read "Ann, Li Wei" into names, once each; every unknown name and bot is refused.

    A form's ``clean_invited`` (``clean_invited = forms_events.clean_invited`` in its
    body). Raises ``ValidationError`` naming them (the services' own message,
    ``tournaments.services.invited_refusal``); the services check again when saving.
    """
    wanted = names_in(form.cleaned_data["invited"])
    refused = invited_refusal(people_named(wanted))
    if refused:
        raise forms.ValidationError(refused)
    return wanted
