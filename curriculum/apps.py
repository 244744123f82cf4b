import uuid

from django.apps import AppConfig
from django.apps import apps as global_apps
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class CurriculumConfig(AppConfig):
    name = "curriculum"
    verbose_name = _("Curriculum")

    def ready(self):
        post_migrate.connect(keep_the_revision_token, sender=self)


def keep_the_revision_token(using, apps=global_apps, **kwargs):
    """`manage.py flush` (and each transactional test's teardown) empties the token's table, whose
    row a migration made, then sends post_migrate: the row is back before any request asks."""
    try:
        Revision = apps.get_model("curriculum", "Revision")
    except LookupError:  # migrated back before the table existed
        return
    if not Revision.objects.using(using).exists():
        Revision.objects.using(using).create(token=str(uuid.uuid4()))
