"""The games app: games, seats, the move history, and the pages to play them."""
