import uuid

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone, translation

from progress.models import CodingSession
from tests.factories import CodingSessionFactory, ResourceFactory, UserFactory, WatchEventFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def inline_data(**overrides):
    data = {
        "day": timezone.localdate().isoformat(),
        "minutes": "120",
        "built": "A softmax kernel",
        "code_url": "",
        "idempotency_key": str(uuid.uuid4()),
        "next": "/resources/softmax/",
    }
    return {**data, **overrides}


@pytest.fixture
def resource():
    return ResourceFactory(slug="softmax", title="Softmax", duration_minutes=60)


def test_the_url_takes_a_resource_slug(resource):
    """progress:coding_session_add is reversed with the resource's slug."""
    assert reverse("progress:coding_session_add", args=["softmax"]) == "/resources/softmax/coding/"


def test_a_plain_post_ties_the_session_to_the_resource_and_goes_back(
    learner_client, learner, resource
):
    """Without JavaScript the POST saves, then redirects to the page it came from."""
    url = reverse("progress:coding_session_add", args=[resource.slug])
    response = learner_client.post(url, inline_data())
    assert response.status_code == 302
    assert response.url == "/resources/softmax/"
    assert CodingSession.objects.get(user=learner).resource == resource


def test_a_foreign_next_address_is_ignored(learner_client, resource):
    """An off-site `next` falls back to the coding log."""
    url = reverse("progress:coding_session_add", args=[resource.slug])
    response = learner_client.post(url, inline_data(next="https://evil.example/"))
    assert response.url == reverse("progress:coding_log")


def test_htmx_gets_the_block_and_an_out_of_band_balance(learner_client, learner, resource):
    """With htmx, the answer is the refreshed coding block and the balance swapped out of band."""
    WatchEventFactory(user=learner, resource=resource, minutes=60)
    url = reverse("progress:coding_session_add", args=[resource.slug])
    response = learner_client.post(url, inline_data(), headers={"HX-Request": "true", **EN})
    html = response.content.decode()
    assert 'id="coding-softmax"' in html
    assert "Coding session saved." in html
    assert "2\u00a0h / 3\u00a0h coded" in html
    assert 'id="balance"' in html and 'hx-swap-oob="true"' in html
    assert (
        "You watched 1\u00a0h and coded 2\u00a0h this week: 1\u00a0h more code before the next video."
        in html
    )
    assert "<html" not in html


def test_a_double_htmx_submit_saves_once(learner_client, learner, resource):
    """The same key twice keeps one session."""
    url = reverse("progress:coding_session_add", args=[resource.slug])
    data = inline_data()
    learner_client.post(url, data, headers={"HX-Request": "true"})
    learner_client.post(url, data, headers={"HX-Request": "true"})
    assert CodingSession.objects.filter(user=learner).count() == 1


def test_htmx_bad_input_returns_the_block_with_errors(learner_client, resource):
    """Errors come back in the block, nothing saved."""
    url = reverse("progress:coding_session_add", args=[resource.slug])
    response = learner_client.post(
        url, inline_data(minutes="0"), headers={"HX-Request": "true", **EN}
    )
    html = response.content.decode()
    assert "Enter between 1 and 1440 minutes (24 h)." in html
    assert "<html" not in html
    assert CodingSession.objects.count() == 0


def test_plain_bad_input_shows_a_page_with_the_errors(learner_client, resource):
    """Without JavaScript the errors come on a page of their own that posts again."""
    url = reverse("progress:coding_session_add", args=[resource.slug])
    response = learner_client.post(url, inline_data(built=""), headers=EN)
    html = response.content.decode()
    assert "<html" in html and "This field is required." in html
    assert f'action="{url}"' in html
    assert CodingSession.objects.count() == 0


def test_an_unknown_resource_is_a_404(learner_client):
    """No session for a slug that does not exist."""
    url = reverse("progress:coding_session_add", args=["no-such-thing"])
    assert learner_client.post(url, inline_data()).status_code == 404
    assert CodingSession.objects.count() == 0


def test_get_is_not_allowed(learner_client, resource):
    """Adding is POST only."""
    url = reverse("progress:coding_session_add", args=[resource.slug])
    assert learner_client.get(url).status_code == 405


def render_tags(user, text, **context):
    request = RequestFactory().get("/resources/softmax/")
    request.user = user
    with translation.override("en"):
        return Template("{% load progress_blocks %}" + text).render(
            Context({"request": request, **context})
        )


def test_the_resource_tag_shows_coded_state_sessions_and_the_form(resource):
    """{% resource_coding %} says coded against three times the duration and lists sessions."""
    user = UserFactory()
    WatchEventFactory(user=user, resource=resource, minutes=60)
    CodingSessionFactory(user=user, resource=resource, minutes=90, built="Online softmax")
    html = render_tags(user, "{% resource_coding resource %}", resource=resource)
    assert "1\u00a0h\u00a030 / 3\u00a0h coded" in html
    assert "Online softmax" in html
    assert 'name="idempotency_key"' in html
    assert 'name="resource"' not in html


def test_a_resource_without_coding_sessions_is_not_coded(resource):
    """No session: "Not coded yet"."""
    html = render_tags(UserFactory(), "{% resource_coding resource %}", resource=resource)
    assert "Not coded yet: 3\u00a0h of code to do" in html


def test_the_tags_render_nothing_for_anonymous_visitors(resource):
    """Anonymous visitors get no coding block, balance or note."""
    from django.contrib.auth.models import AnonymousUser

    html = render_tags(
        AnonymousUser(),
        "{% resource_coding resource %}{% balance_panel %}{% resource_note resource %}",
        resource=resource,
    )
    assert html.strip() == ""


def test_a_next_that_is_not_a_path_goes_to_the_coding_log(learner_client, learner, resource):
    """next="0" once made redirect() look for a view named "0" and answer 500."""
    response = learner_client.post(
        reverse("progress:coding_session_add", args=[resource.slug]), inline_data(next="0")
    )
    assert (response.status_code, response.url) == (302, "/coding/")
    assert CodingSession.objects.filter(user=learner).count() == 1
