from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_profile_name_key_fill"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="profile",
            constraint=models.UniqueConstraint(
                condition=~models.Q(name_key=""),
                fields=("name_key",),
                name="profile_name_key_unique",
            ),
        ),
    ]
