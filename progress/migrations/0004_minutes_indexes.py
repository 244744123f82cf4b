# Indexes that cover the path pages' minutes per resource (progress/balance.py).

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('curriculum', '0002_revision_renewed_by_triggers'),
        ('progress', '0003_profile_time_zone'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name='practice',
            index=models.Index(fields=['user', 'resource', 'day', 'minutes'], name='practice_minutes'),
        ),
        migrations.AddIndex(
            model_name='watchevent',
            index=models.Index(fields=['user', 'resource', 'at', 'minutes'], name='watchevent_minutes'),
        ),
    ]
