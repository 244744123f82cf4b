from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RemindersConfig(AppConfig):
    name = "reminders"
    verbose_name = _("Reminders")

    def ready(self):
        from reminders import checks  # noqa: F401  (registers the deploy check)
