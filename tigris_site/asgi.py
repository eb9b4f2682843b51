"""ASGI entry point; checks the environment before serving."""

import os

from django.core.asgi import get_asgi_application

from tigris_site.startup import check_database_or_exit, setup_django_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tigris_site.settings")
setup_django_or_exit()
check_database_or_exit()
application = get_asgi_application()
