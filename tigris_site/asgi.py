"""ASGI entry point (uvicorn, ``make run``); checks the environment before serving.

The game pages' live streams are served around Django's handler (``games.web.live.LiveStreams``),
so an open stream holds no thread.
"""

import os

from django.core.asgi import get_asgi_application

from tigris_site.startup import check_database_or_exit, setup_django_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tigris_site.settings")
setup_django_or_exit()
check_database_or_exit()
django_application = get_asgi_application()

from games.web.live import LiveStreams  # noqa: E402 - after Django is set up

application = LiveStreams(django_application)
