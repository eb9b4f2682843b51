"""Every read query of the site: games, seats, moves, profiles, vacations and preferences."""
