"""Tournaments (issue 30): Swiss and round-robin events; pairing, standings and the services."""
