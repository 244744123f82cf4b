"""After an account is deleted, nothing that names or belongs to the learner stays in the database or Redis."""

import pickle
import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from api.models import AccessToken
from editor.models import EditorKey
from groups import actions as group_actions
from progress.editor_time import HeartbeatIn, record_heartbeats
from reminders.models import CalendarFeed, Digest, DigestSubscription, Nudge, NudgeSubscription
from tests.factories import (
    PASSWORD,
    CodingSessionFactory,
    ExerciseFactory,
    NoteFactory,
    ProfileFactory,
    ResourceFactory,
    SubmissionFactory,
    UserFactory,
    ViewingFactory,
    WatchEventFactory,
    WatchFactory,
)

pytestmark = pytest.mark.django_db

USERNAME = "ada-lovelace-1815"
AXES_MODELS = (AccessAttempt, AccessLog, AccessFailureLog)


def user_references():
    """(model, field name) for every field of every installed model that points at the user."""
    user_model = get_user_model()
    return [
        (model, field.name)
        for model in apps.get_models(include_auto_created=True)
        for field in model._meta.get_fields()
        if (field.many_to_one or field.one_to_one)
        and field.concrete
        and field.related_model is user_model
    ]


def rows_left(user_pk, username):
    """Rows pointing at the user by key, naming them by username, or sessions signed in as them."""
    left = {
        f"{model._meta.db_table}.{name}": model.objects.filter(**{name: user_pk}).count()
        for model, name in user_references()
    }
    for model in AXES_MODELS:
        left[model._meta.db_table] = model.objects.filter(username__iexact=username).count()
    # The address typed in the username box (the factory's address is username@example.com).
    left["sign-in log (address typed)"] = sum(
        model.objects.filter(username__iexact=f"{username}@example.com").count()
        for model in AXES_MODELS
    )
    left["django_admin_log (about them)"] = LogEntry.objects.filter(
        object_repr__icontains=username
    ).count()
    left["django_session"] = sum(
        session.get_decoded().get(SESSION_KEY) == str(user_pk) for session in Session.objects.all()
    )
    return left


def redis_keys_naming(cache, user_pk, username):
    """Keys in the site's Redis database whose name or value names the user."""
    client = cache._cache.get_client()
    found = []
    for raw_key in client.scan_iter():
        key = raw_key.decode().split(":", 2)[-1]  # without Django's ":1:" key prefix
        value = client.get(raw_key) or b""
        named = username.encode() in value or re.search(rf"(^|:)(learner:)?{user_pk}(:|$)", key)
        if value.startswith(b"\x80"):  # a pickle: a session says whose it is inside
            data = pickle.loads(value)
            named = named or (isinstance(data, dict) and data.get(SESSION_KEY) == str(user_pk))
        if named:
            found.append(key)
    return found


def sign_in(client, username=USERNAME, password=PASSWORD, address="192.0.2.10"):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        headers={"user-agent": "Firefox on the other laptop"},
    )


@pytest.fixture
def learner_everywhere(settings):
    """A learner with rows in every table, signed in on two devices, with failed sign-ins logged."""
    settings.AXES_ENABLE_ACCESS_FAILURE_LOG = True
    user = UserFactory(username=USERNAME)
    resource = ResourceFactory(slug="lecture-1")
    ProfileFactory(user=user)
    WatchFactory(user=user, resource=resource)
    WatchEventFactory(user=user, resource=resource)
    CodingSessionFactory(user=user, resource=resource)
    NoteFactory(user=user, resource=resource, text="my private thoughts")
    ViewingFactory(user=user, resource=resource)
    SubmissionFactory(learner=user, exercise=ExerciseFactory(resource=resource))
    user.groups.add(Group.objects.create(name="Cohort 2026-12"))
    user.user_permissions.add(Permission.objects.first())
    LogEntry.objects.create(user=user, action_flag=ADDITION, object_repr="something")
    AccessToken.objects.create_for(user=user, name="laptop", scope=AccessToken.Scope.READ)
    EditorKey.objects.issue(user=user)
    beats = [
        HeartbeatIn(time=timezone.now() - timedelta(minutes=m), entity_digest="0" * 64, project="k")
        for m in (2, 4)
    ]
    record_heartbeats(user=user, heartbeats=beats, zone=ZoneInfo("UTC"))
    group_actions.create_group(owner=user, name="Ada alone", display_name="Ada")
    club = group_actions.create_group(owner=UserFactory(), name="Club", display_name="Linus")
    link, _token = group_actions.create_link(group=club, days=7, max_uses=2)
    group_actions.join(user=user, invitation=link, display_name="Ada", shares="coding")
    other = group_actions.create_group(owner=UserFactory(), name="Other", display_name="Bob")
    group_actions.invite_by_username(group=other, invitee=user)
    group_actions.share(user=user, display_name="Ada")
    CalendarFeed.issue_for(user)
    DigestSubscription.objects.create(user=user, weekday=DigestSubscription.Weekday.MONDAY)
    Digest.objects.create(user=user, week="2026-11-30", sent_at="2026-11-30T08:00:00Z")
    NudgeSubscription.objects.create(user=user, hour=18)
    Nudge.objects.create(user=user, day="2026-12-01", status=Nudge.Status.SENT)
    devices = [Client(), Client()]
    sign_in(Client(), username=USERNAME.upper(), password="wrong", address="198.51.100.3")
    # The address typed in the username box, as learners often do: axes logs it as typed.
    sign_in(Client(), username=user.email.upper(), password="wrong", address="198.51.100.4")
    # A curator changed the account in admin: the history names it, as admin's change view writes.
    LogEntry.objects.create(
        user=UserFactory(username="a-curator", is_staff=True),
        content_type=ContentType.objects.get_for_model(user),
        object_id=str(user.pk),
        object_repr=str(user),
        action_flag=CHANGE,
        change_message='[{"changed": {"fields": ["Email address"]}}]',
    )
    for device in devices:
        assert sign_in(device).status_code == 302
        for url in ["/", reverse("progress:coding_log"), reverse("accounts:settings")]:
            assert device.get(url).status_code == 200
    return user, devices


