"""A learner's share link: opt in, a public read-only page with nothing private, revoke, renew."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from groups.models import ShareLink
from lib.tokens import digest
from progress import actions as progress_actions
from tests.factories import ArchitectureStepFactory, CodingSessionFactory, NoteFactory

pytestmark = pytest.mark.django_db

SETTINGS = reverse("groups:share_settings")


def turn_on(client, name="Ada the learner"):
    response = client.post(SETTINGS, {"display_name": name})
    assert response.status_code == 200
    return re.search(r'value="http://testserver(/share/[^"]+/)"', response.content.decode()).group(
        1
    )


def test_sharing_is_off_until_the_learner_turns_it_on(client_of, learner):
    page = client_of(learner).get(SETTINGS)
    assert page.status_code == 200
    assert not page.context["page"].sharing
    assert not ShareLink.objects.exists()


def test_the_settings_page_leads_to_sharing(client_of, learner):
    assert SETTINGS in client_of(learner).get(reverse("accounts:settings")).content.decode()


def test_the_shared_page_shows_progress_and_nothing_private(client_of, learner, small_path):
    """Signed out: the chosen name, steps, totals and the heatmap; no username, e-mail, note or code."""
    progress_actions.mark_watched(user=learner, resource=small_path.lectures[0])
    CodingSessionFactory(
        user=learner, resource=small_path.lectures[0], minutes=90, built="secret kernel"
    )
    NoteFactory(user=learner, resource=small_path.lectures[0], text="my private note")
    url = turn_on(client_of(learner))
    response = Client().get(url)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Ada the learner" in body
    assert response.context["progress"].steps_done == 1
    assert 'class="heatmap"' in body
    assert '<meta name="robots" content="noindex, nofollow">' in body
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    for private in ("ada@example.com", "my private note", "secret kernel", ">ada<"):
        assert private not in body


def test_the_token_is_stored_as_a_digest(client_of, learner):
    url = turn_on(client_of(learner))
    token = url.rstrip("/").rsplit("/", 1)[-1]
    assert ShareLink.objects.get().token_hash == digest(token) != token


def test_a_new_link_ends_the_previous_one(client_of, learner):
    client = client_of(learner)
    first = turn_on(client)
    second = turn_on(client, name="Ada again")
    assert Client().get(first).status_code == 404
    assert Client().get(second).status_code == 200
    assert ShareLink.objects.get().display_name == "Ada again"


def test_revoking_the_link_ends_it(client_of, learner):
    client = client_of(learner)
    url = turn_on(client)
    response = client.post(reverse("groups:stop_sharing"))
    assert response.status_code == 302
    assert Client().get(url).status_code == 404
    assert not ShareLink.objects.exists()


def test_a_deactivated_learners_page_is_a_404(client_of, learner):
    """A closed account's progress stops being public, link or not."""
    url = turn_on(client_of(learner))
    learner.is_active = False
    learner.save(update_fields=["is_active"])
    assert Client().get(url).status_code == 404


def test_an_unknown_token_is_a_404(db):
    assert Client().get(reverse("groups:shared", args=["guess"])).status_code == 404


def test_a_name_is_needed(client_of, learner):
    response = client_of(learner).post(SETTINGS, {"display_name": ""})
    assert response.status_code == 400
    assert not ShareLink.objects.exists()


def test_the_shared_page_takes_a_fixed_number_of_queries(
    client_of, learner, small_path, django_assert_max_num_queries
):
    url = turn_on(client_of(learner))
    client = Client()
    client.get(url)
    with django_assert_max_num_queries(14):
        assert client.get(url).status_code == 200


def test_a_visitor_of_a_shared_page_is_invited_to_start_their_own_path(client_of, learner):
    """The public page ends on "Commencer mon parcours" (sign up) and a look at the path."""
    path = turn_on(client_of(learner))
    html = Client().get(path).content.decode()
    assert "Suivre le même parcours" in html
    assert f'<a class="button" href="{reverse("signup")}">Commencer mon parcours</a>' in html
    assert f'href="{reverse("progress:path")}"' in html


def test_a_visitor_reads_the_learners_card_not_theirs_and_lengths_as_everywhere(
    client_of, learner, small_path
):
    """The path's "architecture session of your card" step speaks of the learner's card to a
    visitor; the totals read "1 h 30", not hours to a tenth."""
    ArchitectureStepFactory(
        stage=small_path.path.stages.first(),
        order=9,
        title="GTC : la session d'architecture de votre carte",
        title_en="GTC: the architecture session of your card",
    )
    CodingSessionFactory(user=learner, resource=small_path.lectures[0], minutes=90)
    url = turn_on(client_of(learner))
    english = Client().get(url, headers={"accept-language": "en"}).content.decode()
    french = Client().get(url, headers={"accept-language": "fr"}).content.decode()
    assert "The architecture session of Ada the learner’s card" in english
    assert "your card" not in english and "votre carte" not in french
    assert "La session d’architecture de la carte de Ada the learner" in french
    assert "<dt>Time coded</dt><dd>1\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}30</dd>" in english
