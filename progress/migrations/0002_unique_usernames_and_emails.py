# The built-in User lives in django.contrib.auth, so its model state cannot carry our
# constraints: this migration adds them to the auth_user table directly, through the schema
# editor, so each database gets its own SQL (a functional unique index on both SQLite and
# PostgreSQL). Usernames and e-mail addresses are unique whatever their case; blank e-mails
# (users made with createsuperuser may have none) are left out of the e-mail constraint.

from django.db import migrations, models
from django.db.models.functions import Lower

CONSTRAINTS = [
    models.UniqueConstraint(Lower("username"), name="user_username_unique_any_case"),
    models.UniqueConstraint(
        Lower("email"), condition=~models.Q(email=""), name="user_email_unique_any_case"
    ),
]


def add_constraints(apps, schema_editor):
    user = apps.get_model("auth", "User")
    for constraint in CONSTRAINTS:
        schema_editor.add_constraint(user, constraint)


def remove_constraints(apps, schema_editor):
    user = apps.get_model("auth", "User")
    for constraint in CONSTRAINTS:
        schema_editor.remove_constraint(user, constraint)


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("progress", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(add_constraints, remove_constraints, elidable=False),
    ]
