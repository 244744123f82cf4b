"""Every URL of the site outside admin: what GET may do, and that every state change is a POST
with a CSRF token. The table must name every URL the URLconf has, so a new view is classified."""

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from progress.models import CodingSession, Note, Watch
from tests.factories import CodingSessionFactory, NoteFactory, ResourceFactory

pytestmark = pytest.mark.django_db

READ = "read"  # GET shows something; POST is refused with 405
FORM = "form"  # GET shows a form; its POST changes state, so it needs the CSRF token
ACTION = "action"  # POST only (GET is 405), with the CSRF token
# GET shows a confirm button; POST acts without a CSRF token, as RFC 8058's one-click
# unsubscribe requires: the signed link is the proof (tests/reminders/test_unsubscribe.py).
SIGNED_LINK = "signed link"

URLS = {
    "healthz": READ,
    "readyz": READ,
    "progress:home": READ,
    "progress:path": READ,
    "curriculum:resource_list": READ,
    "curriculum:resource_detail": READ,
    "curriculum:guide": READ,
    "accounts:export_json": READ,
    "accounts:export_csv": READ,
    "progress:stats": READ,
    "progress:curator_progress": READ,
    "password_change_done": READ,
    "password_reset_done": READ,
    "password_reset_complete": READ,
    "set_language": FORM,  # Django's view: a GET only redirects, it changes nothing
    "signup": FORM,
    "login": FORM,
    "password_change": FORM,
    "password_reset": FORM,
    "password_reset_confirm": FORM,
    "progress:coding_log": FORM,
    "progress:coding_session_edit": FORM,
    "progress:coding_session_delete": FORM,
    "progress:note": FORM,
    "progress:sitting_edit": FORM,
    "progress:sitting_delete": FORM,
    "accounts:settings": FORM,
    "logout": ACTION,
    "progress:mark_watched": ACTION,
    "progress:mark_not_watched": ACTION,
    "progress:log_sitting": ACTION,
    "progress:mark_followed": ACTION,
    "progress:mark_not_followed": ACTION,
    "progress:coding_session_add": ACTION,
    "accounts:delete_account": ACTION,
    "tokens:list": FORM,
    "tokens:revoke": ACTION,
    "groups:list": READ,
    "groups:board": READ,
    "groups:manage": READ,
    "groups:shared": READ,
    "groups:join": FORM,
    "groups:invitation": FORM,
    "groups:share_settings": FORM,
    "groups:create": ACTION,
    "groups:decline": ACTION,
    "groups:update_membership": ACTION,
    "groups:leave": ACTION,
    "groups:create_link": ACTION,
    "groups:invite": ACTION,
    "groups:revoke": ACTION,
    "groups:remove": ACTION,
    "groups:make_owner": ACTION,
    "groups:delete": ACTION,
    "groups:stop_sharing": ACTION,
    "reminders:feed": READ,
    "reminders:issue_feed": ACTION,
    "reminders:revoke_feed": ACTION,
    "reminders:digest_settings": ACTION,
    "reminders:unsubscribe": SIGNED_LINK,
}
ARGUMENTS = {"slug": "how-gpu-computing-works", "pk": 1, "uidb64": "MQ", "token": "set-password"}


def url_names(patterns=None, namespace=None):
    """Every named URL of the URLconf, admin excepted, with its keyword arguments."""
    names = {}
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            # The JSON API answers per HTTP method and checks CSRF itself: see tests/api/test_auth.py.
            if pattern.namespace not in {"admin", "api"}:
                names |= url_names(pattern.url_patterns, pattern.namespace or namespace)
        elif pattern.name:
            name = f"{namespace}:{pattern.name}" if namespace else pattern.name
            names[name] = sorted(pattern.pattern.regex.groupindex)
    return names


def url_of(name):
    return reverse(name, kwargs={key: ARGUMENTS[key] for key in url_names()[name]})


def names_of(kind):
    return [name for name, of_kind in URLS.items() if of_kind == kind]


@pytest.fixture
def signed_in(learner):
    """A learner with a coding session (pk 1 where the table needs one), a note and a watch."""
    resource = ResourceFactory(slug=ARGUMENTS["slug"])
    CodingSessionFactory(user=learner, resource=resource)
    NoteFactory(user=learner, resource=resource)
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    return client


def test_the_table_names_every_url_of_the_site():
    """A new URL (or a renamed one) must be added above with its kind, so it gets checked."""
    assert set(URLS) == set(url_names())


@pytest.mark.parametrize("name", names_of(ACTION))
def test_state_changing_urls_refuse_get(signed_in, name):
    """A link, a prefetch or a crawler cannot change anything: GET is 405."""
    assert signed_in.get(url_of(name)).status_code == 405


@pytest.mark.parametrize("name", names_of(READ))
def test_read_only_urls_refuse_post(signed_in, learner_client, name):
    """Pages that only show something do not accept a POST, even one that passes CSRF."""
    assert learner_client.post(url_of(name)).status_code == 405


@pytest.mark.parametrize("name", names_of(FORM) + names_of(ACTION))
def test_state_changing_urls_need_the_csrf_token(signed_in, learner, name):
    """A POST from another site (no CSRF token) is refused with 403 and changes nothing."""
    rows = [Watch.objects.count(), CodingSession.objects.count(), Note.objects.count()]
    data = {"minutes": "10", "text": "forged", "password": "x", "language": "en"}
    response = signed_in.post(url_of(name), data)
    assert response.status_code == 403
    assert [Watch.objects.count(), CodingSession.objects.count(), Note.objects.count()] == rows
    assert type(learner).objects.filter(pk=learner.pk).exists()
