"""Django admin for games, seats and moves: history read-only, games can be aborted.

The seed, the engine snapshot and the invitation token are secrets (RULES.md §14), and so
are a swap's colours until the game is over: staff see a game in progress as a spectator
does, on every admin page (list, change page, search, filters, sorting). Django's admin
filters a list by any local field named in the URL (``?seed__lt=…``), which would let
staff bisect a seed or probe a swap, so lookups on these fields are refused (400).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

import engine
from games.core.errors import GameError
from games.models import ChatMessage, ChatReport, Game, Move, Seat
from games.play import lifecycle

# The admin classes are generic only for the type checker (no django_stubs_ext monkeypatch).
if TYPE_CHECKING:
    SeatInlineBase = admin.TabularInline[Seat, Game]
    GameAdminBase = admin.ModelAdmin[Game]
    SeatAdminBase = admin.ModelAdmin[Seat]
    MoveAdminBase = admin.ModelAdmin[Move]
else:
    SeatInlineBase = admin.TabularInline
    GameAdminBase = SeatAdminBase = MoveAdminBase = admin.ModelAdmin


def refuses_secret_lookups(lookup: str, secret_fields: tuple[str, ...]) -> bool:
    """Return whether the URL lookup ``lookup`` (``"seed__lt"``) touches a secret field."""
    return lookup.split("__", 1)[0] in secret_fields


def move_public_action(move: Move) -> str:
    """Return ``move``'s notation as a spectator may read it.

    A swap's colours stay hidden until the game is over: "swap (2 tiles, colours hidden)".
    ``move.game`` should be fetched with it (``list_select_related``).
    """
    if move.is_undo:
        return move.action
    over = move.game.status == Game.Status.FINISHED
    seen = engine.seen_action(move.action, player=move.seat, viewer=None, game_over=over)
    if not isinstance(seen, engine.HiddenSwap):
        return move.action
    n = seen.tiles
    return ngettext(
        "swap (%(n)s tile, colours hidden)", "swap (%(n)s tiles, colours hidden)", n
    ) % {"n": n}


class SeatInline(SeatInlineBase):
    """The seats of a game, read-only."""

    model = Seat
    extra = 0
    can_delete = False
    fields = ("position", "user", "is_bot", "dynasty", "final_rank", "final_score", "joined_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Seats are added by joining, never in the admin."""
        return False


