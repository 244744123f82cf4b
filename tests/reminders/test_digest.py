"""The digest's content: last week watched and coded, the 1:3 verdict, what is owed, next up, streak."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail

from progress.models import Profile
from reminders.models import Digest
from tests.factories import CodingSessionFactory, WatchEventFactory
from tests.reminders.helpers import run_worker, send_digests

# The worker commits as it goes (and on PostgreSQL closes a connection left in a transaction).
pytestmark = pytest.mark.django_db(transaction=True)

PARIS = ZoneInfo("Europe/Paris")
MONDAY_MORNING = datetime(2026, 1, 19, 9, 0, tzinfo=PARIS)


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = "https://parcours.example"


def profile(learner, **fields):
    Profile.objects.for_learner(learner)
    Profile.objects.filter(user=learner).update(**fields)


@pytest.fixture
def last_week(learner, seed_path):
    """1 h watched on Wednesday, 2 h coded on Saturday and Sunday; two weeks before, more."""
    WatchEventFactory(
        user=learner,
        resource=seed_path.start,
        minutes=60,
        at=datetime(2026, 1, 14, 20, 0, tzinfo=PARIS),
    )
    CodingSessionFactory(user=learner, resource=seed_path.start, day=date(2026, 1, 17), minutes=60)
    CodingSessionFactory(user=learner, resource=seed_path.start, day=date(2026, 1, 18), minutes=60)
    CodingSessionFactory(user=learner, resource=seed_path.start, day=date(2026, 1, 6), minutes=300)


def the_digest():
    with time_machine.travel(MONDAY_MORNING, tick=False):
        send_digests()
        run_worker()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    html = {mimetype: content for content, mimetype in message.alternatives}["text/html"]
    return message, message.body, html


def test_an_english_digest_of_a_week_with_data(learner, subscribed, last_week):
    """Watched 1 h, coded 2 h: 1 h owed; next up is the unfinished start-here talk; a 2-day streak."""
    profile(learner, language="en")
    message, text, html = the_digest()
    assert message.to == [learner.email]
    assert message.subject == "Parcours: your week of 12 January"
    assert "Your week from Monday 12 January to Sunday 18 January:" in text
    assert "- Watched: 1\u00a0h" in text
    assert "- Coded: 2\u00a0h" in text
    assert "The 1:3 rule is not met: 1\u00a0h of code still owed for what you watched." in text
    assert "You watched 1\u00a0h and coded 7\u00a0h in all: the 1:3 rule is met." in text
    assert (
        "Next up: How GPU Computing Works — https://parcours.example/resources/how-gpu-computing-works/"
        in text
    )
    assert "Current streak: 2 days of coding. Longest: 2 days." in text
    assert (
        '<a href="https://parcours.example/resources/how-gpu-computing-works/">How GPU Computing Works</a>'
        in html
    )
    assert "1\u00a0h of code still owed" in html
    assert '<html lang="en">' in html


def test_a_french_digest_of_the_same_week(learner, subscribed, last_week):
    """The learner's language, not the worker's: the same figures, in French."""
    profile(learner, language="fr")
    message, text, html = the_digest()
    assert message.subject == "Parcours : votre semaine du 12 janvier"
    assert "- Regardé : 1\u00a0h" in text
    assert "- Codé : 2\u00a0h" in text
    assert (
        "La règle 1:3 n’est pas tenue : il reste 1\u00a0h de code à faire pour ce que vous avez regardé."
        in text
    )
    assert "Série en cours : 2 jours de code." in text
    assert '<html lang="fr">' in html


def test_a_digest_of_an_empty_week(learner, subscribed, seed_path):
    """Nothing logged: it says so, names the first step and a streak of none."""
    profile(learner, language="en")
    _message, text, html = the_digest()
    assert "Nothing watched or coded: a new week starts now." in text
    assert text.count("- Watched: ") == 1  # this week so far, not last week
    assert "You have not watched anything yet: nothing to balance." in text
    assert "Next up: How GPU Computing Works" in text
    assert "Current streak: 0 days of coding. Longest: 0 days." in text
    assert "Nothing watched or coded" in html


def test_an_empty_french_digest(learner, subscribed, seed_path):
    profile(learner, language="fr")
    _message, text, _html = the_digest()
    assert "Rien de regardé ni de codé : une nouvelle semaine commence." in text


def test_the_week_is_the_learners(learner, subscribed, seed_path):
    """In Tokyo, Sunday 23:30 belongs to last week and Monday 00:30 to this one, whatever Paris says."""
    profile(learner, language="en", time_zone="Asia/Tokyo")
    tokyo = ZoneInfo("Asia/Tokyo")
    WatchEventFactory(
        user=learner,
        resource=seed_path.start,
        minutes=60,
        at=datetime(2026, 1, 19, 0, 30, tzinfo=tokyo),
    )
    WatchEventFactory(
        user=learner,
        resource=seed_path.start,
        minutes=30,
        at=datetime(2026, 1, 18, 23, 30, tzinfo=tokyo),
    )
    with time_machine.travel(datetime(2026, 1, 19, 9, 0, tzinfo=tokyo), tick=False):
        send_digests()
        run_worker()
    assert "- Watched: 30\u00a0min" in mail.outbox[0].body
    assert Digest.objects.get(user=learner).week == date(2026, 1, 19)


def test_the_unsubscribe_headers_follow_rfc_8058(learner, subscribed, seed_path):
    """List-Unsubscribe names the signed HTTPS link; List-Unsubscribe-Post says one click."""
    message, text, html = the_digest()
    header = message.extra_headers["List-Unsubscribe"]
    assert header.startswith("<https://parcours.example/digest/unsubscribe/") and header.endswith(
        "/>"
    )
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    sent = message.message()
    assert sent["List-Unsubscribe"] == header
    assert sent["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert header[1:-1] in text
    assert f'href="{header[1:-1]}"' in html


def test_the_digest_names_next_up_in_the_learners_language(learner, subscribed, seed_path):
    """The step's English title in an English digest, its French one in a French digest."""
    from curriculum.models import Step

    Step.objects.filter(pk=seed_path.steps[0].pk).update(
        title_fr="Le calcul GPU, en une heure", title_en="GPU computing, in one hour"
    )
    profile(learner, language="en")
    _message, text, _html = the_digest()
    assert "Next up: GPU computing, in one hour" in text
    mail.outbox.clear()
    Digest.objects.all().delete()
    profile(learner, language="fr")
    _message, text, _html = the_digest()
    assert "Le calcul GPU, en une heure" in text


