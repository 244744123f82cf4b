from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProgressConfig(AppConfig):
    name = "progress"
    verbose_name = _("Progress")

    def ready(self):
        # Connects the sign-in receivers that apply the learner's saved language and time zone.
        from progress import language, time_zone  # noqa: F401
