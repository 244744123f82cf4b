"""`check --deploy`: mail must leave the machine, and its links point at the site, over HTTPS."""

from urllib.parse import urlsplit

from django.conf import settings
from django.core import checks

# Backends that keep mail on this machine: with one of them, no link leaves it.
LOCAL_MAIL_BACKENDS = {
    "config.console_mail.EmailBackend",
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.dummy.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
}


@checks.register(checks.Tags.security, deploy=True)
def site_url_is_https_when_mail_leaves(app_configs, **kwargs):
    """Mail that leaves the machine starts its links with SITE_URL: it must be an https:// address."""
    backend = settings.MAILERS.get("default", {}).get("BACKEND", "")
    if backend in LOCAL_MAIL_BACKENDS:
        return []
    address = urlsplit(settings.SITE_URL)
    if address.scheme == "https" and address.hostname:
        return []
    return [
        checks.Error(
            f"SITE_URL is {settings.SITE_URL!r} while mail is sent through {backend}: "
            "the links in every digest would point there.",
            hint="Set SITE_URL to the site's public address, e.g. https://parcours.example.",
            id="reminders.E001",
        )
    ]


# Backends that write each mail, links included, where the server's log goes.
LOG_MAIL_BACKENDS = {
    "config.console_mail.EmailBackend",
    "django.core.mail.backends.console.EmailBackend",
}


@checks.register(checks.Tags.security, deploy=True)
def mail_leaves_the_machine(app_configs, **kwargs):
    """Without EMAIL_HOST each mail is printed to the log: a reset link there opens the account."""
    backend = settings.MAILERS.get("default", {}).get("BACKEND", "")
    if backend not in LOG_MAIL_BACKENDS:
        return []
    return [
        checks.Warning(
            "Mail is printed to the server's log (EMAIL_HOST is not set): every password-reset "
            "link goes to the journal, where whoever reads it can take over the account, and "
            "no learner receives a mail.",
            hint="Set EMAIL_HOST (and EMAIL_HOST_USER, EMAIL_HOST_PASSWORD) to your SMTP server.",
            id="reminders.W001",
        )
    ]
