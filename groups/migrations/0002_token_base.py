# The token models share lib.models.Token: created_at is set when the row is made (no change in
# the database).

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("groups", "0001_study_groups"),
    ]

    operations = [
        migrations.AlterField(
            model_name="invitation",
            name="created_at",
            field=models.DateTimeField(
                default=django.utils.timezone.now, verbose_name="created at"
            ),
        ),
    ]
