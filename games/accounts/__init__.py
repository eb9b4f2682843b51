"""Players' own settings: profiles, preferences and vacations."""
