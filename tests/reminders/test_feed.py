"""The private calendar feed: valid iCalendar of the learner's plan, behind a revocable token."""

import re
from datetime import date, datetime, time, timedelta
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from lib.tokens import digest
from progress import actions
from progress.models import Profile
from reminders.feed import event_uid
from reminders.models import CalendarFeed
from tests.factories import ResourceFactory, StageFactory, StepFactory, UserFactory

pytestmark = pytest.mark.django_db

TOKYO = ZoneInfo("Asia/Tokyo")
STARTED = date(2026, 1, 5)  # a Monday


@pytest.fixture
def feed(learner):
    Profile.objects.for_learner(learner)
    Profile.objects.filter(user=learner).update(
        started_on=STARTED, time_zone="Asia/Tokyo", language="en"
    )
    _feed, token = CalendarFeed.issue_for(learner)
    return SimpleNamespace(user=learner, token=token)


def shown_token(html):
    """The token of the calendar address a page shows, or None."""
    found = re.search(r'value="http://testserver/calendar/([\w-]+)\.ics"', html)
    return found and found.group(1)


def fetch(token, client=None):
    return (client or Client()).get(reverse("reminders:feed", args=[token]))


def parsed(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def events(calendar):
    return list(calendar.walk("VEVENT"))


def step_events(calendar):
    return {
        str(event["UID"]): event
        for event in events(calendar)
        if str(event["UID"]).startswith("step-")
    }


def code_events(calendar):
    return [event for event in events(calendar) if str(event["UID"]).startswith("code-")]


def test_it_is_valid_icalendar_with_one_event_per_step(feed, seed_path):
    """Parsed back: version 2.0, a PRODID, every event with UID, DTSTAMP, DTSTART, DURATION, SUMMARY."""
    calendar = parsed(fetch(feed.token))
    assert str(calendar["VERSION"]) == "2.0"
    assert "PRODID" in calendar
    for event in events(calendar):
        for field in ("UID", "DTSTAMP", "DTSTART", "DURATION", "SUMMARY"):
            assert field in event, (field, event)
    assert len(step_events(calendar)) == len(seed_path.steps)
    uids = [str(event["UID"]) for event in events(calendar)]
    assert len(uids) == len(set(uids))


def test_the_zone_of_the_events_is_described(feed, seed_path):
    """Times carry the learner's TZID, and a VTIMEZONE for it is in the document (RFC 5545 3.6.5)."""
    calendar = parsed(fetch(feed.token))
    assert [str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")] == ["Asia/Tokyo"]
    first = step_events(calendar)[uid(seed_path.steps[0], feed)]
    assert first["DTSTART"].params["TZID"] == "Asia/Tokyo"
    assert first.decoded("DTSTART") == datetime(2026, 1, 5, 18, 0, tzinfo=TOKYO)


def uid(step, feed):
    return event_uid(feed.user, "step", step.pk)


def test_each_step_sits_in_its_week_from_the_start_day(feed, seed_path):
    """Week 1's three steps on its first three evenings; weeks 2-3's course in week 2; week 4; then week 5."""
    found = step_events(parsed(fetch(feed.token)))
    starts = [found[uid(step, feed)].decoded("DTSTART").date() for step in seed_path.steps]
    assert starts == [
        date(2026, 1, 5),
        date(2026, 1, 6),
        date(2026, 1, 7),
        date(2026, 1, 12),
        date(2026, 1, 26),
        date(2026, 2, 2),
        date(2026, 2, 3),
    ]


def test_an_event_has_the_title_length_resource_page_and_guide_pairing(feed, seed_path):
    """The 12 h course: its title, a first sitting of 2 h, its length, note, chapter and page."""
    course = step_events(parsed(fetch(feed.token)))[uid(seed_path.steps[3], feed)]
    assert str(course["SUMMARY"]) == "CUDA course"
    assert course.decoded("DURATION") == timedelta(hours=2)
    assert str(course["URL"]) == "http://testserver/resources/freecodecamp/"
    description = str(course["DESCRIPTION"])
    assert "12 h, in several sittings" in description
    assert "Length" not in description  # the note says it: the length is stated once
    assert "Part 2, chapter 5" in description
    assert "http://testserver/resources/freecodecamp/" in description


def code_by_day(calendar):
    """{day: (start time, minutes)} of the code-time events."""
    return {
        event.decoded("DTSTART").date(): (
            event.decoded("DTSTART").time(),
            event.decoded("DURATION") // timedelta(minutes=1),
        )
        for event in code_events(calendar)
    }


def test_code_time_goes_on_weekdays_at_20_by_default_sized_per_week(feed, seed_path):
    """Week 1 plans 3 h of video: 9 h of code over its five weekdays, 1 h 45 each (rounded up to
    a quarter of an hour); nothing on Saturday 10 or Sunday 11 January."""
    code = code_by_day(parsed(fetch(feed.token)))
    week1 = {day: block for day, block in code.items() if day < date(2026, 1, 12)}
    assert sorted(week1) == [date(2026, 1, n) for n in (5, 6, 7, 8, 9)]
    assert set(week1.values()) == {(time(20, 0), 120)}
    assert sum(minutes for _at, minutes in week1.values()) >= 9 * 60


def test_the_week_of_the_12_hour_course_follows_its_planned_sitting(feed, seed_path):
    """The calendar plans a first sitting of 2 h of the course in week 2: 6 h of code that week,
    not 36 h; week 3 plans no watching, so no code time either."""
    calendar = parsed(fetch(feed.token))
    code = code_by_day(calendar)
    week2 = [code[day] for day in code if date(2026, 1, 12) <= day < date(2026, 1, 19)]
    assert sum(minutes for _at, minutes in week2) == 6 * 60 + 15  # 5 x 1 h 15 (72 min, rounded up)
    assert not [day for day in code if date(2026, 1, 19) <= day < date(2026, 1, 26)]
    description = str(code_events(calendar)[5]["DESCRIPTION"])
    assert "Week 2 of your plan: 6\u00a0h of code over 5 days" in description


def test_code_time_follows_the_days_and_hour_picked_in_settings(feed, seed_path, learner_client):
    """Tuesday and Saturday at 07:30: week 1's 9 h over two days, each capped at 4 h."""
    response = learner_client.post(
        reverse("reminders:code_time"), {"days": ["1", "5"], "code_at": "07:30"}
    )
    assert response.status_code == 302
    code = code_by_day(parsed(fetch(feed.token)))
    week1 = {day: block for day, block in code.items() if day < date(2026, 1, 12)}
    assert week1 == {date(2026, 1, 6): (time(7, 30), 240), date(2026, 1, 10): (time(7, 30), 240)}
    assert all(day.weekday() in (1, 5) for day in code)
    feed_row = CalendarFeed.objects.get(user=feed.user)
    assert (feed_row.code_days, feed_row.code_at) == ([1, 5], time(7, 30))


@pytest.mark.parametrize(
    "data",
    [
        {"days": [], "code_at": "20:00"},
        {"days": ["9"], "code_at": "20:00"},
        {"days": ["1"], "code_at": "25:00"},
    ],
)
def test_bad_code_time_changes_nothing(feed, learner_client, data):
    """No day, an unknown day or an impossible hour: 400 naming the problem, nothing saved."""
    response = learner_client.post(reverse("reminders:code_time"), data)
    assert response.status_code == 400
    feed_row = CalendarFeed.objects.get(user=feed.user)
    assert (feed_row.code_days, feed_row.code_at) == ([0, 1, 2, 3, 4], time(20, 0))


def test_code_time_needs_a_calendar_address(learner_client, learner):
    response = learner_client.post(
        reverse("reminders:code_time"), {"days": ["1"], "code_at": "20:00"}
    )
    assert response.status_code == 404


def test_with_htmx_code_time_swaps_the_section(feed, learner_client):
    response = learner_client.post(
        reverse("reminders:code_time"),
        {"days": ["0", "2"], "code_at": "19:00"},
        headers={"HX-Request": "true", "accept-language": "en"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert (
        "Your calendar&#39;s code time is saved." in html
        or "Your calendar’s code time is saved." in html
    )
    assert 'value="19:00"' in html


def test_the_uids_are_stable_and_follow_a_new_start_day(feed, seed_path, learner_client):
    """Same UIDs after moving the start day; the events move with it."""
    before = step_events(parsed(fetch(feed.token)))
    learner_client.post(
        reverse("accounts:settings"),
        {
            "architecture": "",
            "started_on": "2026-01-08",
            "language": "en",
            "time_zone": "Asia/Tokyo",
        },
    )
    after = step_events(parsed(fetch(feed.token)))
    assert after.keys() == before.keys()
    first = uid(seed_path.steps[0], feed)
    assert after[first].decoded("DTSTART").date() == date(2026, 1, 8)


def test_a_watched_step_is_marked_done(feed, seed_path, learner):
    """Marking the start-here talk watched ticks its event; the others stay as they were."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    found = step_events(parsed(fetch(feed.token)))
    assert str(found[uid(seed_path.steps[0], feed)]["SUMMARY"]) == "✓ How GPU Computing Works"
    assert "Watched." in str(found[uid(seed_path.steps[0], feed)]["DESCRIPTION"])
    assert str(found[uid(seed_path.steps[1], feed)]["SUMMARY"]) == "Lecture 3"


def test_the_feed_speaks_the_learners_language(feed, seed_path):
    """French on the profile: French text in the events, whatever the calendar app asks for."""
    Profile.objects.filter(user=feed.user).update(language="fr")
    calendar = parsed(fetch(feed.token))
    lecture = step_events(calendar)[uid(seed_path.steps[4], feed)]
    assert "Durée : 1\u00a0h\u00a030" in str(lecture["DESCRIPTION"])  # no note: the length
    assert str(code_events(calendar)[0]["SUMMARY"]) == "Temps de code (règle 1:3)"


def test_an_unknown_token_is_404(feed):
    assert fetch("not-a-token").status_code == 404


def test_a_deactivated_learners_feed_is_404(feed):
    """A closed account's calendar stops answering, token or not."""
    feed.user.is_active = False
    feed.user.save(update_fields=["is_active"])
    assert fetch(feed.token).status_code == 404


def test_head_answers_as_get_does(feed, seed_path):
    """Calendar apps and link checkers ask HEAD first: 200 with the same headers."""
    response = Client().head(reverse("reminders:feed", args=[feed.token]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Cache-Control"] == "private, no-store"


def test_the_uids_are_the_same_under_every_host_name(feed, seed_path, settings):
    """Subscribed through two names of the site, each event comes once: no host in its UID."""
    settings.ALLOWED_HOSTS = ["testserver", "parcours.example", "www.parcours.example"]
    url = reverse("reminders:feed", args=[feed.token])
    first, second = (
        {str(event["UID"]) for event in events(parsed(Client().get(url, HTTP_HOST=host)))}
        for host in ("parcours.example", "www.parcours.example:8443")
    )
    assert first == second
    assert len(first) == len(seed_path.steps) + len(code_events(parsed(fetch(feed.token))))


def test_the_uids_name_no_database_row(feed, seed_path):
    """Each UID is a kind and 32 hex digits: no learner or step id, no host to read in it."""
    uids = [str(event["UID"]) for event in events(parsed(fetch(feed.token)))]
    assert uids and all(re.fullmatch(r"(step|code)-[0-9a-f]{32}@parcours", uid) for uid in uids)


def test_making_a_new_address_retires_the_old_one(feed, learner_client):
    """Settings' button: a new token works, the old one is 404."""
    old = feed.token
    response = learner_client.post(reverse("reminders:issue_feed"), follow=True)
    assert response.redirect_chain[0][1] == 302
    new = shown_token(response.content.decode())
    assert new is not None and new != old
    assert fetch(old).status_code == 404
    assert fetch(new).status_code == 200


def test_turning_the_address_off_makes_it_404(feed, learner_client):
    response = learner_client.post(reverse("reminders:revoke_feed"))
    assert response.status_code == 302
    assert fetch(feed.token).status_code == 404
    assert not CalendarFeed.objects.filter(user=feed.user).exists()


def test_the_feed_buttons_want_a_signed_in_post(client, feed):
    """Signed out: sent to sign in; a GET is refused; nothing changes."""
    assert client.post(reverse("reminders:issue_feed")).status_code == 302
    assert client.post(reverse("reminders:revoke_feed")).status_code == 302
    assert fetch(feed.token).status_code == 200


def test_another_learners_feed_is_theirs(feed, seed_path, other_learner):
    """Each token shows its own learner's plan: not the other's watched state."""
    actions.mark_watched(user=other_learner, resource=seed_path.start)
    found = step_events(parsed(fetch(feed.token)))
    assert not str(found[uid(seed_path.steps[0], feed)]["SUMMARY"]).startswith("✓")


@pytest.mark.parametrize("extra_steps", [0, 20])
def test_the_feed_runs_a_fixed_number_of_queries(
    feed, seed_path, extra_steps, django_assert_num_queries
):
    """Token, profile, revision, profile again, watches, watched and coded minutes: any path size."""
    stage = StageFactory(path=seed_path.path, title="More", first_week=4, last_week=4, order=9)
    for _index in range(extra_steps):
        StepFactory(stage=stage, resource=ResourceFactory())
    fetch(feed.token)  # the curriculum is built once per process
    with django_assert_num_queries(6):
        fetch(feed.token)


@time_machine.travel(datetime(2026, 1, 5, 12, 0, tzinfo=TOKYO), tick=False)
def test_the_address_is_shown_once_after_it_is_made_then_never_again(learner_client, learner):
    """Without JavaScript: the page after the button shows it; the next visits only say it exists."""
    made = learner_client.post(
        reverse("reminders:issue_feed"), headers={"accept-language": "en"}, follow=True
    ).content.decode()
    token = shown_token(made)
    later = learner_client.get(
        reverse("accounts:settings"), headers={"accept-language": "en"}
    ).content.decode()
    assert f'href="webcal://testserver/calendar/{token}.ics"' in made
    assert token not in later and ".ics" not in later
    assert "It was shown once, when it was made" in later
    assert reverse("reminders:revoke_feed") in later
    assert fetch(token).status_code == 200


def test_the_database_keeps_only_the_tokens_digest(feed):
    """No column of the feed's row holds the token: only its SHA-256 digest, which lookups use."""
    row = CalendarFeed.objects.filter(user=feed.user).values().get()
    assert feed.token not in [str(value) for value in row.values()]
    assert row["token_hash"] == digest(feed.token)


def test_without_an_address_the_settings_page_offers_one(learner_client):
    html = learner_client.get(
        reverse("accounts:settings"), headers={"accept-language": "en"}
    ).content.decode()
    assert "Make my calendar address" in html
    assert ".ics" not in html


def test_a_learner_without_a_profile_gets_a_feed(db):
    """Accounts made by createsuperuser have no profile: one is made, the feed answers."""
    user = UserFactory(username="root")
    _feed, token = CalendarFeed.issue_for(user)
    assert parsed(fetch(token)) is not None


def test_with_htmx_making_and_revoking_swap_the_section(learner_client, learner):
    """The address appears in place, then goes, each change said in the live region."""
    htmx = {"accept-language": "en", "HX-Request": "true"}
    made = learner_client.post(reverse("reminders:issue_feed"), headers=htmx).content.decode()
    token = shown_token(made)
    assert CalendarFeed.objects.get(user=learner).token_hash == digest(token)
    assert "Your calendar has a new private address" in made
    revoked = learner_client.post(reverse("reminders:revoke_feed"), headers=htmx).content.decode()
    assert "Make my calendar address" in revoked
    assert "Your calendar address no longer works." in revoked
    assert fetch(token).status_code == 404


def test_the_feed_writes_step_titles_and_notes_in_the_learners_language(feed, seed_path):
    """English on the profile: the step's English title and note; French: the French ones."""
    from curriculum.models import Step

    Step.objects.filter(pk=seed_path.steps[3].pk).update(
        title_fr="Le cours CUDA",
        title_en="The CUDA course",
        note_fr="12 h, en plusieurs fois",
        note_en="12 h, in several sittings",
    )
    english = step_events(parsed(fetch(feed.token)))[uid(seed_path.steps[3], feed)]
    assert str(english["SUMMARY"]) == "The CUDA course"
    assert "12 h, in several sittings" in str(english["DESCRIPTION"])
    Profile.objects.filter(user=feed.user).update(language="fr")
    french = step_events(parsed(fetch(feed.token)))[uid(seed_path.steps[3], feed)]
    assert str(french["SUMMARY"]) == "Le cours CUDA"
    assert "12 h, en plusieurs fois" in str(french["DESCRIPTION"])


def test_a_refused_code_time_says_so_at_the_top_of_its_form(feed, learner_client):
    """The shared error summary (templates/_form.jinja), its links to the days and the hour."""
    response = learner_client.post(
        reverse("reminders:code_time"),
        {"days": [], "code_at": "25:00"},
        headers={"accept-language": "en"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert '<div class="error-summary" id="code-time-errors" tabindex="-1" autofocus' in html
    summary = html[html.index('id="code-time-errors"') : html.index('id="code-days"')]
    assert '<a href="#code-days">' in summary
    assert re.search(r'<a href="#[^"]+">[^<]*hour|<a href="#[^"]+">[^<]*time', summary, re.I)
