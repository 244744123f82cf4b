"""`check --deploy` fails when mail leaves the machine and SITE_URL is not an https:// address,
and warns when mail does not leave it (reset links in the server's log)."""

import pytest

from tests.config.helpers import run_django

DEPLOY_CHECK = (
    "from django.core.management import execute_from_command_line;"
    " execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', 'WARNING'])"
)
PRODUCTION = {
    "SECRET_KEY": "a-long-random-production-secret-key-" + "k3J9x" * 10,
    "ALLOWED_HOSTS": "parcours.example",
    "DATABASE_URL": "sqlite:///:memory:",
}


@pytest.mark.parametrize(
    "site_url",
    [None, "http://parcours.example", "https://", "parcours.example"],
    ids=["unset", "plain-http", "no-host", "no-scheme"],
)
def test_mail_over_smtp_with_a_site_url_that_is_not_https_fails(site_url):
    """Unset (the 127.0.0.1 default), http://, or not an address: the check names SITE_URL."""
    environment = {**PRODUCTION, "EMAIL_HOST": "smtp.parcours.example"}
    if site_url is not None:
        environment["SITE_URL"] = site_url
    result = run_django(DEPLOY_CHECK, **environment)
    assert result.returncode != 0
    assert "(reminders.E001) SITE_URL is" in result.stderr
    assert "Set SITE_URL to the site's public address" in result.stderr


def test_mail_over_smtp_with_an_https_site_url_passes():
    result = run_django(
        DEPLOY_CHECK,
        **PRODUCTION,
        EMAIL_HOST="smtp.parcours.example",
        SITE_URL="https://parcours.example",
    )
    assert result.returncode == 0, result.stderr
    assert "reminders.E001" not in result.stdout + result.stderr


def test_mail_printed_to_the_log_is_a_deploy_warning_and_needs_no_site_url():
    """Without EMAIL_HOST a password-reset link goes to the journal: warned, SITE_URL not asked."""
    result = run_django(DEPLOY_CHECK, **PRODUCTION)
    assert result.returncode != 0
    assert "(reminders.W001) Mail is printed to the server's log" in result.stderr
    assert "Set EMAIL_HOST" in result.stderr
    assert "reminders.E001" not in result.stderr


def test_mail_printed_to_the_log_is_not_warned_about_in_development():
    result = run_django(DEPLOY_CHECK.replace("'--deploy', ", ""), **PRODUCTION)
    assert result.returncode == 0, result.stderr


def test_the_check_runs_only_with_deploy():
    """A development `check` stays quiet about SITE_URL."""
    result = run_django(
        "from django.core.management import execute_from_command_line;"
        " execute_from_command_line(['manage.py', 'check', '--fail-level', 'WARNING'])",
        **PRODUCTION,
        EMAIL_HOST="smtp.parcours.example",
    )
    assert result.returncode == 0, result.stderr