@admin.register(Game)
class GameAdmin(GameAdminBase):
    """Games: search by player, filter by status, abort from the list."""

    list_display = (
        "id",
        "status",
        "num_players",
        "version",
        "to_act_seat",
        "is_public",
        "created_at",
    )
    list_filter = ("status", "is_public", "is_rated", "open_scoring")
    search_fields = ("seats__user__username", "=id")
    exclude = ("seed", "state", "invite_token")
    readonly_fields = (
        "status",
        "num_players",
        "creator",
        "version",
        "to_act_seat",
        "started_at",
        "finished_at",
    )
    inlines = [SeatInline]
    actions = ["abort_games"]
    SECRET_FIELDS = ("seed", "state", "invite_token")

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        """Refuse URL filters on the seed, the snapshot and the invitation token."""
        if refuses_secret_lookups(lookup, self.SECRET_FIELDS):
            return False
        return super().lookup_allowed(lookup, value, request)

    # Once a game starts, its rules and its clock belong to the services: editing them here
    # would change what players may see (open scoring) or break the replay check.
    STARTED_READONLY = (
        "is_public",
        "is_rated",
        "open_scoring",
        "days_per_move",
        "bank_days",
        "bank_increment_hours",
        "bank_cap_days",
        "vacation_allowed",
        "deadline",
        "deadline_seat",
        "deadline_set_at",
        "reminder_at",
        "rated_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Refuse: games are created by players in the lobby (``lifecycle.game_create``)."""
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> Any:
        """Return the read-only fields: the rules and clock too once the game has started."""
        fields = tuple(super().get_readonly_fields(request, obj))
        if obj is not None and obj.started_at is not None:
            fields += self.STARTED_READONLY
        return fields

    @admin.action(description=_("Abort the selected games"))
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        """Abort each selected open or active game through ``games.play.lifecycle.game_abort``."""
        done = 0
        for game in queryset:
            try:
                lifecycle.game_abort(game_id=game.pk)
                done += 1
            except GameError as exc:
                self.message_user(request, f"#{game.pk}: {exc}", messages.WARNING)
        text = ngettext("%(n)s game aborted.", "%(n)s games aborted.", done) % {"n": done}
        self.message_user(request, text, messages.SUCCESS)


@admin.register(Seat)
class SeatAdmin(SeatAdminBase):
    """Seats, read-only."""

    list_display = ("game", "position", "user", "is_bot", "dropped_at", "dynasty", "final_rank")
    search_fields = ("user__username",)
    list_filter = ("game__status", "is_bot")

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Seats come from joining games."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Seats are history."""
        return False


@admin.register(Move)
class MoveAdmin(MoveAdminBase):
    """The append-only move history, read-only (events may hold private colours)."""

    list_display = ("game", "ply", "seat", "public_action", "created_at")
    list_select_related = ("game",)
    search_fields = ("game__seats__user__username",)
    list_filter = ("game__status",)
    exclude = ("events", "action", "source")
    readonly_fields = ("public_action", "public_source")
    # ``source`` would tell a standing order's answer (issue 17): secret, even to staff.
    SECRET_FIELDS = ("action", "events", "source")

    @admin.display(description=pgettext_lazy("admin column", "action"))
    def public_action(self, obj: Move) -> str:
        """The notation, a swap's colours hidden until the game is over."""
        return move_public_action(obj)

    @admin.display(description=pgettext_lazy("admin column", "source"))
    def public_source(self, obj: Move) -> str:
        """Who chose the move, a standing order shown as the player (orders are secret)."""
        return str(Move.Source(obj.public_source).label)

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        """Refuse URL filters on the notation and the events (they hold a swap's colours)."""
        if refuses_secret_lookups(lookup, self.SECRET_FIELDS):
            return False
        return super().lookup_allowed(lookup, value, request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Moves come only from ``game_submit_action``."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """History is never edited."""
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """History is never deleted."""
        return False


# --------------------------------------------------------------------------- chat reports
# (issue 18): staff read the reported messages, escaped like every admin value. Private
# notes are not registered: they are their author's alone, even for staff.

if TYPE_CHECKING:
    ChatReportAdminBase = admin.ModelAdmin[ChatReport]
    ChatMessageAdminBase = admin.ModelAdmin[ChatMessage]
else:
    ChatReportAdminBase = ChatMessageAdminBase = admin.ModelAdmin


@admin.register(ChatReport)
class ChatReportAdmin(ChatReportAdminBase):
    """Reported chat messages, newest first; staff mark them handled."""

    list_display = ("id", "message_text", "author", "game_id", "reporter", "created_at", "handled")
    list_filter = ("handled",)
    list_editable = ("handled",)
    list_select_related = ("message__author", "reporter")
    readonly_fields = ("message", "reporter", "created_at")
    ordering = ("-created_at",)

    @admin.display(description=_("message"))
    def message_text(self, report: ChatReport) -> str:
        """Return the reported text (the admin escapes it)."""
        return report.message.text

    @admin.display(description=_("author"))
    def author(self, report: ChatReport) -> Any:
        """Return who wrote the reported message."""
        return report.message.author

    @admin.display(description=_("game"))
    def game_id(self, report: ChatReport) -> int:
        """Return the game of the reported message."""
        return report.message.game_id


@admin.register(ChatMessage)
class ChatMessageAdmin(ChatMessageAdminBase):
    """Chat messages, read-only: staff may delete an abusive one."""

    list_display = ("id", "game_id", "author", "text", "created_at")
    list_select_related = ("author",)
    search_fields = ("text", "author__username")
    readonly_fields = ("game", "author", "text", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Messages are written by players, never in the admin."""
        return False