# The first weeks: never a week before the account existed (issue 31)


def joined(learner, when):
    learner.date_joined = when
    learner.save(update_fields=["date_joined"])


def test_a_learner_who_signed_up_mid_week_gets_their_first_days_and_this_week(
    learner, subscribed, seed_path
):
    """Signed up on Thursday 15 January: the Monday digest reports from Thursday to Sunday (what
    they did), then this week so far; nothing says a week before that was empty."""
    profile(learner, language="en")
    joined(learner, datetime(2026, 1, 15, 18, 0, tzinfo=PARIS))
    WatchEventFactory(
        user=learner,
        resource=seed_path.start,
        minutes=60,
        at=datetime(2026, 1, 16, 20, 0, tzinfo=PARIS),
    )
    CodingSessionFactory(user=learner, resource=seed_path.start, day=date(2026, 1, 17), minutes=45)
    message, text, html = the_digest()
    assert message.subject == "Parcours: your week of 12 January"
    assert "Your first days, from Thursday 15 January to Sunday 18 January:" in text
    assert "- Watched: 1\u00a0h" in text and "- Coded: 45\u00a0min" in text
    assert "Your week from" not in text and "a new week starts now" not in text
    assert "This week so far, since Monday 19 January:" in text
    assert "Your first days, from Thursday 15 January to Sunday 18 January" in html


def test_a_digest_the_day_of_sign_up_reports_only_the_days_since(learner, subscribed, seed_path):
    """Signed up on Thursday 22 January at 08:00, digest day Thursday: no report of the week of
    12 January (before the account); what was done since sign-up; and the dashboard's advice, code
    first, since 1 h watched and 20 min coded leave 2 h 40 owed."""
    from progress import actions

    profile(learner, language="en")
    subscribed.weekday = 3
    subscribed.save()
    thursday = datetime(2026, 1, 22, 9, 0, tzinfo=PARIS)
    joined(learner, thursday - timedelta(hours=1))
    with time_machine.travel(thursday - timedelta(minutes=30), tick=False):
        actions.mark_watched(user=learner, resource=seed_path.start)
    CodingSessionFactory(user=learner, resource=seed_path.start, day=date(2026, 1, 22), minutes=20)
    with time_machine.travel(thursday, tick=False):
        send_digests()
        run_worker()
    message = mail.outbox[0]
    text = message.body
    html = {mimetype: content for content, mimetype in message.alternatives}["text/html"]
    assert message.subject == "Parcours: your first days"
    assert "12 January" not in text and "Nothing watched or coded" not in text
    assert "Since you signed up on Thursday 22 January:" in text
    assert "- Watched: 1\u00a0h" in text and "- Coded: 20\u00a0min" in text
    assert (
        "Next up: code. 2\u00a0h\u00a040 of code owed before the next video; log it on “How GPU "
        "Computing Works”: https://parcours.example/resources/how-gpu-computing-works/"
    ) in text
    assert "Then: Lecture 3" in text
    assert "Log code for “How GPU Computing Works”" in html


def test_a_first_french_digest(learner, subscribed, seed_path):
    """The same first digest, in French."""
    profile(learner, language="fr")
    joined(learner, datetime(2026, 1, 19, 8, 0, tzinfo=PARIS))
    message, text, _html = the_digest()
    assert message.subject == "Parcours : vos premiers jours"
    assert "Depuis votre inscription le lundi 19 janvier :" in text
