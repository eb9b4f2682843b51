"""Signals sent by the games services, inside the same transaction as the change.

These are the hooks for the notifications and ratings issue: a receiver writes its rows
(``Notification``, rating updates) in the caller's transaction, so they commit or roll
back together with the move, and queues its side effects with ``transaction.on_commit``.

- ``game_started(sender=Game, game)`` — the last seat filled and the engine state exists.
- ``move_applied(sender=Game, game, move, before, after)`` — one engine action applied:
  ``before``/``after`` are the engine states (secrets included: never render them),
  ``move`` the new ``Move`` row; ``game.to_act_seat`` names who must act next.
- ``game_finished(sender=Game, game, ranking)`` — the game ended; seats hold final ranks and
  scores; ``ranking`` is ``engine.final_ranking(after)``.
"""

from __future__ import annotations

from django.dispatch import Signal

game_started = Signal()
move_applied = Signal()
game_finished = Signal()
