"""Players around a game (issue 18): chat, private notes, mutes, follows, invitations, rematches.

Services only (the reads are in ``games.selectors.community``). Chat and notes never touch
a game's state or version: they are beside the game, not part of it.
"""
