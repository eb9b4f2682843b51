from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The games app: storage of games and moves, services, views and tasks."""

    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the deployment checks, the tasks and the language set at login.

        ``games.tasks`` is imported so the rooms can queue its tasks by name
        (``games.core.queue``) in every process, not only in a Celery worker;
        ``games.web.middleware`` connects Django's ``user_logged_in`` to the account's
        language. A move's side effects are no signal: ``games.play.effects``.
        """
        from games import checks, tasks  # noqa: F401
        from games.web import middleware  # noqa: F401
