"""The admin site, branded for the curators who keep the curriculum."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _


class CurationSite(admin.AdminSite):
    site_header = _("Parcours · curation")
    site_title = _("Parcours curation")
    index_title = _("Curriculum and learners")
