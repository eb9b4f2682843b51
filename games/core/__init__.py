"""Small shared values of the site: errors, live events, the snapshot bridge, clocks, the queue."""
