import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from accounts.forms import SignUpForm
from progress.models import Profile
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()
EN = {"accept-language": "en"}


def sign_up(client, **fields):
    data = {
        "username": "lin",
        "email": "lin@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **fields,
    }
    return client.post(reverse("signup"), data, headers=EN)


def test_the_sign_up_page_shows_its_form_without_queries(client, django_assert_num_queries):
    """The sign-up page asks for a username, an e-mail and the password twice, touching no table."""
    with django_assert_num_queries(0):
        response = client.get(reverse("signup"), headers=EN)
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("username", "email", "password1", "password2"):
        assert f'name="{name}"' in html
    assert '<label for="id_email">E-mail address:</label>' in html


def test_the_sign_up_page_speaks_french_by_default(client):
    """Without an English browser, Django's own labels on the form are in French."""
    html = client.get(reverse("signup")).content.decode()
    assert "Nom d’utilisateur" in html
    assert "Confirmation du mot de passe" in html


def test_signing_up_signs_the_learner_in_and_welcomes_them_home(client):
    """A new account is created with its profile (GPU unknown, week 1 starts today), signed in,
    and lands on home with a welcome message."""
    response = sign_up(client)
    assert response.status_code == 302
    assert response.url == reverse("progress:home")
    user = User.objects.get(username="lin")
    assert user.email == "lin@example.com"
    assert user.check_password(PASSWORD)
    assert client.session["_auth_user_id"] == str(user.pk)
    profile = Profile.objects.get(user=user)
    assert profile.architecture is None
    assert profile.started_on == timezone.localdate()
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Welcome to Parcours, lin!"]

    home = client.get(reverse("progress:home"), headers=EN).content.decode()
    assert "Welcome to Parcours, lin!" in home
    assert '<span class="nav__user">lin</span>' in home


def test_a_username_taken_in_another_case_is_refused(client, learner):
    """ "ADA" cannot sign up when "ada" exists: a clear error, no second account, nobody signed in."""
    response = sign_up(client, username="ADA")
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


def test_a_taken_username_is_refused_in_french_as_a_username(client, learner):
    """The French error names the username, not the e-mail address."""
    data = {
        "username": "ADA",
        "email": "lin@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    response = client.post(reverse("signup"), data, headers={"accept-language": "fr"})
    assert "Un compte utilise déjà ce nom d’utilisateur." in response.content.decode()
    assert User.objects.count() == 1


def test_an_email_taken_in_another_case_is_refused(client, learner):
    """An e-mail address already in use, whatever its case, is refused with a clear error."""
    response = sign_up(client, email="ADA@Example.COM")
    assert response.status_code == 200
    assert "An account with this e-mail address already exists." in response.content.decode()
    assert User.objects.count() == 1


def test_a_weak_password_is_refused(client):
    """Django's password validators apply: a common, numeric password is refused."""
    response = sign_up(client, password1="12345678", password2="12345678")
    html = response.content.decode()
    assert "This password is too common." in html
    assert "This password is entirely numeric." in html
    assert not User.objects.exists()


def test_mismatched_passwords_are_refused(client):
    """The two passwords must match."""
    response = sign_up(client, password2=PASSWORD + "!")
    assert "The two password fields didn’t match." in response.content.decode()
    assert not User.objects.exists()


def test_empty_fields_are_each_required(client):
    """An empty form gets one "required" error per field and creates nothing."""
    response = client.post(reverse("signup"), {}, headers=EN)
    assert response.status_code == 200
    assert response.content.decode().count("This field is required.") == 4
    assert not User.objects.exists()


def test_a_10000_character_username_gets_a_length_error(client):
    """A huge username is refused with the 150-character limit, not a database error."""
    response = sign_up(client, username="a" * 10_000)
    assert response.status_code == 200
    assert (
        "Ensure this value has at most 150 characters (it has 10000)." in response.content.decode()
    )
    assert not User.objects.exists()


def test_an_email_with_a_non_ascii_local_part_is_refused(client):
    """Django's e-mail rules refuse accented letters before the @ with a clear error."""
    response = sign_up(client, email="élève@example.com")
    assert response.status_code == 200
    assert "Enter a valid email address." in response.content.decode()
    assert not User.objects.exists()


def test_an_email_with_an_internationalised_domain_is_accepted(client):
    """Accented domain names are valid e-mail domains and are kept as typed."""
    response = sign_up(client, email="lin@bücher.de")
    assert response.status_code == 302
    assert User.objects.get(username="lin").email == "lin@bücher.de"


def test_next_to_another_host_is_ignored(client):
    """A `next` pointing at another site sends the new learner home instead."""
    response = sign_up(client, next="https://elsewhere.example/steal")
    assert response.status_code == 302
    assert response.url == reverse("progress:home")


def test_next_on_this_site_is_followed(client):
    """A `next` on this site is where the new learner lands."""
    response = sign_up(client, next=reverse("password_change"))
    assert response.url == reverse("password_change")


def test_a_signed_in_learner_is_sent_home_from_sign_up(learner_client):
    """Someone already signed in has no use for the sign-up form."""
    response = learner_client.get(reverse("signup"))
    assert response.status_code == 302
    assert response.url == reverse("progress:home")


def test_a_race_for_the_same_username_gets_a_message_not_an_error(client, learner, monkeypatch):
    """If the form's check is passed by a concurrent sign-up, the database refuses and we say so."""
    monkeypatch.setattr(SignUpForm, "clean_username", lambda form: form.cleaned_data["username"])
    response = sign_up(client, username="Ada")
    assert response.status_code == 200
    assert "This username or e-mail address was just taken." in response.content.decode()
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


def test_the_database_refuses_usernames_and_emails_differing_only_in_case(learner):
    """The unique indexes on lower(username) and lower(email) hold without any form."""
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("ADA", "someone@example.com")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("someone", "Ada@EXAMPLE.com")


def test_the_database_allows_many_users_without_an_email(db):
    """Blank e-mails (createsuperuser allows them) are not duplicates of each other."""
    User.objects.create_user("first", "")
    User.objects.create_user("second", "")
    assert User.objects.filter(email="").count() == 2
