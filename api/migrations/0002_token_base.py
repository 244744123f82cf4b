# The token models share lib.models.Token: the digest column is token_hash everywhere (renamed,
# its data kept) and unique, as every secret's digest is; created_at is set when the row is made.

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0001_personal_access_tokens"),
    ]

    operations = [
        migrations.RenameField(
            model_name="accesstoken",
            old_name="secret_hash",
            new_name="token_hash",
        ),
        migrations.AlterField(
            model_name="accesstoken",
            name="token_hash",
            field=models.CharField(
                editable=False, max_length=64, unique=True, verbose_name="token digest"
            ),
        ),
        migrations.AlterField(
            model_name="accesstoken",
            name="created_at",
            field=models.DateTimeField(
                default=django.utils.timezone.now, verbose_name="created at"
            ),
        ),
    ]
