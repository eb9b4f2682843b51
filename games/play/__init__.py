"""Playing: the submit service (every ply), a game's lifecycle, its clock and timeouts, ratings."""
