"""Following other players: their games in progress show in one's lobby."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from games.community.errors import ChatRefused
from games.models import Follow
from games.play.access import UserLike, user_id_of


def follow_set(*, user: UserLike, followed_id: int, on: bool) -> bool:
    """Follow (``on``) or stop following player ``followed_id``; return whether it changed.

    Raises ``ChatRefused`` for oneself or no such player.
    """
    user_id = user_id_of(user)
    if followed_id == user_id:
        raise ChatRefused(_("You cannot follow yourself."))
    if not get_user_model().objects.filter(pk=followed_id).exists():
        raise ChatRefused(_("There is no such player."))
    if not on:
        deleted, _rows = Follow.objects.filter(
            follower_id=user_id, followed_id=followed_id
        ).delete()
        return bool(deleted)
    _follow, created = Follow.objects.get_or_create(follower_id=user_id, followed_id=followed_id)
    return created
