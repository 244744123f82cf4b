"""The history page, /history/: the learner's days newest first, what each holds, the videos to
continue, its pages, and its cost whatever the history's length."""

import datetime
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from progress import actions
from progress.models import CodingSession, Watch
from progress.timeline import DAYS_PER_PAGE
from tests.factories import (
    CodingSessionFactory,
    ExerciseFactory,
    ProfileFactory,
    ResourceFactory,
    SubmissionFactory,
    ViewingFactory,
    WatchEventFactory,
)

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def history(client, query="", headers=EN):
    response = client.get(f"/history/{query}", headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def days_of(html):
    return re.findall(r'<section class="history-day" aria-labelledby="day-([\d-]+)">', html)


def day_html(html, day):
    match = re.search(rf'aria-labelledby="day-{day.isoformat()}">(.*?)</section>', html, re.S)
    assert match, f"{day} not on the page"
    return match.group(1)


def an_event_on(learner, resource, day, kind="sitting", minutes=30, hour=12):
    at = timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))
    return WatchEventFactory(user=learner, resource=resource, kind=kind, minutes=minutes, at=at)


def test_a_newcomer_is_told_what_will_appear(learner_client, seed_path):
    html = history(learner_client)
    assert "Nothing yet: what you watch and code appears here, day by day." in html
    assert "Continue watching" not in html
    assert '<a href="/history/" aria-current="page">History</a>' in html


def test_each_thing_done_appears_under_its_day_newest_first(learner, learner_client, seed_path):
    """A sitting, a finish, a skip, code and exercises: each on its day's list with its minutes."""
    today = timezone.localdate()
    yesterday = today - datetime.timedelta(days=1)
    an_event_on(learner, seed_path.course, yesterday, minutes=45, hour=9)
    actions.mark_watched(user=learner, resource=seed_path.start)
    actions.skip(user=learner, resource=seed_path.lectures[0])
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=90, built="A scan")
    CodingSessionFactory(user=learner, resource=seed_path.course, day=yesterday, minutes=60)
    exercise = ExerciseFactory(slug="vector-add", title_en="Vector add", resource=seed_path.start)
    SubmissionFactory(learner=learner, exercise=exercise, verdict="failed")
    SubmissionFactory(learner=learner, exercise=exercise, verdict="passed")
    html = history(learner_client)
    assert days_of(html) == [today.isoformat(), yesterday.isoformat()]
    now = day_html(html, today)
    assert "Today, " in html and "Yesterday, " in html
    for line in (
        "Marked watched</span>\n  "
        '<a href="/resources/how-gpu-computing-works/">How GPU Computing Works</a>',
        'Skipped: already known</span>\n  <a href="/resources/gpu-mode-3/">Lecture 3</a>',
        "Coded</span>\n  "
        '<a href="/resources/how-gpu-computing-works/">How GPU Computing Works</a> · 1\u00a0h\u00a030 '
        '<span class="muted">· A scan</span>',
        'Exercise passed</span>\n  <a href="/practice/vector-add/">Vector add</a>',
        "Exercise submitted</span>\n  "
        '<a href="/practice/vector-add/">Vector add</a> <span class="muted">· failed</span>',
    ):
        assert line in now
    before = day_html(html, yesterday)
    assert (
        'Sitting logged</span>\n  <a href="/resources/freecodecamp/">CUDA course</a> · 45\u00a0min'
        in before
    )
    assert "1\u00a0h" in before and "Coded" in before
    assert "Lecture 3" not in before


def test_what_the_player_recorded_says_so(learner, learner_client, seed_path):
    """A sitting the player made is "played on its page", with its minutes."""
    sitting = WatchEventFactory(user=learner, resource=seed_path.later, minutes=12)
    ViewingFactory(user=learner, resource=seed_path.later, sitting=sitting)
    html = history(learner_client)
    assert (
        'Played on its page</span>\n  <a href="/resources/gpu-mode-8/">Lecture 8</a> · 12\u00a0min'
        in html
    )
    assert "Sitting logged" not in html


def test_continue_watching_lists_every_video_begun_with_its_resume_point(
    learner, learner_client, seed_path
):
    """Begun, neither finished nor skipped: at the top, linked to the player a few seconds early;
    watched or skipped ones are not there."""
    video = ResourceFactory(
        slug="gpu-mode-9",
        title="Lecture 9",
        duration_minutes=90,
        watch_url="https://www.youtube.com/watch?v=abcdefghijk",
    )
    actions.log_sitting(user=learner, resource=video, minutes=20)
    Watch.objects.filter(user=learner, resource=video).update(resume_seconds=649)
    actions.log_sitting(user=learner, resource=seed_path.course, minutes=30)
    actions.log_sitting(user=learner, resource=seed_path.lectures[0], minutes=5)
    actions.skip(user=learner, resource=seed_path.lectures[0])
    actions.log_sitting(user=learner, resource=seed_path.lectures[1], minutes=5)
    actions.mark_watched(user=learner, resource=seed_path.lectures[1])
    html = history(learner_client)
    block = re.search(r'<section class="card continue".*?</section>', html, re.S).group(0)
    assert html.index("Continue watching") < html.index('class="history-day"')
    assert '<a href="/resources/gpu-mode-9/?t=644#player">Lecture 9</a> · resumes at 10:49' in block
    assert "20\u00a0min watched of 1\u00a0h\u00a030" in block
    assert "CUDA course" in block and "30\u00a0min watched of 12\u00a0h" in block
    assert "Lecture 3" not in block and "Lecture 4" not in block