def test_every_table_that_points_at_the_user_is_listed():
    """The introspection finds the learner's own tables, admin's log, groups and permissions."""
    tables = {model._meta.db_table for model, _name in user_references()}
    assert tables >= {
        "progress_profile",
        "progress_watch",
        "progress_watchevent",
        "progress_codingsession",
        "progress_note",
        "django_admin_log",
        "auth_user_groups",
        "auth_user_user_permissions",
        "groups_membership",
        "groups_invitation",
        "groups_sharelink",
        "reminders_calendarfeed",
        "reminders_digestsubscription",
        "reminders_digest",
        "reminders_nudgesubscription",
        "reminders_nudge",
    }


def test_before_deletion_the_learner_is_everywhere(learner_everywhere):
    """The check below can fail: every table and the sign-in log hold the learner first."""
    user, _devices = learner_everywhere
    left = rows_left(user.pk, USERNAME)
    assert all(count >= 1 for count in left.values()), left
    assert left["django_session"] == 2


def test_deleting_leaves_no_row_in_any_table(learner_everywhere):
    """Every foreign key, the sign-in log (whatever the case typed) and the sessions: none left."""
    user, (device, _other_device) = learner_everywhere
    response = device.post(reverse("accounts:delete_account"), {"password": PASSWORD})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk=user.pk).exists()
    left = rows_left(user.pk, USERNAME)
    assert left == dict.fromkeys(left, 0)


def test_a_curator_deleting_the_account_in_admin_leaves_no_row_either(learner_everywhere, curator):
    """Admin's delete page forgets the learner as the settings page does: sessions, log, groups."""
    user, _devices = learner_everywhere
    admin = Client()
    admin.force_login(curator)
    response = admin.post(reverse("admin:auth_user_delete", args=[user.pk]), {"post": "yes"})
    assert response.status_code == 302
    left = rows_left(user.pk, USERNAME)
    assert left == dict.fromkeys(left, 0)


def test_admin_bulk_deletion_forgets_each_learner(learner_everywhere, curator):
    """The change list's "delete selected" action goes through the same forgetting."""
    user, _devices = learner_everywhere
    admin = Client()
    admin.force_login(curator)
    response = admin.post(
        reverse("admin:auth_user_changelist"),
        {"action": "delete_selected", "_selected_action": [user.pk], "post": "yes"},
    )
    assert response.status_code == 302
    left = rows_left(user.pk, USERNAME)
    assert left == dict.fromkeys(left, 0)


def test_the_session_on_another_device_ends(learner_everywhere):
    """The laptop still signed in is signed out: its next page asks to sign in."""
    _user, (device, other_device) = learner_everywhere
    device.post(reverse("accounts:delete_account"), {"password": PASSWORD})
    response = other_device.get(reverse("accounts:settings"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_other_learners_keep_their_sessions_and_sign_in_log(learner_everywhere):
    """Only the deleted learner's rows go."""
    grace, grace_device = UserFactory(username="grace"), Client()
    assert sign_in(grace_device, username="grace").status_code == 302
    _user, (device, _other) = learner_everywhere
    device.post(reverse("accounts:delete_account"), {"password": PASSWORD})
    assert grace_device.get(reverse("accounts:settings")).status_code == 200
    assert AccessLog.objects.filter(username="grace").count() == 1
    assert rows_left(grace.pk, "grace")["django_session"] == 1


def test_nothing_in_redis_names_the_learner_after_deletion(
    redis_cache, settings, learner_everywhere
):
    """With Redis as the cache and the reset-mail counts' store, no key names them after."""
    settings.CACHES = {**settings.CACHES, "throttle": settings.CACHES["default"]}
    user, (device, _other) = learner_everywhere
    Client().post(reverse("password_reset"), {"email": user.email})
    assert any(
        "reset-mail:account" in key for key in redis_keys_naming(redis_cache, user.pk, USERNAME)
    )
    device.post(reverse("accounts:delete_account"), {"password": PASSWORD})
    assert redis_keys_naming(redis_cache, user.pk, USERNAME) == []
    assert rows_left(user.pk, USERNAME)["django_session"] == 0
