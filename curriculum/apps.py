from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class CurriculumConfig(AppConfig):
    name = "curriculum"
    verbose_name = _("Curriculum")


class CurationAdminConfig(admin_apps.AdminConfig):
    """Django's admin with the curators' site as admin.site (INSTALLED_APPS names it)."""

    # Not picked for the "curriculum" entry of INSTALLED_APPS: CurriculumConfig is.
    default = False
    default_site = "curriculum.sites.CurationSite"
