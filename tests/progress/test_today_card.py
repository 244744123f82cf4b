"""The today card at the top of the dashboard, and its one tap that logs 30, 60 or 90 minutes."""

import json
import re
import uuid
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from progress import actions
from progress.models import CodingSession
from tests.factories import CodingSessionFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true", "accept-language": "en"}
# What htmx sends with a tap on the dashboard's today card.
AS_HTMX_SENDS_IT = HTMX | {"HX-Target": "today", "HX-Current-URL": "http://testserver/"}
NBSP = "\N{NO-BREAK SPACE}"
# Wednesday 18 November 2026, 15:00 in Paris (the site's zone): five days left in the week.
NOW = datetime(2026, 11, 18, 15, 0, tzinfo=ZoneInfo("Europe/Paris"))
WEDNESDAY = date(2026, 11, 18)

travel = time_machine.travel(NOW, tick=False)


def card_html(client):
    html = client.get("/", headers=EN).content.decode()
    match = re.search(r'<section id="today".*?</section>', html, re.S)
    assert match, "no today card"
    return match.group(0)


def card(client):
    """The card's words as read, one space between them."""
    return words(card_html(client))


def words(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace(NBSP, " ").split()).replace(" :", ":")


def log_url(resource):
    return f"/resources/{resource.slug}/coded-today/"


def tap(client, resource, minutes=30, key=None, headers=EN):
    data = {"minutes": minutes, "idempotency_key": key or uuid.uuid4()}
    return client.post(log_url(resource), data, headers=headers)


@travel
def test_day_one_says_what_to_watch_first_and_owes_no_code(learner_client, seed_path):
    """Nothing watched: no hours of code to do, no one-tap form; the start-here talk comes first."""
    html = card_html(learner_client)
    text = words(html)
    assert "Nothing to code yet: start with “How GPU Computing Works”" in text
    assert "of code today" not in text and "coded-today" not in html
    assert "streak" not in text


@travel
def test_day_one_leads_to_the_first_step_with_its_length(learner_client, seed_path):
    """The card is not one sentence on day one: it links to the first step's page, with its
    length, in each language."""
    html = card_html(learner_client)
    page = f"/resources/{seed_path.start.slug}/"
    assert re.search(rf'First step: <a href="{page}">How GPU Computing Works</a>', html)
    assert "First step: How GPU Computing Works · 1 h" in words(html)
    french = learner_client.get("/", headers={"accept-language": "fr"}).content.decode()
    assert "Première étape :" in french


@travel
def test_after_watching_the_card_sets_the_days_target_and_offers_one_tap(
    learner, learner_client, seed_path
):
    """1 h watched on Wednesday owes 3 h over five days: 40 min today, logged on that talk."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    text = card(learner_client)
    assert "40 min of code today keeps you at one hour of video for three hours of code." in text
    assert "Coded today: 0 min of 40 min" in text
    assert "This week owes 3 h of code, spread over the 5 days left." in text
    assert "I coded on “How GPU Computing Works”: 30 min 1 h 1 h 30" in text
    assert f'action="{log_url(seed_path.start)}"' in card_html(learner_client)
    assert "Code today to start a streak." in text
    assert "Next step: Lecture 3" in text


@travel
def test_one_tap_logs_the_minutes_today_and_returns_to_the_card(learner, learner_client, seed_path):
    """Without JavaScript: a session of 60 min today on the practised resource, back on #today."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    response = tap(learner_client, seed_path.start, 60)
    assert response.status_code == 302 and response.url == "/#today"
    text = card(learner_client)
    assert "Today’s 40 min of code are done (1 h coded)." in text
    assert "1-day coding streak, today included." in text
    session = CodingSession.objects.get(user=learner)
    assert (session.day, session.minutes, session.resource) == (WEDNESDAY, 60, seed_path.start)
    assert "How GPU Computing Works" in session.built


