from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProgressConfig(AppConfig):
    name = "progress"
    verbose_name = _("Progress")

    def ready(self):
        # Connects the sign-in receiver that applies the learner's saved time zone.
        from progress import time_zone  # noqa: F401
