"""The read API under ``/api/v1/`` (issue 19): django-ninja, OpenAPI at ``/api/v1/openapi.json``.

Beside ``web`` in the rooms' layers: it reads through the selectors, the engine's
``view_for`` and the token service, and writes nothing but a token's last use.
"""