@travel
def test_the_htmx_tap_answers_the_card_alone_and_names_the_change(
    learner, learner_client, seed_path
):
    """With htmx: the new card and its status, focus on the status, and nothing else; the
    event coding-changed tells the dashboard, which refreshes its other blocks."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    response = tap(learner_client, seed_path.start, 30, headers=AS_HTMX_SENDS_IT)
    html = response.content.decode().replace(NBSP, " ")
    assert response.status_code == 200
    assert html.strip().startswith('<section id="today"') and html.strip().endswith("</section>")
    assert html.count("<section") == 1 and "hx-swap-oob" not in html
    assert "30 min of code logged on “How GPU Computing Works”." in html
    assert 'id="today-status" tabindex="-1" autofocus' in html
    assert "Coded today: 30 min of 40 min" in html
    assert json.loads(response.headers["HX-Trigger"]) == {
        "coding-changed": {
            "resource": seed_path.start.slug,
            "announcement": f"30{NBSP}min of code logged on “How GPU Computing Works”.",
        }
    }
    assert CodingSession.objects.filter(user=learner, minutes=30).count() == 1


@travel
def test_after_a_tap_the_dashboards_refresh_moves_its_other_blocks(
    learner, learner_client, seed_path
):
    """The refresh the event asks for (?changed=<slug>): the practised resource's tile, next up
    and the balance out of band, their forms coming back to the page they are on."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    tap(
        learner_client,
        seed_path.start,
        30,
        headers=AS_HTMX_SENDS_IT | {"HX-Current-URL": "http://testserver/path/"},
    )
    html = (
        learner_client.get("/path/", {"changed": seed_path.start.slug}, headers=HTMX)
        .content.decode()
        .replace(NBSP, " ")
    )
    step = seed_path.steps[0].pk
    assert f'id="step-{step}" hx-swap-oob="true"' in html
    assert f'<input type="hidden" name="next" value="/path/#step-{step}">' in html
    assert '<details id="balance" class="balance card balance--folded" hx-swap-oob="true">' in html
    assert "You watched 1 h and coded 30 min this week" in html
    assert 'id="next-up" hx-swap-oob="true"' in html


@travel
def test_a_double_tap_logs_once(learner, learner_client, seed_path):
    """The same card key twice (a double tap, a resent form): one session."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    key = uuid.uuid4()
    tap(learner_client, seed_path.start, 30, key)
    response = tap(learner_client, seed_path.start, 30, key, headers=HTMX)
    assert "These minutes were already logged." in response.content.decode()
    assert CodingSession.objects.filter(user=learner).count() == 1


@pytest.mark.parametrize(
    ("minutes", "key", "error"),
    [
        (45, None, "Choose 30, 60 or 90 minutes."),
        (-30, None, "Choose 30, 60 or 90 minutes."),
        ("", None, "This field is required."),
        (30, "not-a-key", "This form was altered or is out of date"),
    ],
)
@travel
def test_bad_input_says_why_and_writes_nothing(
    learner, learner_client, seed_path, minutes, key, error
):
    """Another length, no length or an altered key: a 422 card with the error, no session."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    response = tap(learner_client, seed_path.start, minutes, key, headers=AS_HTMX_SENDS_IT)
    assert response.status_code == 422
    assert error in response.content.decode()
    assert "HX-Trigger" not in response.headers, "nothing changed"
    plain = tap(learner_client, seed_path.start, minutes, key)
    assert plain.status_code == 302
    assert error in learner_client.get("/", headers=EN).content.decode()
    assert not CodingSession.objects.exists()


def test_the_tap_needs_a_signed_in_learner_a_post_and_a_known_resource(client, learner, seed_path):
    """Signed out: to the sign-in page; GET: 405; an unknown resource: 404; nothing written."""
    assert tap(client, seed_path.start).url.startswith("/accounts/login/")
    client.force_login(learner)
    assert client.get(log_url(seed_path.start)).status_code == 405
    assert client.post("/resources/nothing-here/coded-today/", {"minutes": 30}).status_code == 404
    assert not CodingSession.objects.exists()


@travel
def test_a_streak_through_yesterday_asks_to_code_today(learner, learner_client, seed_path):
    """Coded the three days before today: a 3-day streak that today's code keeps."""
    for days_ago in (1, 2, 3):
        CodingSessionFactory(user=learner, day=WEDNESDAY - timedelta(days=days_ago), minutes=30)
    assert "3-day coding streak: code today to keep it." in card(learner_client)


@travel
def test_the_card_follows_a_mark_watched_on_the_path(learner, learner_client, seed_path):
    """Marking the start-here talk watched with htmx: the page's refresh updates the card out of
    band."""
    learner_client.post(
        f"/resources/{seed_path.start.slug}/watched/",
        headers=HTMX | {"HX-Target": "start-here-watch"},
    )
    response = learner_client.get("/", {"changed": seed_path.start.slug}, headers=HTMX)
    html = response.content.decode().replace(NBSP, " ")
    assert (
        '<section id="today" class="card today" aria-labelledby="today-title" hx-swap-oob="true">'
        in (html)
    )
    assert "40 min of code today" in html


@travel
def test_the_card_speaks_french(learner, learner_client, seed_path):
    """The card's words are translated."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    html = learner_client.get("/", headers={"accept-language": "fr"}).content.decode()
    assert "Aujourd’hui" in html
    assert "40\N{NO-BREAK SPACE}min de code aujourd’hui" in html
