"""Keep only a digest of each calendar feed's token.

Existing tokens are hashed, not invalidated: the digest of the token a learner pasted into their
calendar app is what lookups now compare, so every subscribed calendar keeps updating, and no
working address is left in the database.
"""

import hashlib

from django.db import migrations, models


def hash_tokens(apps, schema_editor):
    CalendarFeed = apps.get_model("reminders", "CalendarFeed")
    for feed in CalendarFeed.objects.only("pk", "token"):
        feed.token_hash = hashlib.sha256(feed.token.encode()).hexdigest()
        feed.save(update_fields=["token_hash"])


class Migration(migrations.Migration):
    dependencies = [("reminders", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="calendarfeed",
            name="token_hash",
            field=models.CharField(
                editable=False, max_length=64, null=True, verbose_name="token digest"
            ),
        ),
        # A digest cannot be turned back into its token: going back gives each feed a new one.
        migrations.RunPython(hash_tokens, migrations.RunPython.noop, elidable=False),
        migrations.RemoveField(model_name="calendarfeed", name="token"),
        migrations.AlterField(
            model_name="calendarfeed",
            name="token_hash",
            field=models.CharField(
                editable=False, max_length=64, unique=True, verbose_name="token digest"
            ),
        ),
    ]
