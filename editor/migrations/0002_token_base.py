# The token models share lib.models.Token: the digest column is token_hash everywhere (renamed,
# its data kept).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("editor", "0001_initial"),
    ]

    operations = [
        migrations.RenameField(
            model_name="editorkey",
            old_name="key_digest",
            new_name="token_hash",
        ),
        migrations.AlterField(
            model_name="editorkey",
            name="token_hash",
            field=models.CharField(
                editable=False, max_length=64, unique=True, verbose_name="token digest"
            ),
        ),
    ]
