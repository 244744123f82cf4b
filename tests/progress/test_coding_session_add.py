import json
import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

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


def test_htmx_gets_the_block_alone_and_the_change_named(learner_client, learner, resource):
    """With htmx, the answer is the refreshed coding block and nothing else; the event
    coding-changed tells the page, whose refresh brings the balance."""
    WatchEventFactory(user=learner, resource=resource, minutes=60)
    url = reverse("progress:coding_session_add", args=[resource.slug])
    headers = {
        "HX-Request": "true",
        "HX-Target": "coding-softmax",
        "HX-Current-URL": "http://testserver/resources/softmax/",
        **EN,
    }
    response = learner_client.post(url, inline_data(), headers=headers)
    html = response.content.decode()
    assert html.strip().startswith('<section id="coding-softmax"')
    assert html.strip().endswith("</section>") and html.count("<section") == 1
    assert "Coding session saved." in html
    assert "2\u00a0h / 3\u00a0h coded" in html
    assert "hx-swap-oob" not in html and 'id="balance"' not in html
    assert json.loads(response.headers["HX-Trigger"]) == {
        "coding-changed": {"resource": "softmax", "announcement": "Coding session saved."}
    }
    refresh = learner_client.get(
        "/resources/softmax/", {"changed": "softmax"}, headers={"HX-Request": "true", **EN}
    ).content.decode()
    assert (
        'id="balance" class="balance card" aria-labelledby="balance-title" hx-swap-oob="true"'
        in refresh
    )
    assert (
        "You watched 1\u00a0h and coded 2\u00a0h this week: 1\u00a0h more code before the next video."
        in refresh
    )
    assert "<html" not in html


def test_a_refused_htmx_post_names_nothing(learner_client, resource):
    """Nothing saved: the block with the errors, no event."""
    url = reverse("progress:coding_session_add", args=[resource.slug])
    data = inline_data(minutes="")
    response = learner_client.post(url, data, headers={"HX-Request": "true", **EN})
    assert 'id="coding-softmax"' in response.content.decode()
    assert "HX-Trigger" not in response.headers
    assert not CodingSession.objects.exists()


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


def resource_page(client, resource):
    return client.get(f"/resources/{resource.slug}/", headers=EN).content.decode()


def test_the_resource_page_shows_coded_state_sessions_and_the_form(client, resource):
    """The coding block says coded against three times the duration and lists sessions."""
    user = UserFactory()
    WatchEventFactory(user=user, resource=resource, minutes=60)
    CodingSessionFactory(user=user, resource=resource, minutes=90, built="Online softmax")
    client.force_login(user)
    html = resource_page(client, resource)
    assert "1\u00a0h\u00a030 / 3\u00a0h coded" in html
    assert "Online softmax" in html
    assert 'name="idempotency_key"' in html
    assert 'name="resource"' not in html


def test_a_resource_without_coding_sessions_is_not_coded(client, resource):
    """No session: "Not coded yet"."""
    client.force_login(UserFactory())
    assert "Not coded yet: 3\u00a0h of code to do" in resource_page(client, resource)


def test_the_page_shows_the_five_latest_sessions_of_the_resource_only(client, resource):
    """Five sessions, newest first; another resource's sessions are not listed."""
    user = UserFactory()
    today = timezone.localdate()
    for days in range(7):
        CodingSessionFactory(
            user=user, resource=resource, day=today - timedelta(days=days), built=f"take {days}"
        )
    CodingSessionFactory(user=user, built="elsewhere")
    client.force_login(user)
    html = resource_page(client, resource)
    shown = [f"take {days}" for days in range(7) if f"take {days}<" in html]
    assert shown == [f"take {days}" for days in range(5)]
    assert html.index("take 0<") < html.index("take 4<")
    assert "elsewhere" not in html


def test_the_page_has_no_coding_block_balance_or_note_for_visitors(client, resource):
    """Anonymous visitors get no coding block, balance or note."""
    html = resource_page(client, resource)
    assert 'id="coding-softmax"' not in html
    assert 'id="balance"' not in html and 'id="note-softmax"' not in html


def test_a_next_that_is_not_a_path_goes_to_the_coding_log(learner_client, learner, resource):
    """next="0" once made redirect() look for a view named "0" and answer 500."""
    response = learner_client.post(
        reverse("progress:coding_session_add", args=[resource.slug]), inline_data(next="0")
    )
    assert (response.status_code, response.url) == (302, "/coding/")
    assert CodingSession.objects.filter(user=learner).count() == 1
