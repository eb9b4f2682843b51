"""Drop addresses added to an account but never verified (issue 20, item 6).

Until now an added address was stored unverified while its confirmation link waited, and
such a row blocked the address's real owner from signing up and routed their password
reset into the account that added it. Added addresses are now stored only once verified
(``ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED``); this removes the rows left from before.
Only unverified addresses of accounts that have a verified one go: an account's own
address from sign-up, still waiting for its confirmation, stays.
"""

from django.db import migrations


def drop_pending(apps, schema_editor):
    EmailAddress = apps.get_model("account", "EmailAddress")
    verified_users = EmailAddress.objects.filter(verified=True).values("user_id")
    EmailAddress.objects.filter(verified=False, user_id__in=verified_users).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_profile_name_key_unique"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [
        migrations.RunPython(drop_pending, migrations.RunPython.noop),
    ]
