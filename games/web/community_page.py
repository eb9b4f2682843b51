"""The parts of the game and replay pages around the game (issue 18): chat, notes, rematch.

They sit outside the ``#game`` partial, so a poll that swaps the board never wipes a message
or a note being typed. The chat has its own poll (``games.web.views.community.chat_lines``).
Only public facts and the viewer's own notes: never the ``Game`` row (RULES.md §14).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.models import CHAT_MAX_LENGTH, NOTE_MAX_LENGTH, Game
from games.selectors import community
from games.selectors.moves import last_move_time
from games.web.viewer import Viewer

CHAT_OPEN = (Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FINISHED)


def _since(game: Game, viewer: Viewer) -> datetime | None:
    """Return when ``viewer``'s seat last played a ply (None: a spectator, or no ply yet):
    from the game's own query when it was read for a page (``with_viewer_facts``)."""
    if viewer.seat is None:
        return None
    if hasattr(game, "viewer_last_move_at"):  # read for this viewer (request.user)
        known: datetime | None = game.viewer_last_move_at
        return known
    return last_move_time(game.pk, seat=viewer.seat)


def chat_context(
    game: Game, viewer: Viewer, *, error: str = "", info: str = "", typed: str = ""
) -> dict[str, Any]:
    """Return ``{"chat": …}`` for ``games/_chat.html``: the lines ``viewer`` reads, and more.

    ``lines`` are ``ChatLine`` values, each with ``new`` (written since the viewer's last
    move); ``can_write`` for a seated person while the chat is open; ``error``/``typed``
    a refused message and its text given back; ``muted`` the players of this game the
    viewer muted.
    """
    readable = community.chat_readable(game, viewer, seated=viewer.seated)
    # A game read for a page knows when its latest message was written (``chat_last_at``,
    # ``with_viewer_facts``): None, no message at all, so nothing to read.
    written = getattr(game, "chat_last_at", True) is not None
    lines = community.chat_lines(game, viewer, seated=viewer.seated) if readable and written else []
    since = _since(game, viewer)
    shown = [
        {"line": line, "new": since is not None and line.created_at > since and not line.mine}
        for line in lines
    ]
    return {
        "chat": {
            "game_id": game.pk,
            "readable": readable,
            "lines": shown,
            "last_id": lines[-1].pk if lines else 0,
            "any_new": any(item["new"] for item in shown),
            "can_write": viewer.seated and not viewer.seat_is_bot and game.status in CHAT_OPEN,
            "can_report": viewer.is_authenticated,
            "muted": community.muted_in_game(game, viewer),
            "max_length": CHAT_MAX_LENGTH,
            "error": error,
            "info": info,
            "typed": typed,
            "spectators": game.chat_spectators,
        }
    }


def notes_context(game: Game, viewer: Viewer, *, in_replay: bool = False) -> dict[str, Any]:
    """Return ``{"notes": …}``: the viewer's own notes box, or None for anyone else.

    A replay shows the author their notes once the game is over, never before.
    """
    if not viewer.seated or viewer.seat_is_bot:
        return {"notes": None}
    if in_replay and game.status != Game.Status.FINISHED:
        return {"notes": None}
    return {
        "notes": {
            "game_id": game.pk,
            # From the game's own query when read for a page (``with_viewer_facts``).
            "text": (game.viewer_note or "")
            if hasattr(game, "viewer_note")
            else community.note_of(game_id=game.pk, user=viewer),
            "max_length": NOTE_MAX_LENGTH,
            "read_only": in_replay,
        }
    }


def since_chat(
    game: Game, viewer: Viewer, *, since: datetime | None = None, limit: int = 20
) -> list[Any]:
    """Return the chat lines written since ``viewer``'s last move (not theirs), for the log.

    ``since`` is the time of that move when the caller has it (else it is read). A game
    read with ``chat_last_at`` (``with_viewer_facts``) and no chat since costs no query.
    """
    since = since or _since(game, viewer)
    if since is None:
        return []
    if hasattr(game, "chat_last_at") and (game.chat_last_at is None or game.chat_last_at <= since):
        return []  # nothing written since: no line to read
    return [
        line
        for line in community.chat_lines(game, viewer, since=since, seated=viewer.seated)
        if not line.mine
    ][-limit:]


def invitation_context(game: Game, viewer: Viewer) -> dict[str, Any]:
    """Return ``{"invitation": …}``: ``viewer``'s pending invitation to this open game, or None."""
    return {"invitation": community.invitation_pending(game, viewer, seated=viewer.seated)}
