"""Fill ``Profile.name_key`` for existing profiles, renaming later look-alikes.

Before issue 20 the uniqueness rule ignored only case and outer spaces, so look-alike names
("Tess One", "Теss One", "Tess  One") may already coexist. The oldest profile (lowest id)
keeps its name; each later look-alike gets its user id added ("Теss One #42"), which tells
the two apart on every page, and can choose a new name in their settings. A name that even
so collides, or that is empty, is left with an empty key, which the constraint ignores.

The key comes from ``games.text.names`` as it is when the migration runs: the same function the
site uses, so the keys stored match the ones new names are compared with.
"""

from django.db import migrations

from games.text.names import name_key

NAME_LENGTH = 40


def fill_keys(apps, schema_editor):
    Profile = apps.get_model("games", "Profile")
    taken = set()
    for profile in Profile.objects.order_by("pk").iterator():
        key = name_key(profile.display_name)
        if key and key in taken:
            suffix = f" #{profile.user_id}"
            renamed = profile.display_name[: NAME_LENGTH - len(suffix)].rstrip() + suffix
            key = name_key(renamed)
            if key and key not in taken:
                profile.display_name = renamed
            else:
                key = ""
        if key:
            taken.add(key)
        profile.name_key = key
        # The historical model has no custom save(): write both fields as computed here.
        Profile.objects.filter(pk=profile.pk).update(
            display_name=profile.display_name, name_key=key
        )


def clear_keys(apps, schema_editor):
    apps.get_model("games", "Profile").objects.update(name_key="")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_profile_name_key"),
    ]

    operations = [
        migrations.RunPython(fill_keys, clear_keys),
    ]
