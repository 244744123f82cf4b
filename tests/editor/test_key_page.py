"""/settings/editor/: create the editor key, shown once in the ~/.wakatime.cfg block; revoke it."""

import re

from django.utils import timezone
from django.utils.formats import date_format

from editor.models import EditorKey
from tests.editor.conftest import BULK, basic, cli_heartbeat

URL = "/settings/editor/"
EN = {"accept-language": "en"}


def cfg_block(response):
    match = re.search(
        r'<pre class="token-command" id="wakatime-cfg"><code>(.*?)</code>',
        response.content.decode(),
        re.S,
    )
    return match.group(1) if match else None


def test_creating_a_key_shows_the_cfg_block_once(learner_client, learner, client, now):
    response = learner_client.post(URL, headers=EN)
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    block = cfg_block(response)
    key = re.search(r"api_key = (\S+)", block).group(1)
    assert block == f"[settings]\napi_url = http://testserver/editor/v1\napi_key = {key}\n"
    assert "http://testserver/editor/v1/users/current/heartbeats.bulk" in response.content.decode()
    assert cfg_block(learner_client.get(URL, headers=EN)) is None
    beat = [cli_heartbeat(now)]
    assert (
        client.post(BULK, beat, content_type="application/json", headers=basic(key)).status_code
        == 201
    )


def test_revoking_the_key_stops_the_editor(learner_client, learner, editor_key, client, now):
    response = learner_client.post(f"{URL}revoke/", headers=EN)
    assert response.status_code == 302
    assert not EditorKey.objects.filter(user=learner).exists()
    beat = [cli_heartbeat(now)]
    assert (
        client.post(
            BULK, beat, content_type="application/json", headers=basic(editor_key)
        ).status_code
        == 401
    )


def test_the_page_says_when_the_key_was_used(learner_client, editor_key, send, now):
    send(BULK, [cli_heartbeat(now)])
    html = learner_client.get(URL, headers=EN).content.decode()
    assert "last used" in html and "Revoke the editor key" in html


def test_the_settings_page_links_to_it(learner_client):
    assert URL in learner_client.get("/settings/", headers=EN).content.decode()


def test_the_key_reads_as_feminine_in_french_and_its_dates_in_words(learner_client):
    """La clé: "Copiez-la", "Créée le 5 décembre 2026", "jamais utilisée", never the masculine
    the access tokens' page uses, nor a date in figures."""
    created = learner_client.post(URL, headers={"accept-language": "fr"}).content.decode()
    assert "Copiez-la maintenant : elle n’est affichée qu’une fois." in created
    page = learner_client.get(URL, headers={"accept-language": "fr"}).content.decode()
    day = date_format(timezone.localdate(), "j F Y")
    assert f"Créée le {day}" in page
    assert "jamais utilisée" in page
    assert "Créé le" not in page and "jamais utilisé<" not in page
    assert not re.search(r"\d\d/\d\d/\d{4}", page)