def test_the_history_pages_by_days(learner, learner_client, seed_path):
    """Fourteen days a page, newest first; the next page goes on where it stopped."""
    today = timezone.localdate()
    for back in range(DAYS_PER_PAGE + 3):
        CodingSessionFactory(
            user=learner, resource=seed_path.start, day=today - datetime.timedelta(days=2 * back)
        )
    first = days_of(history(learner_client))
    assert len(first) == DAYS_PER_PAGE
    assert first[0] == today.isoformat()
    page = history(learner_client, "?page=2")
    second = days_of(page)
    assert len(second) == 3
    assert second[0] == (today - datetime.timedelta(days=2 * DAYS_PER_PAGE)).isoformat()
    assert 'href="?page=1" rel="prev"' in page
    assert 'rel="next"' not in page
    assert CodingSession.objects.count() == DAYS_PER_PAGE + 3


@pytest.mark.parametrize("page", ["?page=0", "?page=abc", "?page=-3", "?page="])
def test_a_page_that_is_not_one_is_the_first(learner, learner_client, seed_path, page):
    CodingSessionFactory(user=learner, resource=seed_path.start)
    assert days_of(history(learner_client, page)) == [timezone.localdate().isoformat()]


def test_a_page_past_the_last_says_there_is_nothing_older(learner, learner_client, seed_path):
    CodingSessionFactory(user=learner, resource=seed_path.start)
    html = history(learner_client, "?page=9")
    assert "Nothing older." in html
    assert '<a href="?page=1">Back to the newest days</a>' in html


def test_a_learner_sees_only_their_own_history(learner, other_learner, learner_client, seed_path):
    CodingSessionFactory(user=other_learner, resource=seed_path.start, built="Not mine")
    actions.log_sitting(user=other_learner, resource=seed_path.course, minutes=30)
    html = history(learner_client)
    assert "Not mine" not in html and "CUDA course" not in html
    assert "Nothing yet" in html


def test_the_days_follow_the_learners_time_zone(learner, seed_path):
    """A sitting at 23:30 UTC is the next morning in Tokyo: the page puts it on that day."""
    ProfileFactory(user=learner, time_zone="Asia/Tokyo")
    client = Client()
    client.force_login(learner)
    at = datetime.datetime(2026, 3, 10, 23, 30, tzinfo=datetime.UTC)
    WatchEventFactory(user=learner, resource=seed_path.course, minutes=30, at=at)
    html = history(client)
    assert days_of(html) == ["2026-03-11"]
    assert re.findall(r"history-entry__time\">([^<]+)<", html) == ["08:30"]


def test_the_page_is_in_french(learner, learner_client, seed_path):
    actions.log_sitting(user=learner, resource=seed_path.course, minutes=30)
    html = history(learner_client, headers={"accept-language": "fr"})
    assert "<h1>Historique</h1>" in html
    assert "Aujourd’hui, " in html
    assert "Continuer à regarder" in html
    assert "Séance notée" in html


def test_the_page_needs_a_signed_in_learner(seed_path):
    response = Client().get("/history/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/history/")


def test_the_page_costs_the_same_queries_whatever_the_history(learner, learner_client, seed_path):
    """Session and user, the revision token, the page's days, their events, sessions and
    submissions, the videos begun: 8, with a day or with a year of days."""
    today = timezone.localdate()
    exercise = ExerciseFactory(resource=seed_path.start)

    def count():
        learner_client.get("/history/")
        with CaptureQueriesContext(connection) as queries:
            history(learner_client)
        return len(queries.captured_queries)

    CodingSessionFactory(user=learner, resource=seed_path.start)
    small = count()
    for back in range(120):
        day = today - datetime.timedelta(days=back)
        CodingSessionFactory(user=learner, resource=seed_path.course, day=day)
        an_event_on(learner, seed_path.course, day)
        SubmissionFactory(learner=learner, exercise=exercise)
    for resource in seed_path.watchable:
        actions.log_sitting(user=learner, resource=resource, minutes=5)
    assert (small, count()) == (8, 8)
