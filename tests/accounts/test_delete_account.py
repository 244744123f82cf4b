import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from progress.models import EditorDay, EditorProject, Heartbeat
from tests.factories import (
    PASSWORD,
    CodingSessionFactory,
    NoteFactory,
    ProfileFactory,
    ViewingFactory,
    WatchEventFactory,
    WatchFactory,
)

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
URL = "/settings/delete/"


def fill_everything(user):
    ProfileFactory(user=user)
    watch = WatchFactory(user=user)
    WatchEventFactory(user=user, resource=watch.resource)
    CodingSessionFactory(user=user, resource=watch.resource)
    NoteFactory(user=user, resource=watch.resource)
    ViewingFactory(user=user, resource=watch.resource)
    Heartbeat.objects.create(user=user, time=timezone.now(), entity_digest="0" * 64)
    EditorProject.objects.create(user=user, name="kernels")
    EditorDay.objects.create(user=user, day=timezone.localdate(), project="kernels", microseconds=1)


def rows_referencing(user_pk):
    """How many rows of every progress table point at this user id."""
    counts = {}
    for model in apps.get_app_config("progress").get_models():
        counts[model.__name__] = model.objects.filter(user_id=user_pk).count()
    return counts


def test_the_url_is_named_delete_account():
    """POST /settings/delete/ is accounts:delete_account."""
    assert reverse("accounts:delete_account") == URL


def test_the_right_password_deletes_every_row_and_signs_out(learner_client, learner, other_learner):
    """User, profile, watches, events, coding_sessions, notes: all gone; the visitor is signed out."""
    fill_everything(learner)
    fill_everything(other_learner)
    pk = learner.pk
    response = learner_client.post(URL, {"password": PASSWORD}, headers=EN, follow=True)
    assert response.redirect_chain[-1][0] == reverse("progress:home")
    assert "Your account and everything you entered are deleted." in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated
    assert not get_user_model().objects.filter(pk=pk).exists()
    assert rows_referencing(pk) == dict.fromkeys(rows_referencing(pk), 0)
    assert set(rows_referencing(pk)) >= {"Profile", "Watch", "WatchEvent", "CodingSession", "Note"}
    assert all(count == 1 for count in rows_referencing(other_learner.pk).values())


def test_a_wrong_password_deletes_nothing(learner_client, learner):
    """A clear error on the password field, everything kept, still signed in."""
    fill_everything(learner)
    response = learner_client.post(URL, {"password": "not it"}, headers=EN)
    assert response.status_code == 400
    assert "This is not your password; nothing was deleted." in response.content.decode()
    assert all(count == 1 for count in rows_referencing(learner.pk).values())
    assert learner_client.get(reverse("accounts:settings")).status_code == 200
