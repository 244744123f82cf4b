"""Practice is renamed CodingSession, the one word the pages use: the table, its rows and their
ids stay; the related names, indexes and constraints take the new name."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("curriculum", "0004_curriculum_text_in_french_and_english"),
        ("progress", "0007_learner_days_are_validated"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameModel(old_name="Practice", new_name="CodingSession"),
        migrations.AlterField(
            model_name="codingsession",
            name="user",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="coding_sessions",
                to=settings.AUTH_USER_MODEL,
                verbose_name="learner",
            ),
        ),
        migrations.AlterField(
            model_name="codingsession",
            name="resource",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="coding_sessions",
                to="curriculum.resource",
                verbose_name="resource",
            ),
        ),
        migrations.AlterField(
            model_name="codingsession",
            name="chapter",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="coding_sessions",
                to="curriculum.chapter",
                verbose_name="chapter",
            ),
        ),
        migrations.RenameIndex(
            model_name="codingsession",
            new_name="codingsession_user_day",
            old_name="practice_user_day",
        ),
        migrations.RenameIndex(
            model_name="codingsession",
            new_name="codingsession_minutes",
            old_name="practice_minutes",
        ),
        migrations.RemoveConstraint(model_name="codingsession", name="practice_submitted_once"),
        migrations.AddConstraint(
            model_name="codingsession",
            constraint=models.UniqueConstraint(
                fields=("user", "idempotency_key"), name="codingsession_submitted_once"
            ),
        ),
        migrations.RemoveConstraint(
            model_name="codingsession", name="practice_tied_to_resource_or_chapter"
        ),
        migrations.AddConstraint(
            model_name="codingsession",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("resource__isnull", False), ("chapter__isnull", False), _connector="OR"
                ),
                name="codingsession_tied_to_resource_or_chapter",
            ),
        ),
        migrations.RemoveConstraint(
            model_name="codingsession", name="practice_minutes_within_a_day"
        ),
        migrations.AddConstraint(
            model_name="codingsession",
            constraint=models.CheckConstraint(
                condition=models.Q(("minutes__gte", 1), ("minutes__lte", 1440)),
                name="codingsession_minutes_within_a_day",
            ),
        ),
    ]
