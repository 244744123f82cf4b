import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def change(client, user, **values):
    data = {
        "username": user.username,
        "email": user.email,
        "date_joined_0": "2026-12-01",
        "date_joined_1": "10:00:00",
        **values,
    }
    return client.post(
        reverse("admin:auth_user_change", args=[user.pk]),
        data,
        headers={"accept-language": "en"},
    )


def test_a_curator_cannot_give_a_user_an_e_mail_another_has_in_another_case(client, curator):
    """The admin form refuses it with a message instead of the database's error."""
    UserFactory(username="ada", email="ada@example.com")
    grace = UserFactory(username="grace", email="grace@example.com")
    client.force_login(curator)
    response = change(client, grace, email="ADA@example.com")
    assert response.status_code == 200
    assert "An account with this e-mail address already exists." in response.content.decode()
    grace.refresh_from_db()
    assert grace.email == "grace@example.com"


def test_a_curator_cannot_give_a_user_a_username_another_has_in_another_case(client, curator):
    """Usernames stay unique whatever their case, in admin as at sign-up."""
    UserFactory(username="ada")
    grace = UserFactory(username="grace")
    client.force_login(curator)
    response = change(client, grace, username="ADA")
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    grace.refresh_from_db()
    assert grace.username == "grace"


def test_a_curator_can_still_change_a_users_own_e_mail_and_username(client, curator):
    """Keeping one's own address, in another case, or a new name is fine."""
    grace = UserFactory(username="grace", email="grace@example.com")
    client.force_login(curator)
    response = change(client, grace, username="Grace", email="GRACE@example.com")
    assert response.status_code == 302
    grace.refresh_from_db()
    assert (grace.username, grace.email) == ("Grace", "GRACE@example.com")
