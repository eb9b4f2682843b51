"""Small shared values of the site: errors, signals, the snapshot bridge, clock rules, the queue."""
