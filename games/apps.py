from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The games app: storage of games and moves, services, views and tasks."""

    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Connect the services' signals' receivers, and register the deployment checks."""
        from games import checks, receivers  # noqa: F401
