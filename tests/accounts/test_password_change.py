import pytest
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}
NEW_PASSWORD = "a new and longer passphrase"


def change_password(client, old=PASSWORD, new1=NEW_PASSWORD, new2=NEW_PASSWORD):
    data = {"old_password": old, "new_password1": new1, "new_password2": new2}
    return client.post(reverse("password_change"), data, headers=EN)


def test_the_page_shows_its_form_in_two_queries(learner_client, django_assert_num_queries):
    """The page loads the session and the user, and asks for the old password and the new one twice."""
    with django_assert_num_queries(2):
        response = learner_client.get(reverse("password_change"), headers=EN)
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("old_password", "new_password1", "new_password2"):
        assert f'name="{name}"' in html


def test_visitors_are_sent_to_sign_in_first(client):
    """Anonymous visitors are redirected to sign in, then back here."""
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={reverse('password_change')}"


def test_changing_the_password_keeps_the_learner_signed_in(learner_client, learner):
    """The new password replaces the old one and this session stays signed in."""
    response = change_password(learner_client)
    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    done = learner_client.get(response.url, headers=EN)
    assert "Your password has been changed." in done.content.decode()
    learner.refresh_from_db()
    assert learner.check_password(NEW_PASSWORD)
    assert learner_client.session["_auth_user_id"] == str(learner.pk)


def test_a_wrong_old_password_changes_nothing(learner_client, learner):
    """Without the current password, nothing changes and the form says why."""
    response = change_password(learner_client, old="not my password")
    assert response.status_code == 200
    assert "Your old password was entered incorrectly." in response.content.decode()
    learner.refresh_from_db()
    assert learner.check_password(PASSWORD)


def test_a_weak_new_password_is_refused(learner_client, learner):
    """Django's validators apply to the new password too."""
    response = change_password(learner_client, new1="password", new2="password")
    assert "This password is too common." in response.content.decode()
    learner.refresh_from_db()
    assert learner.check_password(PASSWORD)


def test_empty_fields_are_each_required(learner_client, learner):
    """An empty form gets one "required" error per field and changes nothing."""
    response = learner_client.post(reverse("password_change"), {}, headers=EN)
    assert response.content.decode().count("This field is required.") == 3
    learner.refresh_from_db()
    assert learner.check_password(PASSWORD)


def test_the_done_page_loads_in_two_queries(learner_client, django_assert_num_queries):
    """The confirmation page loads the session and the user only."""
    with django_assert_num_queries(2):
        response = learner_client.get(reverse("password_change_done"), headers=EN)
    assert "Your password has been changed." in response.content.decode()
