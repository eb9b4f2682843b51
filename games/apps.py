from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The games app: storage of games and moves, services, views and tasks."""

    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Connect the services' signals' receivers, register the deployment checks and the tasks.

        ``games.tasks`` is imported so the rooms can queue its tasks by name
        (``games.core.queue``) in every process, not only in a Celery worker.
        """
        from games import checks, receivers, tasks  # noqa: F401
