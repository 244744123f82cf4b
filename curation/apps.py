from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class CurationConfig(AppConfig):
    name = "curation"
    verbose_name = _("Curation")


class CurationAdminConfig(admin_apps.AdminConfig):
    """Django's admin with the curators' site as admin.site (INSTALLED_APPS names it)."""

    # Not picked for the "curation" entry of INSTALLED_APPS: CurationConfig is.
    default = False
    default_site = "curation.sites.CurationSite"
