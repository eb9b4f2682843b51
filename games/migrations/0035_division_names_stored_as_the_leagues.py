"""A league division's tournament keeps its league's name (issue 30).

"season N · division M" was stored in the language the sweep ran in (English); it is now
said when shown, in the reader's language (``games.text.events.event_name``), from the
``LeagueDivision`` row. This puts the league's name back on the rows made before.
"""

from django.db import migrations


def names_to_leagues(apps, schema_editor):  # type: ignore[no-untyped-def]
    LeagueDivision = apps.get_model("games", "LeagueDivision")
    Tournament = apps.get_model("games", "Tournament")
    for division in LeagueDivision.objects.select_related("season__league").iterator():
        Tournament.objects.filter(pk=division.tournament_id).update(
            name=division.season.league.name
        )


class Migration(migrations.Migration):
    dependencies = [("games", "0034_league_groups_bots_and_invitations")]

    operations = [migrations.RunPython(names_to_leagues, migrations.RunPython.noop)]
