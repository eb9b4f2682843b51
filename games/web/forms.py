"""Forms of the games pages: creating a game and submitting an action."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.core.timecontrol import time_control
from games.play.botstrength import bot_strength
from games.text.words import COLORS

DAYS_PER_MOVE_CHOICES = [
    ("", _("no limit")),
    ("1", _("1 day per move")),
    ("2", _("2 days per move")),
    ("3", _("3 days per move")),
    ("5", _("5 days per move")),
    ("7", _("7 days per move")),
    ("14", _("14 days per move")),
]


BANK_DAYS_CHOICES = [
    ("", _("no time bank: days per move")),
    ("3", _("3 days")),
    ("7", _("7 days")),
    ("14", _("14 days")),
    ("21", _("21 days")),
]
BANK_INCREMENT_CHOICES = [
    ("0", _("nothing")),
    ("12", _("12 hours")),
    ("24", _("1 day")),
    ("48", _("2 days")),
]
BANK_CAP_CHOICES = [
    ("7", _("7 days")),
    ("14", _("14 days")),
    ("21", _("21 days")),
    ("30", _("30 days")),
]

SEAT_CHOICES = [
    ("", _("open for a player")),
    ("easy", _("bot, easy")),
    ("medium", _("bot, medium")),
    ("hard", _("bot, hard")),
]
BOT_SEATS = (2, 3, 4)  # the seats the creator may give a bot (the creator takes one)


class GameCreateForm(forms.Form):
    """Choose the seats, visibility, rating, scoring and time control of a new game.

    ``seat_2`` … ``seat_4`` leave a seat open or give it to a bot of a tier (issue 15);
    ``cleaned_data["bots"]`` is then the tiers of the seats within the player count, and a
    game with a bot is unrated (``is_rated`` False). The seat numbers here only count the
    seats: the order of play is drawn when the game starts (RULES.md §1.3).
    """

    num_players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(2, "2"), (3, "3"), (4, "4")],
        coerce=int,
        initial=2,
    )
    is_public = forms.BooleanField(
        label=_("Public (listed in the lobby; otherwise join by invitation link)"),
        required=False,
        initial=True,
    )
    is_rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    open_scoring = forms.BooleanField(
        label=_("Open scoring (everyone sees everyone's points)"), required=False
    )
    days_per_move = forms.TypedChoiceField(
        label=_("Time per move"),
        choices=DAYS_PER_MOVE_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        initial="3",
    )
    bank_days = forms.TypedChoiceField(
        label=_("Or a time bank for each player"),
        choices=BANK_DAYS_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        initial="",
        help_text=_(
            "A player's bank runs only while the game waits on them, decisions included; "
            "it replaces the days per move."
        ),
    )
    bank_increment_hours = forms.TypedChoiceField(
        label=_("Added to the bank at the end of each of the player's turns"),
        choices=BANK_INCREMENT_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        initial="24",
    )
    bank_cap_days = forms.TypedChoiceField(
        label=_("The most a bank may hold"),
        choices=BANK_CAP_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        initial="14",
    )
    vacation_allowed = forms.BooleanField(
        label=_("Players' vacations pause the clock"),
        required=False,
        initial=True,
        help_text=_("Untick to keep every deadline running even while a player is away."),
    )
    chat_spectators = forms.BooleanField(
        label=_("Spectators may read the players' chat"), required=False, initial=True
    )
    invite = forms.CharField(
        label=_("Invite players by display name"),
        required=False,
        max_length=200,
        help_text=_("Separate names with commas. They get an email and a notice in My games."),
    )
    quiet_hours_allowed = forms.BooleanField(
        label=_("Players' quiet hours stop the clock"),
        required=False,
        initial=True,
        help_text=_("Untick to keep every deadline running through a player's quiet hours."),
    )
    # Seats are drawn when the game starts (lifecycle.game_start): these name players, not
    # places in the order of play.
    seat_2 = forms.ChoiceField(label=_("Another player"), choices=SEAT_CHOICES, required=False)
    seat_3 = forms.ChoiceField(
        label=_("A third player (3 or 4 players)"), choices=SEAT_CHOICES, required=False
    )
    seat_4 = forms.ChoiceField(
        label=_("A fourth player (4 players)"),
        choices=SEAT_CHOICES,
        required=False,
        help_text=_(
            "A game with a bot is unrated; one whose seats are all taken starts at once. "
            "The order of play is drawn when the game starts."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Name each bot's calibrated strength in the seats' choices ("bot, medium · about
        2150", issue 26; ``games.play.botstrength``), when there is a calibration."""
        super().__init__(*args, **kwargs)
        strength = bot_strength()
        if strength is None:
            return
        choices: list[tuple[str, object]] = []
        for value, label in SEAT_CHOICES:
            tier = strength.of(value)
            shown: object = label
            if tier is not None:
                shown = _("%(name)s · about %(rating)s") % {"name": label, "rating": tier.rating}
            choices.append((value, shown))
        for n in BOT_SEATS:
            field = self.fields[f"seat_{n}"]
            assert isinstance(field, forms.ChoiceField)
            field.choices = choices

    def clean(self) -> dict[str, Any]:
        """Gather the bots' tiers; refuse a rated game without a time limit (issue 6).

        Bots chosen for seats beyond the player count are left out; a game with a bot is
        unrated, so it needs no time limit.
        """
        data = super().clean() or {}
        players = data.get("num_players") or 2
        bots = [data.pop(f"seat_{n}", "") for n in BOT_SEATS]
        data["bots"] = tuple(
            tier for n, tier in zip(BOT_SEATS, bots, strict=True) if tier and n <= players
        )
        data["invitees"] = [n for n in data.pop("invite", "").split(",") if n.strip()]
        if data["bots"]:
            data["is_rated"] = False
        data["bank_increment_hours"] = data.get("bank_increment_hours") or 0
        control = time_control(
            days_per_move=data.get("days_per_move"),
            bank_days=data.get("bank_days"),
            bank_increment_hours=data["bank_increment_hours"],
            bank_cap_days=data.get("bank_cap_days"),
        )
        cap = data.get("bank_cap_days")
        if control.has_bank and cap is not None and cap < (data.get("bank_days") or 0):
            self.add_error("bank_cap_days", _("The most a bank holds is at least its start."))
        data.update(control.fields())  # one time control: a bank replaces the days (issue 17)
        if data.get("is_rated") and not control.limited:
            self.add_error(
                "days_per_move",
                _("A rated game needs a time limit: choose the days per move, or untick Rated."),
            )
        return data


