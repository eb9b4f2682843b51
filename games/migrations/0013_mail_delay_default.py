"""Turns and decisions are emailed after a delay by default (issue 17), the clock-ran-out
kind, and quiet hours (a player's local hours, the game's permission).

Before, a player with no ``NotificationPreference`` row got every kind at once, and the
settings page stored a row for every kind whenever it was saved (to change one's name, say),
so a stored "immediately" is not always a choice. The rule here: a player whose every row
is the old default (immediately, 15 minutes) never chose a delivery; their rows for
*your move* and *decision needed* are removed, so they get the new default (after 15
minutes, if they have not acted). A player with any other row made choices on that page,
and keeps every row as it is, "immediately" included. From now on the page stores only what
a player changes (``profiles.profile_update``), so no row means "not chosen".
"""

from django.db import migrations, models

TURN_KINDS = ("your_turn", "decision")


def unpin_old_defaults(apps, schema_editor):
    Preference = apps.get_model("games", "NotificationPreference")
    chose = (
        Preference.objects.exclude(delivery="immediate", batch_minutes=15)
        .values_list("user_id", flat=True)
        .distinct()
    )
    Preference.objects.filter(kind__in=TURN_KINDS, delivery="immediate", batch_minutes=15).exclude(
        user_id__in=chose
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_move_undone"),
    ]

    operations = [
        migrations.RunPython(unpin_old_defaults, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="notification",
            name="delivery",
            field=models.CharField(
                choices=[
                    ("immediate", "immediately"),
                    ("batched", "after a delay, if I have not acted"),
                    ("digest", "daily digest"),
                    ("off", "off"),
                ],
                default="immediate",
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="notification",
            name="kind",
            field=models.CharField(
                choices=[
                    ("your_turn", "your move"),
                    ("decision", "decision needed"),
                    ("game_started", "game started"),
                    ("game_over", "game over"),
                    ("reminder", "deadline reminder"),
                    ("seat_dropped", "seat dropped"),
                    ("game_expired", "open game expired"),
                    ("vacation_ended", "vacation ended"),
                    ("timed_out", "your clock ran out"),
                ],
                max_length=20,
            ),
        ),
        migrations.AlterField(
            model_name="notificationpreference",
            name="delivery",
            field=models.CharField(
                choices=[
                    ("immediate", "immediately"),
                    ("batched", "after a delay, if I have not acted"),
                    ("digest", "daily digest"),
                    ("off", "off"),
                ],
                default="immediate",
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="notificationpreference",
            name="kind",
            field=models.CharField(
                choices=[
                    ("your_turn", "your move"),
                    ("decision", "decision needed"),
                    ("game_started", "game started"),
                    ("game_over", "game over"),
                    ("reminder", "deadline reminder"),
                    ("seat_dropped", "seat dropped"),
                    ("game_expired", "open game expired"),
                    ("vacation_ended", "vacation ended"),
                    ("timed_out", "your clock ran out"),
                ],
                max_length=20,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="quiet_hours_allowed",
            field=models.BooleanField(
                default=True, help_text="Whether a player's quiet hours stop this game's clock."
            ),
        ),
        migrations.AddField(
            model_name="profile",
            name="quiet_end",
            field=models.TimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="profile",
            name="quiet_start",
            field=models.TimeField(blank=True, null=True),
        ),
    ]
