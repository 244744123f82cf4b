"""Every URL of the site outside admin: what GET may do, that every state change is a POST with a
CSRF token, and which URLs send a signed-out visitor to sign in. The tables must name every URL the
URLconf has, so a new view is classified; a view's own tests need not repeat any of this."""

from urllib.parse import quote

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse
from django.utils import timezone

from progress.models import CodingSession, Note, Watch
from tests.factories import (
    CodingSessionFactory,
    NoteFactory,
    ResourceFactory,
    WatchEventFactory,
    WatchFactory,
)

pytestmark = pytest.mark.django_db

READ = "read"  # GET shows something; POST is refused with 405
FORM = "form"  # GET shows a form; its POST changes state, so it needs the CSRF token
ACTION = "action"  # POST only (GET is 405), with the CSRF token
# GET shows a confirm button; POST acts without a CSRF token, as RFC 8058's one-click
# unsubscribe requires: the signed link is the proof (tests/reminders/test_unsubscribe.py and
# test_nudge_unsubscribe.py).
SIGNED_LINK = "signed link"

URLS = {
    "healthz": READ,
    "readyz": READ,
    "favicon": READ,
    "progress:home": READ,
    "progress:path": READ,
    "progress:catalogue": READ,
    "progress:resource_detail": READ,
    "curriculum:guide": READ,
    "accounts:export_json": READ,
    "accounts:export_csv": READ,
    "progress:stats": READ,
    "progress:history": READ,
    "curation:curator_progress": READ,
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
    "progress:record_viewing": ACTION,
    "progress:mark_followed": ACTION,
    "progress:mark_not_followed": ACTION,
    "progress:skip": ACTION,
    "progress:unskip": ACTION,
    "progress:coding_session_add": ACTION,
    "progress:log_code_today": ACTION,
    "accounts:delete_account": ACTION,
    "tokens:list": FORM,
    "tokens:revoke": ACTION,
    "editor:key": FORM,
    "editor:revoke": ACTION,
    "progress:editor_project": FORM,
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
    "reminders:code_time": ACTION,
    "reminders:digest_settings": ACTION,
    "reminders:nudge_settings": ACTION,
    "reminders:unsubscribe": SIGNED_LINK,
    "reminders:nudge_unsubscribe": SIGNED_LINK,
    "practice:exercise": READ,
    "practice:submissions": READ,
    "practice:submit": ACTION,
}
# What a signed-out visitor is sent to sign in for (then back: ?next=); the others answer visitors.
SIGN_IN = {
    "accounts:export_json",
    "accounts:export_csv",
    "accounts:settings",
    "accounts:delete_account",
    "password_change",
    "password_change_done",
    "progress:stats",
    "progress:coding_log",
    "progress:coding_session_edit",
    "progress:coding_session_delete",
    "progress:coding_session_add",
    "progress:editor_project",
    "progress:note",
    "progress:sitting_edit",
    "progress:sitting_delete",
    "progress:mark_watched",
    "progress:mark_not_watched",
    "progress:log_sitting",
    "progress:record_viewing",
    "progress:mark_followed",
    "progress:mark_not_followed",
    "progress:skip",
    "progress:unskip",
    "progress:history",
    "progress:log_code_today",
    "curation:curator_progress",
    "tokens:list",
    "tokens:revoke",
    "editor:key",
    "editor:revoke",
    "groups:list",
    "groups:board",
    "groups:manage",
    "groups:invitation",
    "groups:share_settings",
    "groups:create",
    "groups:decline",
    "groups:update_membership",
    "groups:leave",
    "groups:create_link",
    "groups:invite",
    "groups:revoke",
    "groups:remove",
    "groups:make_owner",
    "groups:delete",
    "groups:stop_sharing",
    "reminders:issue_feed",
    "reminders:revoke_feed",
    "reminders:code_time",
    "reminders:digest_settings",
    "reminders:nudge_settings",
    "practice:exercise",
    "practice:submissions",
    "practice:submit",
}
ARGUMENTS = {"slug": "how-gpu-computing-works", "pk": 1, "uidb64": "MQ", "token": "set-password"}


def url_names(patterns=None, namespace=None):
    """Every named URL of the URLconf, admin excepted, with its keyword arguments."""
    names = {}
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            # The JSON API answers per HTTP method and checks CSRF itself: see tests/api/test_auth.py;
            # the editor's endpoints take a key in a header, no cookie: see tests/editor/.
            if pattern.namespace not in {"admin", "api", "wakatime"}:
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
    """A learner with a coding session (pk 1 where the table needs one), a note, a finished watch
    and a sitting: what a request that should change nothing could change."""
    resource = ResourceFactory(slug=ARGUMENTS["slug"])
    CodingSessionFactory(user=learner, resource=resource)
    NoteFactory(user=learner, resource=resource)
    WatchFactory(user=learner, resource=resource, logged_minutes=30, finished_at=timezone.now())
    WatchEventFactory(user=learner, resource=resource, minutes=30)
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    return client


def test_the_table_names_every_url_of_the_site():
    """A new URL (or a renamed one) must be added above with its kind, so it gets checked."""
    assert set(URLS) == set(url_names())
    assert set(URLS) >= SIGN_IN


def rows_of_every_table():
    """Every row of the site's own tables and of the users', as it is now."""
    labels = {"progress", "groups", "reminders", "api", "editor", "accounts", "auth"}
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in apps.get_models()
        if model._meta.app_label in labels
    }


def signed_out_request(name):
    """What a visitor's browser would send: a POST where only a POST does something."""
    client = Client()
    if URLS[name] == ACTION:
        return client.post(url_of(name), {"minutes": "10", "text": "x", "hour": "7"})
    return client.get(url_of(name))


@pytest.mark.parametrize("name", sorted(SIGN_IN))
def test_signed_out_visitors_are_sent_to_sign_in_and_nothing_changes(signed_in, name):
    """Sign in, then back to the page; a signed-out POST writes nothing."""
    rows = rows_of_every_table()
    response = signed_out_request(name)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={quote(url_of(name))}"
    assert rows_of_every_table() == rows


@pytest.mark.parametrize("name", sorted(set(URLS) - SIGN_IN))
def test_the_other_urls_answer_signed_out_visitors(signed_in, name):
    """Public pages, sign-in and sign-up, links from e-mails and calendars: no sign-in first."""
    response = signed_out_request(name)
    assert not response.get("Location", "").startswith(reverse("login") + "?")


@pytest.mark.parametrize("name", names_of(ACTION))
def test_state_changing_urls_refuse_get(signed_in, name):
    """A link, a prefetch or a crawler cannot change anything: GET is 405."""
    rows = rows_of_every_table()
    assert signed_in.get(url_of(name)).status_code == 405
    assert rows_of_every_table() == rows


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
