"""Invitations by display name, and rematches: the same players, the same settings again.

An invitation is a row (a notice in the invitee's "My games") and an email (the outbox's
``invitation`` kind); accepting takes a seat through ``lifecycle.game_join``, declining is
one click. Every name is checked before anything is written: one unknown name and no game,
no invitation is created.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from games.community.errors import InvitationRefused
from games.core.errors import GameNotActive, NotAPlayer
from games.models import Game, Invitation, NotificationKind
from games.outbox import notifications
from games.play import lifecycle
from games.play.access import UserLike, locked_game, user_id_of
from games.selectors.people import people_named

MAX_NAMES = 3  # a game has at most three seats besides its creator's
# Invitations are emails to someone else (issue 28): one inviter may have at most
# PENDING_PER_INVITEE unanswered invitations to one person, and send INVITATIONS_PER_DAY
# in a day in all. Counted in the database, so every web process agrees.
PENDING_PER_INVITEE = 3
INVITATIONS_PER_DAY = 30


def invitations_allowed(*, inviter_id: int, invitee_ids: Sequence[int]) -> None:
    """Raise ``InvitationRefused`` if inviting ``invitee_ids`` now passes a limit above."""
    if not invitee_ids:
        return
    since = timezone.now() - timedelta(days=1)
    sent = Invitation.objects.filter(inviter_id=inviter_id, created_at__gte=since).count()
    if sent + len(invitee_ids) > INVITATIONS_PER_DAY:
        raise InvitationRefused(
            _("You have sent %(n)s invitations today, the most a day: nothing was created.")
            % {"n": sent}
        )
    pending = Invitation.objects.filter(
        inviter_id=inviter_id, invitee_id__in=invitee_ids, status=Invitation.Status.PENDING
    )
    if (
        pending.values("invitee_id")
        .annotate(n=Count("pk"))
        .filter(n__gte=PENDING_PER_INVITEE)
        .exists()
    ):
        raise InvitationRefused(
            _(
                "A player you invite has %(n)s of your invitations unanswered already: wait "
                "for their answer. Nothing was created."
            )
            % {"n": PENDING_PER_INVITEE}
        )


def invitees_resolve(display_names: Sequence[str], *, inviter_id: int) -> list[int]:
    """Return the user ids of the people ``display_names`` name, once each.

    Names as the site shows them, or usernames (``selectors.people.people_named``).
    Raises ``InvitationRefused`` for more than ``MAX_NAMES`` names, names nobody has, a
    bot's, or the inviter's own.
    """
    wanted = [n.strip() for n in display_names if n.strip()]
    if len(wanted) > MAX_NAMES:
        raise InvitationRefused(_("Invite at most three players."))
    found = people_named(wanted)
    if found.unknown:
        raise InvitationRefused(
            _("No player is called “%(name)s”: nothing was created.")
            % {"name": "”, “".join(found.unknown)}
        )
    if found.bots:
        raise InvitationRefused(
            _("“%(name)s” is a bot: choose bots in the seats instead.") % {"name": found.bots[0]}
        )
    if inviter_id in found.ids:
        raise InvitationRefused(_("You are in the game already: invite other players."))
    return list(found.ids)


def _invite(game: Game, *, inviter_id: int, invitee_ids: Sequence[int]) -> list[Invitation]:
    rows = []
    for invitee_id in invitee_ids:
        row, created = Invitation.objects.get_or_create(
            game=game, invitee_id=invitee_id, defaults={"inviter_id": inviter_id}
        )
        if created:
            notifications.notification_create(
                user_id=invitee_id, game=game, ply=0, kind=NotificationKind.INVITATION
            )
        rows.append(row)
    return rows


def game_create_inviting(
    *, creator: UserLike, invitees: Sequence[str] = (), **settings: Any
) -> Game:
    """Create a game (``lifecycle.game_create`` with ``settings``) and invite ``invitees``.

    ``invitees`` are display names. Raises ``InvitationRefused`` (an unknown name, a bot,
    oneself, more names than free seats) before anything is created, or what
    ``game_create`` raises.
    """
    creator_id = user_id_of(creator)
    ids = invitees_resolve(invitees, inviter_id=creator_id)
    free = int(settings.get("num_players", 2)) - 1 - len(settings.get("bots", ()))
    if len(ids) > free:
        raise InvitationRefused(
            _("This game has %(n)s free seats for invited players.") % {"n": free}
        )
    invitations_allowed(inviter_id=creator_id, invitee_ids=ids)
    with transaction.atomic():
        game = lifecycle.game_create(creator=creator, **settings)
        _invite(game, inviter_id=creator_id, invitee_ids=ids)
    return game


def invitation_accept(*, invitation_id: int, user: UserLike) -> Game:
    """Take the seat ``user`` was invited to; return the game (again: the same game).

    Raises ``InvitationRefused`` (not theirs, declined) or what ``lifecycle.game_join``
    raises (the game started or filled meanwhile).
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        row = (
            Invitation.objects.select_for_update()
            .filter(pk=invitation_id, invitee_id=user_id)
            .select_related("game")
            .first()
        )
        if row is None:
            raise InvitationRefused(_("There is no such invitation."))
        if row.status == Invitation.Status.ACCEPTED:
            return row.game
        if row.status == Invitation.Status.DECLINED:
            raise InvitationRefused(_("You declined this invitation."))
        game = lifecycle.game_join(
            game_id=row.game_id, user=user, invite_token=row.game.invite_token
        )
        row.status = Invitation.Status.ACCEPTED
        row.save(update_fields=["status"])
    return game


