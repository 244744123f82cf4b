"""/settings/tokens/: a learner creates a token, sees it once, lists and revokes their own."""

import pytest

from api.models import MAX_TOKENS_PER_LEARNER, AccessToken
from lib.tokens import digest

pytestmark = pytest.mark.django_db


def create(client, **fields):
    return client.post(
        "/settings/tokens/", {"name": "laptop", "scope": "write", "expires_in": "90", **fields}
    )


def test_the_settings_page_links_to_the_tokens(learner_client):
    assert b'href="/settings/tokens/"' in learner_client.get("/settings/").content


def test_creating_a_token_shows_it_once_and_stores_its_hash(learner_client, learner):
    response = create(learner_client)
    assert response.status_code == 200
    clear = response.context["page"].created.clear
    assert clear.encode() in response.content
    assert response["Cache-Control"] == "no-store"
    token = AccessToken.objects.get()
    assert (token.user, token.name, token.scope) == (learner, "laptop", "write")
    assert token.token_hash == digest(clear)
    assert token.expires_at is not None
    assert clear.encode() not in learner_client.get("/settings/tokens/").content


def test_the_created_token_calls_the_api(client, learner_client):
    clear = create(learner_client).context["page"].created.clear
    client.logout()
    response = client.get("/api/v1/me", headers={"Authorization": f"Bearer {clear}"})
    assert response.json()["username"] == "ada"


def test_a_token_may_never_expire(learner_client):
    create(learner_client, expires_in="", scope="read")
    assert AccessToken.objects.get().expires_at is None


@pytest.mark.parametrize(
    ("fields", "field"),
    [({"name": ""}, "name"), ({"scope": "admin"}, "scope"), ({"expires_in": "7"}, "expires_in")],
)
def test_bad_input_creates_no_token(learner_client, fields, field):
    response = create(learner_client, **fields)
    assert response.status_code == 400
    assert set(response.context["page"].form.errors) == {field}
    assert f'id="token_{field}_error"' in response.content.decode()
    assert not AccessToken.objects.exists()


def test_revoking_a_token_stops_it(client, learner_client, learner):
    token, clear = AccessToken.objects.create_for(user=learner, name="old", scope="write")
    response = learner_client.post(f"/settings/tokens/{token.pk}/revoke/")
    assert response.status_code == 302
    token.refresh_from_db()
    assert token.is_revoked
    client.logout()
    assert client.get("/api/v1/me", headers={"Authorization": f"Bearer {clear}"}).status_code == 401


def test_another_learners_token_cannot_be_revoked(learner_client, other_learner):
    token, _clear = AccessToken.objects.create_for(user=other_learner, name="theirs", scope="read")
    assert learner_client.post(f"/settings/tokens/{token.pk}/revoke/").status_code == 404
    token.refresh_from_db()
    assert not token.is_revoked


def test_the_page_lists_only_the_learners_tokens(learner_client, learner, other_learner):
    AccessToken.objects.create_for(user=learner, name="mine", scope="read")
    AccessToken.objects.create_for(user=other_learner, name="theirs", scope="read")
    content = learner_client.get("/settings/tokens/").content.decode()
    assert "mine" in content
    assert "theirs" not in content


def test_the_page_speaks_english_too(learner_client):
    response = learner_client.get("/settings/tokens/", headers={"Accept-Language": "en"})
    assert "Personal access tokens" in response.content.decode()
    french = learner_client.get("/settings/tokens/", headers={"Accept-Language": "fr"})
    assert "Jetons d\u2019accès personnels" in french.content.decode()


def test_past_the_cap_a_learner_creates_no_token_and_reads_why(learner_client, learner):
    """Each token has its own rate budget: making tokens must not multiply it without end."""
    for n in range(MAX_TOKENS_PER_LEARNER):
        AccessToken.objects.create_for(user=learner, name=f"machine {n}", scope="read")
    response = learner_client.post(
        "/settings/tokens/",
        {"name": "one more", "scope": "write", "expires_in": "90"},
        headers={"accept-language": "en"},
    )
    assert response.status_code == 400
    assert f"You have {MAX_TOKENS_PER_LEARNER} usable tokens" in response.content.decode()
    assert AccessToken.objects.count() == MAX_TOKENS_PER_LEARNER


def test_a_revoked_token_no_longer_counts_toward_the_cap(learner_client, learner):
    for n in range(MAX_TOKENS_PER_LEARNER):
        AccessToken.objects.create_for(user=learner, name=f"machine {n}", scope="read")
    AccessToken.objects.first().revoke()
    response = create(learner_client)
    assert response.status_code == 200
    assert AccessToken.objects.usable().count() == MAX_TOKENS_PER_LEARNER
