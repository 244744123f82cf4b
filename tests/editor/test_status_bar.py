"""GET <api_url>/users/current/statusbar/today: what the plugins show in the status bar."""

from datetime import UTC, datetime

import time_machine

from progress import actions
from progress.models import Profile
from tests.editor.conftest import BULK, STATUS_BAR, basic, cli_heartbeat, in_bulks

# Wednesday 2 December 2026, 18:00 UTC: five days left in the week, today included.
WEDNESDAY = datetime(2026, 12, 2, 18, 0, tzinfo=UTC)


@time_machine.travel(WEDNESDAY, tick=False)
def test_it_answers_coded_time_and_the_day_s_target(client, send, editor_key, learner, seed_path):
    """Watched 5 h this week: 15 h owed over five days is 3 h today; 1 h 20 coded."""
    Profile.objects.create(user=learner, language="en")
    for step in seed_path.steps[:3]:
        actions.log_sitting(user=learner, resource=step.resource, minutes=100)
    start = WEDNESDAY.timestamp() - 2 * 3600
    for bulk in in_bulks([cli_heartbeat(start + 60 * minute) for minute in range(0, 81, 2)]):
        send(BULK, bulk)
    response = client.get(STATUS_BAR, headers=basic(editor_key))
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["grand_total"]["text"] == "1 h 20 of 3 h"
    assert data["grand_total"]["total_seconds"] == 80 * 60
    assert (data["grand_total"]["hours"], data["grand_total"]["minutes"]) == (1, 20)
    assert [category["text"] for category in data["categories"]] == ["1 h 20 of 3 h"]
    assert data["range"]["date"] == "2026-12-02"
    assert data["target"]["total_seconds"] == 3 * 3600


@time_machine.travel(WEDNESDAY, tick=False)
def test_it_speaks_the_learner_s_language(client, editor_key, learner):
    Profile.objects.create(user=learner, language="fr")
    response = client.get(STATUS_BAR, headers=basic(editor_key), HTTP_ACCEPT_LANGUAGE="en")
    assert response.json()["data"]["grand_total"]["text"] == "0 min, rien à rattraper aujourd’hui"


def test_it_speaks_the_language_the_learner_s_browser_asked_for(client, editor_key, learner):
    """Interface language left to the browser, which asked for English: the plugin, which sends
    no language of its own, gets English too."""
    Profile.objects.create(user=learner, language="", browser_language="en")
    response = client.get(STATUS_BAR, headers=basic(editor_key))
    assert response.json()["data"]["grand_total"]["text"] == "0 min, nothing owed today"


def test_without_a_valid_key_it_answers_401(client, learner):
    assert client.get(STATUS_BAR, headers=basic("not-a-key")).status_code == 401


def test_post_is_not_allowed(client, editor_key):
    assert client.post(STATUS_BAR, headers=basic(editor_key)).status_code == 405
