"""Forms of accounts: allauth's sign-up extended with a display name, and the settings page."""

from __future__ import annotations

from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games.accounts import profiles
from games.models import Delivery, NotificationKind
from games.outbox.notifications import DIGEST_HOUR
from games.selectors import people
from games.text import names
from games.text.seats import BOT_MARK

SETTABLE_KINDS = [
    NotificationKind.YOUR_TURN,
    NotificationKind.DECISION,
    NotificationKind.GAME_STARTED,
    NotificationKind.GAME_OVER,
    NotificationKind.REMINDER,
    NotificationKind.SEAT_DROPPED,
    NotificationKind.TIMED_OUT,
    NotificationKind.INVITATION,
    NotificationKind.TOURNAMENT_ROUND,
    NotificationKind.TOURNAMENT_BYE,
    NotificationKind.TOURNAMENT_OVER,
    NotificationKind.SEASON_OVER,
    NotificationKind.TOURNAMENT_INVITE,
    NotificationKind.LEAGUE_INVITE,
]


def validate_display_name(value: str) -> None:
    """Refuse separators, control and invisible characters, and names with nothing visible.

    Raises ``ValidationError`` (``games.text.names.validate``): names go into other players'
    pages and email subjects.
    """
    names.validate(value)
    if BOT_MARK in names.normalise(value):
        raise ValidationError(_("The robot mark is kept for the site's bots."))


NAME_TAKEN = _("Another player already uses this display name.")


def unique_display_name(name: str, *, except_user_id: int | None = None) -> str:
    """Return ``name`` normalised, or raise ``ValidationError`` when another player shows as it.

    Two players who look alike in a game, the lobby or the leaderboard would be confused
    (``people.display_name_taken``: look-alikes by their confusable skeleton).
    """
    if people.display_name_taken(name, except_user_id=except_user_id):
        raise ValidationError(NAME_TAKEN)
    return names.normalise(name)


class SignupForm(forms.Form):
    """The extra field of allauth's sign-up (``ACCOUNT_SIGNUP_FORM_CLASS``): a display name."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        help_text=_("Shown to other players."),
        validators=[validate_display_name],
    )

    def clean_display_name(self) -> str:
        """Refuse a name another player already shows as."""
        return unique_display_name(str(self.cleaned_data["display_name"]))

    def signup(self, request: Any, user: Any) -> None:
        """Called by allauth once ``user`` is saved: create the profile with the name.

        A look-alike saved by another sign-up since this form's check loses in the database
        (``Profile.name_key`` is unique): the account stands with the name and the first free
        number after it ("Tess One 2"), never an empty name that would show the username
        (the email's local part; issue 28), and the player is told and may choose another.
        """
        profile = profiles.profile_get(user)
        profile.display_name = self.cleaned_data["display_name"]
        # A new account keeps the language the player signed up in (switcher or browser).
        language = get_language()
        if language in dict(settings.LANGUAGES):
            profile.language = language
        wanted = profile.display_name
        for n in range(1, 100):
            if n > 1:
                profile.display_name = f"{wanted[: 40 - len(str(n)) - 1]} {n}"
            try:
                with transaction.atomic():
                    profile.save(update_fields=["display_name", "language"])
            except IntegrityError:
                continue
            break
        else:  # a hundred look-alikes: no name of its own, as before
            profile.display_name = ""
            profile.save(update_fields=["display_name", "language"])
        if profile.display_name != wanted:
            messages.warning(
                request,
                _(
                    "Another player took this display name a moment ago: you are shown as "
                    "“%(name)s” for now; choose another in your settings."
                )
                % {"name": profile.display_name},
            )


def time_zone_choices() -> list[tuple[str, str]]:
    """Return the IANA time zones a player may choose (areas with a city, and UTC)."""
    return [(z, z) for z in sorted(available_timezones()) if "/" in z or z == "UTC"]


class SettingsForm(forms.Form):
    """Display name, language, time zone and a delivery choice per notification kind."""

    digest_hour = DIGEST_HOUR  # when the daily digest goes out, in the player's time zone

    display_name = forms.CharField(
        label=_("Display name"), max_length=40, validators=[validate_display_name]
    )
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=time_zone_choices)
    confirm_actions = forms.BooleanField(
        label=_("Ask me to confirm each action before it is sent"),
        required=False,
        label_suffix="",  # the box comes first: no colon after its label
    )
    chat_in_email = forms.BooleanField(
        label=_("Quote the chat since my last move in my turn emails"),
        required=False,
        initial=True,
        label_suffix="",
    )
    # Quiet hours (issue 17), in the time zone above; both empty: none.
    quiet_start = forms.TimeField(
        label=_("Quiet hours from"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    quiet_end = forms.TimeField(
        label=_("to"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=_(
            "In your time zone, every day: no email is sent to you then (it waits until they "
            "end), and your clock stands still in games that allow it. Leave both empty for none."
        ),
    )

    def __init__(self, *args: Any, user_id: int | None = None, **kwargs: Any) -> None:
        """``user_id`` is the account being edited: its own current name is not "taken".

        An id, not the row: a form is in its page's context, and a row there would reach
        every game of its user (issue 27).
        """
        super().__init__(*args, **kwargs)
        self.user_id = user_id
        for kind in SETTABLE_KINDS:
            self.fields[f"delivery_{kind.value}"] = forms.ChoiceField(
                label=kind.label, choices=Delivery.choices, initial=people.default_delivery(kind)
            )
            self.fields[f"minutes_{kind.value}"] = forms.IntegerField(
                label=_("minutes"),
                min_value=1,
                max_value=24 * 60,
                initial=people.DEFAULT_BATCH_MINUTES,
                required=False,  # only batched delivery uses it
            )

    def clean_display_name(self) -> str:
        """Refuse a name another player already shows as (keeping one's own is fine)."""
        return unique_display_name(
            str(self.cleaned_data["display_name"]), except_user_id=self.user_id
        )

    def clean(self) -> dict[str, Any]:
        """Refuse quiet hours with one end only, or that begin when they end."""
        data = super().clean() or {}
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if (start is None) != (end is None):
            self.add_error("quiet_end", _("Give both ends of your quiet hours, or neither."))
        elif start is not None and start == end:
            self.add_error("quiet_end", _("Your quiet hours must end at another time."))
        return data

    def kind_rows(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        """Return ``(label, delivery field, minutes field)`` per kind, for the template."""
        return [
            (str(k.label), self[f"delivery_{k.value}"], self[f"minutes_{k.value}"])
            for k in SETTABLE_KINDS
        ]

    def preferences(self) -> dict[str, tuple[str, int]]:
        """Return kind → ``(delivery, batch_minutes)`` from the cleaned data."""
        return {
            k.value: (
                self.cleaned_data[f"delivery_{k.value}"],
                self.cleaned_data[f"minutes_{k.value}"] or people.DEFAULT_BATCH_MINUTES,
            )
            for k in SETTABLE_KINDS
        }

    @classmethod
    def initial_for(cls, user: Any) -> dict[str, Any]:
        """Return the form's initial data from ``user``'s profile and preferences."""
        profile = profiles.profile_get(user)
        data: dict[str, Any] = {
            "display_name": profile.display_name,
            "language": profile.language,
            "time_zone": profile.time_zone,
            "confirm_actions": profile.confirm_actions,
            "chat_in_email": profile.chat_in_email,
            "quiet_start": profile.quiet_start,
            "quiet_end": profile.quiet_end,
        }
        for kind, (delivery, minutes) in people.preferences_all(user.pk).items():
            data[f"delivery_{kind}"] = delivery
            data[f"minutes_{kind}"] = minutes
        return data
