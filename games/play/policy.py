"""The default policy: what the site plays for a seat that timed out or was dropped (issue 6).

Pure: it reads an engine state and returns one of ``engine.legal_actions(state)``.
"""

from __future__ import annotations

import engine


def default_action(state: engine.GameState) -> engine.Action:
    """Return the default action of ``state.to_act`` (issue 6, time controls).

    - ordinary action with actions left: ``pass`` (ends the turn, RULES.md §11);
    - support in a revolt or war: ``commit 0`` (RULES.md §6.3, §7.3);
    - which war next: the first of red, black, blue, green that is offered (§7.2);
    - monument: ``decline monument`` (§8.1);
    - treasures: the first square in column-letter, then row-number order (§9).

    Chooses by action type and fields, never by notation or square names. Falls back to the
    first legal action for anything else. Raises ``ValueError`` when the game is over (no
    legal action).
    """
    legal = engine.legal_actions(state)
    if not legal:
        raise ValueError("no legal action: the game is over")
    for action in legal:
        if isinstance(action, engine.Pass):
            return action
    for action in legal:
        if isinstance(action, engine.CommitSupport) and action.count == 0:
            return action
    wars = [a for a in legal if isinstance(a, engine.ChooseWar)]
    if wars:  # colours in the engine's order: red, black, blue, green
        return min(wars, key=lambda a: engine.COLOR_NAMES.index(a.color_name))
    for action in legal:
        if isinstance(action, engine.DeclineMonument):
            return action
    treasures = [a for a in legal if isinstance(a, engine.TakeTreasure)]
    if treasures:
        # Column letter first, then row number, as the engine reads square names.
        return min(treasures, key=lambda a: engine.square_coords(a.target))
    return legal[0]
