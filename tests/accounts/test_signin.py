import pytest
from axes.models import AccessAttempt
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}


def sign_in(client, username="ada", password=PASSWORD, **extra):
    data = {"username": username, "password": password, **extra}
    return client.post(reverse("login"), data, headers=EN)


def test_the_sign_in_page_shows_its_form_without_queries(client, django_assert_num_queries):
    """The sign-in page offers the form, a reset link and a sign-up link, touching no table."""
    with django_assert_num_queries(0):
        response = client.get(reverse("login"), headers=EN)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="username"' in html
    assert 'name="password"' in html
    assert f'href="{reverse("password_reset")}"' in html
    assert f'href="{reverse("signup")}"' in html


def test_the_sign_in_page_speaks_french_by_default(client):
    """Without an English browser, the form's labels are in French."""
    html = client.get(reverse("login")).content.decode()
    assert '<html lang="fr">' in html
    assert "Nom d’utilisateur" in html
    assert "Mot de passe" in html


def test_signing_in_with_the_right_password_signs_in_and_goes_home(client, learner):
    """The right username and password sign the learner in and send them home."""
    response = sign_in(client)
    assert response.status_code == 302
    assert response.url == reverse("progress:home")
    assert client.session["_auth_user_id"] == str(learner.pk)


def test_a_wrong_password_is_refused_with_a_message(client, learner):
    """A wrong password keeps the visitor out and says so."""
    response = sign_in(client, password="not the password")
    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_empty_fields_are_each_required(client):
    """An empty sign-in form gets one "required" error per field."""
    response = client.post(reverse("login"), {}, headers=EN)
    assert response.status_code == 200
    assert response.content.decode().count("This field is required.") == 2


def test_a_10000_character_username_is_refused_cleanly(client, learner):
    """A huge username gets the length error, not a crash, and signs nobody in."""
    response = sign_in(client, username="a" * 10_000)
    assert response.status_code == 200
    assert (
        "Ensure this value has at most 150 characters (it has 10000)." in response.content.decode()
    )
    assert "_auth_user_id" not in client.session


def test_the_session_key_changes_on_sign_in(client, learner):
    """Signing in rotates the session key, so a planted session cannot be hijacked."""
    session = client.session
    session["visited"] = True
    session.save()
    key_before = client.cookies["sessionid"].value

    sign_in(client)
    assert client.cookies["sessionid"].value != key_before
    assert client.session["_auth_user_id"] == str(learner.pk)


def test_the_session_cookie_is_httponly_samesite_lax_and_secure(client, learner):
    """The session cookie is out of scripts' reach, not sent cross-site, and HTTPS-only here."""
    sign_in(client)
    cookie = client.cookies["sessionid"]
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"
    assert cookie["secure"]


def test_next_to_another_host_is_ignored(client, learner):
    """`next=https://elsewhere.example` sends the learner home, not off-site."""
    response = sign_in(client, next="https://elsewhere.example")
    assert response.status_code == 302
    assert response.url == reverse("progress:home")


def test_next_on_this_site_is_followed(client, learner):
    """A `next` on this site is where the learner lands after signing in."""
    response = sign_in(client, next=reverse("password_change"))
    assert response.url == reverse("password_change")


def test_visitors_see_sign_in_and_sign_up_in_the_navigation(client):
    """Anonymous visitors are offered both doors."""
    html = client.get(reverse("progress:home"), headers=EN).content.decode()
    assert f'<a href="{reverse("login")}">Sign in</a>' in html
    assert f'<a href="{reverse("signup")}">Sign up</a>' in html
    assert "Sign out" not in html


def test_signed_in_learners_see_their_name_and_a_sign_out_button(learner_client):
    """The navigation names the learner and signs out through a POST form."""
    html = learner_client.get(reverse("progress:home"), headers=EN).content.decode()
    assert '<span class="nav__user">ada</span>' in html
    assert f'<form method="post" action="{reverse("logout")}"' in html
    assert ">Sign up<" not in html


def test_signing_out_by_post_signs_out(learner_client):
    """POSTing to sign-out ends the session and goes home."""
    response = learner_client.post(reverse("logout"))
    assert response.status_code == 302
    assert response.url == reverse("progress:home")
    assert "_auth_user_id" not in learner_client.session


def test_signing_out_by_get_does_not_sign_out(learner_client, learner):
    """A GET (a link, an image tag on another site) cannot sign anyone out."""
    response = learner_client.get(reverse("logout"))
    assert response.status_code == 405
    assert learner_client.session["_auth_user_id"] == str(learner.pk)


def test_a_10000_character_username_on_the_admin_sign_in_page_is_refused_cleanly(client, learner):
    """The admin's own sign-in form, throttled by axes too, answers a huge username without a 500."""
    data = {"username": "a" * 10_000, "password": PASSWORD}
    response = client.post(reverse("admin:login"), data, headers=EN)
    assert response.status_code == 200
    assert "Please enter the correct username and password" in response.content.decode()


def test_the_username_may_be_typed_in_any_case(client, learner):
    """Usernames are unique whatever their case, so "ADA" signs ada in."""
    response = sign_in(client, username="ADA")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(learner.pk)
    assert client.get(reverse("progress:home")).wsgi_request.user == learner


def test_a_wrong_password_in_another_case_is_refused_and_counted_as_one_username(client, learner):
    """Failures typed as "ADA", "Ada" and "ada" count against the same username."""
    for username in ("ADA", "Ada", "ada"):
        response = sign_in(client, username=username, password="not the password")
        assert response.status_code == 200
        assert "_auth_user_id" not in client.session
    attempts = AccessAttempt.objects.all()
    assert [(a.username, a.failures_since_start) for a in attempts] == [("ada", 3)]