class ActionForm(forms.Form):
    """One action in engine notation (``tile red f7``) and the version it was chosen at.

    The swap form ticks hand tiles instead (``swap`` = their colours, one value a tile);
    ``cleaned_data["action"]`` is then ``"swap red blue"`` (RULES.md §11).
    """

    action = forms.CharField(max_length=64, strip=True, required=False)
    swap = forms.MultipleChoiceField(choices=[(c, c) for c in COLORS], required=False)
    version = forms.IntegerField(min_value=0)

    def clean(self) -> dict[str, Any]:
        """Require an action, typed or chosen, or at least one tile ticked to swap."""
        data = super().clean() or {}
        if not data.get("action") and data.get("swap"):
            ticked = sorted(data["swap"], key=COLORS.index)
            data["action"] = "swap " + " ".join(ticked)
        if not data.get("action"):
            raise forms.ValidationError("no action")
        return data


class VacationForm(forms.Form):
    """Start a vacation now, for a number of whole days (issue 6: 21 days a calendar year)."""

    days = forms.IntegerField(label=_("Days of vacation, starting now"), min_value=1, max_value=21)


class FinishedGamesForm(forms.Form):
    """The filters of ``/games/finished`` (issue 32), all optional, read from the query string."""

    player = forms.CharField(label=_("Player"), max_length=40, required=False, strip=True)
    result = forms.ChoiceField(
        label=_("Result"),
        required=False,
        choices=[("", _("any")), ("won", _("won")), ("lost", _("lost"))],
        help_text=_("For the player named, or for you."),
    )
    since = forms.DateField(
        label=_("Finished from"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label=_("to"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    rated = forms.ChoiceField(
        label=_("Rated"),
        required=False,
        choices=[("", _("any")), ("yes", _("rated")), ("no", _("unrated"))],
    )
    before = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        """Refuse a date range that ends before it starts."""
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and until < since:
            raise forms.ValidationError(_("The last date comes before the first."))
        return data

    def filters(self) -> dict[str, Any]:
        """Return the valid filters as ``games_finished`` keywords (call after ``is_valid``)."""
        data = self.cleaned_data
        return {
            "player": data.get("player") or "",
            "result": data.get("result") or "",
            "since": data.get("since"),
            "until": data.get("until"),
            "rated": {"yes": True, "no": False}.get(data.get("rated") or ""),
            "before": data.get("before"),
        }


ID_MAX = 2**63 - 1  # the database's 64-bit key: a larger id is no row, refused (issue 28)


def keyset_after(value: str | None) -> tuple[int | None, bool]:
    """Read a keyset page's start from the query string (issue 31): ``(id, valid)``.

    ``value`` is the id of the previous page's last row (``?after=``, ``?current_after=``);
    None or "" is the first page, ``(None, True)``. Anything but a whole number from 1 to
    the database's largest id is ``(None, False)``: the page answers 400 with the first
    page and a message, nothing else read from it. Django's ``IntegerField`` reads it.
    """
    if value is None or value == "":
        return None, True
    try:
        return forms.IntegerField(min_value=1, max_value=ID_MAX).clean(value), True
    except forms.ValidationError:
        return None, False
