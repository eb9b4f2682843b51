"""What a webhook says: a turn or game-over notice, with nothing hidden in it (RULES.md §14).

A notice names the game, its link, the ply, the kind and — once the game is over — the
final ranking (public then). It never carries a hand, a score hidden in a closed-scoring
game, a swap's colours, the bag or the seed: it is built from the seats' public facts
only, never from the engine state. Discord gets ``{"content"}``, Slack ``{"text"}``, the
plain JSON kind the fields themselves; the words are in the player's language.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games.models import Game, NotificationKind, Webhook, WebhookDelivery
from games.text.seats import display_name

EVENT_NAMES = {
    NotificationKind.YOUR_TURN: "your_turn",
    NotificationKind.DECISION: "decision",
    NotificationKind.GAME_OVER: "game_over",
}


def _ranking(game: Game) -> list[dict[str, Any]]:
    """Return the final places of a finished game: ``[{"rank", "seat", "player"}]``."""
    seats = sorted(
        (s for s in game.seats.all() if s.position is not None),
        key=lambda s: (s.final_rank or 99, s.position or 0),
    )
    return [
        {"rank": s.final_rank, "seat": s.position, "player": display_name(s.user)} for s in seats
    ]


def _text(row: WebhookDelivery, ranking: list[dict[str, Any]]) -> str:
    label = _("Game #%(id)s") % {"id": row.game_id}
    if row.kind == NotificationKind.GAME_OVER:
        winners = [str(r["player"]) for r in ranking if r["rank"] == 1]
        return _("%(game)s is over: %(names)s won") % {"game": label, "names": ", ".join(winners)}
    if row.kind == NotificationKind.DECISION:
        return _("%(game)s: your decision is needed") % {"game": label}
    return _("%(game)s: your move") % {"game": label}


def payload_for(row: WebhookDelivery) -> dict[str, Any]:
    """Return the JSON body to post for ``row`` (its webhook, game and seats fetched with it).

    Plain JSON: ``{"event", "game", "ply", "url", "text", "ranking"?}``; Discord
    ``{"content"}``; Slack ``{"text"}`` — the text ends with the game's link.
    """
    game = row.game
    url = f"{settings.SITE_URL}{reverse('games:game', args=[game.pk])}"
    ranking = _ranking(game) if row.kind == NotificationKind.GAME_OVER else []
    language = getattr(getattr(row.webhook.user, "profile", None), "language", None) or "en"
    with translation.override(language):
        text = _text(row, ranking)
    kind = row.webhook.kind
    if kind == Webhook.Kind.DISCORD:
        return {"content": f"{text} {url}", "allowed_mentions": {"parse": []}}
    if kind == Webhook.Kind.SLACK:
        return {"text": f"{text} <{url}>"}
    body: dict[str, Any] = {
        "event": EVENT_NAMES.get(NotificationKind(row.kind), str(row.kind)),
        "game": game.pk,
        "ply": row.ply,
        "url": url,
        "text": text,
    }
    if ranking:
        body["ranking"] = ranking
    return body
