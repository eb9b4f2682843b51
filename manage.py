#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

# Commands that need the database before they do anything useful: check it first, so an
# unreachable DATABASE_URL is one clear line instead of a traceback.
NEEDS_DATABASE = {"runserver", "migrate", "seed_demo", "verify_games", "createsuperuser"}


def main() -> None:
    """Run administrative tasks."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tigris_site.settings")
    from django.core.management import execute_from_command_line

    from tigris_site.startup import check_database_or_exit, setup_django_or_exit

    setup_django_or_exit()
    if len(sys.argv) > 1 and sys.argv[1] in NEEDS_DATABASE:
        check_database_or_exit()
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
