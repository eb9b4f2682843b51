"""The Django project: settings, URLs, the Celery app and the WSGI/ASGI entry points."""

from tigris_site.celery import app as celery_app

__all__ = ["celery_app"]
