"""ASGI entry point (uvicorn, ``make run``); checks the environment before serving.

The game pages' live streams are served around Django's handler (``games.web.live.LiveStreams``),
so an open stream holds no thread.
"""

import os

from django.core.asgi import get_asgi_application

from tigris_site.startup import check_database_or_exit, setup_django_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tigris_site.settings")
# Under ASGI each request's view runs in a context (and thread) of its own, so a persistent
# connection is never used again: it stays open until the garbage collector finds it, and a
# burst of streams opening (1,000 pages) runs PostgreSQL out of connections. Django's advice:
# no persistent connections under ASGI (or a pool). The watch's one reader thread reconnects
# once per read (every LIVE_FALLBACK_SECONDS with Redis).
os.environ.setdefault("CONN_MAX_AGE", "0")
setup_django_or_exit()
check_database_or_exit()
django_application = get_asgi_application()

from games.web.live import LiveStreams  # noqa: E402 - after Django is set up

application = LiveStreams(django_application)
