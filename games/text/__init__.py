"""Words for pieces, actions, seats and the game log, in the viewer's language (pure: no ORM)."""