def invitation_decline(*, invitation_id: int, user: UserLike) -> bool:
    """Decline an invitation; return whether it changed (False: already answered).

    Raises ``InvitationRefused`` when it is not ``user``'s.
    """
    user_id = user_id_of(user)
    changed = Invitation.objects.filter(
        pk=invitation_id, invitee_id=user_id, status=Invitation.Status.PENDING
    ).update(status=Invitation.Status.DECLINED)
    if not changed and not Invitation.objects.filter(pk=invitation_id, invitee_id=user_id).exists():
        raise InvitationRefused(_("There is no such invitation."))
    return bool(changed)


def rematch_create(*, game_id: int, user: UserLike) -> Game:
    """Offer the players of finished game ``game_id`` a new game with the same settings.

    The first player to ask creates it (seated, the bots seated again) and the other
    people are invited; whoever asks later is seated in that same game while it is open
    (one rematch a game: ``Game.rematch_of``). Raises ``GameNotActive`` (not finished),
    ``NotAPlayer`` (not one of its people) or what ``game_create``/``game_join`` raise.
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        old = locked_game(game_id, with_seats=True)
        if old.status != Game.Status.FINISHED:
            raise GameNotActive(_("A rematch is offered once the game is over."))
        people = [s for s in old.seats.all() if not s.is_bot]
        if all(s.user_id != user_id for s in people):
            raise NotAPlayer(_("Only the players of this game can ask for a rematch."))
        existing = Game.objects.filter(rematch_of=old).first()
        if existing is not None:
            pending = Invitation.objects.filter(game=existing, invitee_id=user_id).first()
            seated = existing.seats.filter(user_id=user_id).exists()
            if pending is not None and not seated and existing.status == Game.Status.OPEN:
                return invitation_accept(invitation_id=pending.pk, user=user)
            return existing
        others = [s.user_id for s in people if s.user_id != user_id]
        invitations_allowed(inviter_id=user_id, invitee_ids=others)
        bots = [s.user.profile.bot_tier for s in old.seats.all() if s.is_bot]
        settings = {field: getattr(old, field) for field in Game.SETTINGS}
        game = lifecycle.game_create(creator=user, bots=bots, **settings)
        game.rematch_of = old
        game.save(update_fields=["rematch_of", "updated_at"])
        _invite(game, inviter_id=user_id, invitee_ids=others)
    return game
