"""Replay every started game's moves from its seed and compare with the stored snapshot."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.core.states import replay, state_to_db
from games.models import Game


def game_mismatch(game: Game) -> str | None:
    """Return why ``game``'s snapshot differs from replaying its moves, or None if equal."""
    moves = list(game.moves.order_by("ply"))
    if [m.ply for m in moves] != list(range(1, len(moves) + 1)):
        return "plies are not 1..n"
    if len(moves) != game.version:
        return f"version {game.version} but {len(moves)} moves"
    undone = {m.ply for m in moves if m.undone}
    named = [m.events[0]["params"]["ply"] for m in moves if m.is_undo and m.events]
    if sorted(named) != sorted(undone) or len(named) != sum(m.is_undo for m in moves):
        return "undo rows and plies taken back do not pair"
    try:
        final = replay(game, moves)
    except ValueError as exc:
        return f"a move does not apply: {exc}"
    if state_to_db(final) != game.state:
        return "snapshot differs from the replay"
    return None


class Command(BaseCommand):
    help = "Replay every game from its seed and moves; exit 1 listing games whose snapshot differs."

    def handle(self, *args: Any, **options: Any) -> None:
        bad = []
        games = Game.objects.filter(state__isnull=False).order_by("pk")
        count = 0
        for game in games.iterator():
            count += 1
            reason = game_mismatch(game)
            if reason:
                bad.append(f"game #{game.pk}: {reason}")
        for line in bad:
            self.stderr.write(line)
        if bad:
            raise CommandError(
                f"{len(bad)} of {count} games differ from their replay", returncode=1
            )
        self.stdout.write(f"{count} games verified")
