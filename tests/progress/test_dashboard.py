import datetime
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from lib.durations import duration
from progress import actions
from progress.models import Profile, WatchEvent
from tests.factories import CodingSessionFactory, ResourceFactory, UserFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
STYLESHEET = Path(__file__).parents[2] / "static" / "css" / "parcours.css"


def dashboard(client):
    response = client.get("/", headers=EN)
    assert response.status_code == 200
    return response.content.decode()


def step_html(html, step):
    """The <li> of one step."""
    match = re.search(rf'<li class="step[^"]*" id="step-{step.pk}">(.*?)</li>', html, re.S)
    assert match, f"step {step.pk} not on the page"
    return match.group(0)


def test_anonymous_visitors_get_the_landing_page(client, seed_path):
    """No dashboard without an account: the landing page invites to sign in."""
    html = client.get("/", headers=EN).content.decode()
    assert "Learn GPU programming" in html
    assert "Your path" not in html
    assert not Profile.objects.exists()


def test_the_dashboard_lists_every_stage_and_step_in_order(learner_client, seed_path):
    """Stages then steps, in the path's order; the guide chapter each goes with is on its page."""
    html = dashboard(learner_client)
    positions = [html.index(f'id="stage-{stage.pk}"') for stage in seed_path.stages]
    assert positions == sorted(positions)
    positions = [html.index(f'id="step-{step.pk}"') for step in seed_path.steps]
    assert positions == sorted(positions)
    assert "Part 2, chapter 5" not in step_html(html, seed_path.steps[3])
    course = step_html(html, seed_path.steps[3])
    assert '<span class="step__length">· 12\u00a0h</span></h4>' in course


def test_a_newcomer_is_shown_the_start_here_talk_with_its_reason(learner_client, seed_path):
    """Nothing watched yet: the seed's start-here talk and reason, and no duplicate next-up card."""
    html = dashboard(learner_client)
    assert 'id="start-here-title"' in html
    assert "If you watch only one video, watch this one." in html
    assert 'id="next-up-title"' not in html


def test_the_start_here_card_leaves_once_something_is_watched(learner, learner_client, seed_path):
    """After the first click the next-up card takes over."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    html = dashboard(learner_client)
    assert "If you watch only one video" not in html
    next_up = html.split('id="next-up"')[1].split("</section>")[0]
    assert "Lecture 3" in next_up


def test_steps_show_not_started_in_progress_and_watched(learner, learner_client, seed_path):
    """Each step says its state in words, with minutes and a bar while in progress."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    actions.log_sitting(user=learner, resource=seed_path.course, minutes=90)
    html = dashboard(learner_client)
    assert "Watched" in step_html(html, seed_path.steps[0])
    assert "Mark not watched" in step_html(html, seed_path.steps[0])
    course = step_html(html, seed_path.steps[3])
    assert "In progress: 1\u00a0h\u00a030 of 12\u00a0h" in course
    assert 'max="720" value="90"' in course
    assert "Not started" in step_html(html, seed_path.steps[1])


def test_two_learners_in_the_same_course_each_read_their_own_minutes(
    learner, other_learner, client, seed_path
):
    """The controls of a resource in progress are written once per place, the learner's minutes
    in slots: the next learner's dashboard, from the same process, shows their own."""
    for user, minutes in ((learner, 90), (other_learner, 240)):
        actions.log_sitting(user=user, resource=seed_path.course, minutes=minutes)
    client.force_login(learner)
    first = step_html(dashboard(client), seed_path.steps[3])
    client.force_login(other_learner)
    second = step_html(dashboard(client), seed_path.steps[3])
    assert 'max="720" value="90"' in first
    assert "In progress: 1\u00a0h\u00a030 of 12\u00a0h" in first
    assert 'max="720" value="240"' in second
    assert "In progress: 4\u00a0h of 12\u00a0h" in second
    assert "1\u00a0h\u00a030" not in second


def test_the_dashboard_shows_the_balance_this_week_and_overall(learner, learner_client, seed_path):
    """Watched 1 h and coded 1 h 30: both balances say 1 h 30 of code is still missing."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=90)
    html = dashboard(learner_client)
    balance = html.split('id="balance"')[1].split("</section>")[0]
    assert (
        "You watched 1\u00a0h and coded 1\u00a0h\u00a030 this week: 1\u00a0h\u00a030 more code"
        in balance
    )
    assert (
        "You watched 1\u00a0h and coded 1\u00a0h\u00a030 in all: 1\u00a0h\u00a030 more code"
        in balance
    )
    assert 'id="balance-week"' in balance


def test_steps_show_the_watched_and_the_coded_state(learner, learner_client, seed_path):
    """A watched step says how much was coded of it against three times its duration; a step not
    watched yet asks for no code (no "3 h of code to do" before anything is watched)."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=90)
    html = dashboard(learner_client)
    start = step_html(html, seed_path.steps[0])
    assert "Watched" in start
    assert "1\u00a0h\u00a030 / 3\u00a0h coded" in start
    assert "✓" not in start
    assert 'max="180" value="90"' in start
    lecture = step_html(html, seed_path.steps[1])
    assert "coded" not in lecture and "of code to do" not in lecture


def test_next_up_is_the_first_unfinished_step_with_its_watch_link(
    learner, learner_client, seed_path
):
    """Steps done in any order: next up is the earliest one left."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    actions.mark_watched(user=learner, resource=seed_path.lectures[1])
    seed_path.lectures[0].watch_url = "https://example.com/watch/3"
    seed_path.lectures[0].save()
    html = dashboard(learner_client)
    next_up = html.split('id="next-up"')[1].split("</section>")[0]
    assert "Lecture 3" in next_up
    assert 'href="https://example.com/watch/3"' in next_up


def test_stage_and_path_bars_count_minutes_and_steps(learner, learner_client, seed_path):
    """Bars give watched ÷ planned minutes and steps done ÷ steps, in numbers and in words."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    actions.log_sitting(user=learner, resource=seed_path.course, minutes=120)
    html = dashboard(learner_client)
    path_bar = html.split('id="path-bar"')[1].split("</div>")[0]
    assert (
        '<label class="bars__line" for="bar-path-steps">1 of 7 steps done'
        " · 3\u00a0h watched of 16\u00a0h\u00a030</label>"
    ) in path_bar
    assert 'id="bar-path-steps" max="7" value="1"' in path_bar
    week1 = seed_path.stages[0]
    stage_tally = html.split(f'id="stage-{week1.pk}-bar"')[1].split("</p>")[0]
    assert "1 of 3 steps done · 1\u00a0h watched of 3\u00a0h" in stage_tally


def test_the_current_week_comes_from_the_start_day(learner_client, seed_path, started_a_week_ago):
    """Started eight days ago: week 2 of 4, and the stage holding it is marked current."""
    html = dashboard(learner_client)
    assert "Week 2 of 4" in html
    assert f'id="stage-{seed_path.stages[1].pk}" aria-labelledby' in html
    current = re.search(r'<section class="stage stage--current" id="stage-(\d+)"', html)
    assert int(current.group(1)) == seed_path.stages[1].pk


def test_past_the_planned_weeks_the_open_stage_is_current(learner, learner_client, seed_path):
    """Week 6 of a 4-week plan: the last stage ("then, as needed") is where the learner is."""
    Profile.objects.for_learner(learner)
    Profile.objects.filter(user=learner).update(
        started_on=datetime.date.today() - datetime.timedelta(weeks=5)
    )
    html = dashboard(learner_client)
    assert "Week 6: the 4 planned weeks are behind you" in html
    current = re.search(r'<section class="stage stage--current" id="stage-(\d+)"', html)
    assert int(current.group(1)) == seed_path.stages[3].pk


def test_a_start_day_in_the_future_says_when_the_path_starts(learner, learner_client, seed_path):
    """A learner who plans to start next week is told the day."""
    profile = Profile.objects.for_learner(learner)
    profile.started_on = datetime.date.today() + datetime.timedelta(days=10)
    profile.save()
    assert "You start the path on" in dashboard(learner_client)


def test_an_unknown_gpu_asks_the_learner_to_pick_one(learner_client, seed_path):
    """The architecture step prompts for the GPU instead of naming a talk."""
    html = step_html(dashboard(learner_client), seed_path.steps[-1])
    assert "Tell Parcours which GPU you have" in html
    assert 'href="/settings/"' in html
    assert "Hopper" not in html


def test_the_gpu_choice_resolves_the_architecture_step(learner, learner_client, seed_path):
    """With a Hopper card, the step is the Hopper session, with its own buttons."""
    profile = Profile.objects.for_learner(learner)
    profile.architecture = seed_path.hopper
    profile.save()
    actions.mark_watched(user=learner, resource=seed_path.session)
    html = step_html(dashboard(learner_client), seed_path.steps[-1])
    assert "GTC architecture session: Hopper" in html
    assert "Mark not watched" in html
    assert "Tell Parcours which GPU" not in html


def test_a_gpu_without_its_own_session_is_led_to_the_nearest_one(
    learner, learner_client, seed_path
):
    """An NVIDIA generation with no session listed gets the nearest generation's, and why."""
    from tests.factories import ArchitectureFactory

    profile = Profile.objects.for_learner(learner)
    profile.architecture = ArchitectureFactory(slug="volta", name="Volta", vendor="NVIDIA")
    profile.save()
    html = step_html(dashboard(learner_client), seed_path.steps[-1])
    assert "/resources/gtc-hopper/" in html
    assert "The guide lists no session for Volta" in html


def test_a_gpu_that_does_not_run_cuda_is_told_the_sessions_do_not_apply(
    learner, learner_client, seed_path
):
    from tests.factories import ArchitectureFactory

    profile = Profile.objects.for_learner(learner)
    profile.architecture = ArchitectureFactory(slug="amd-cdna", name="CDNA", vendor="AMD")
    profile.save()
    html = step_html(dashboard(learner_client), seed_path.steps[-1])
    assert "they do not apply directly to yours" in html
    assert "Tell Parcours which GPU" not in html


def test_another_learners_watching_never_shows(learner_client, other_learner, seed_path):
    """Grace's watched talks and sittings are not on Ada's dashboard."""
    actions.mark_watched(user=other_learner, resource=seed_path.start)
    actions.log_sitting(user=other_learner, resource=seed_path.course, minutes=300)
    html = dashboard(learner_client)
    assert "Mark not watched" not in html
    assert "In progress" not in html
    assert "0 of 7 steps done ·" in html
    assert "0\u00a0min watched of 16\u00a0h\u00a030</label>" in html


def test_a_learner_without_profile_gets_one(client, seed_path):
    """Accounts made with createsuperuser have no profile: the dashboard creates it."""
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    client.force_login(admin)
    assert "Week 1 of 4" in dashboard(client)
    assert Profile.objects.filter(user=admin).exists()


def test_without_a_path_the_dashboard_still_shows_start_here(learner_client):
    """Before the curriculum is loaded the dashboard stays up."""
    ResourceFactory(is_start_here=True, start_here_reason="Watch this first.")
    html = dashboard(learner_client)
    assert "No path is loaded yet." in html
    assert "Watch this first." in html


def test_a_finished_path_says_so(learner, learner_client, seed_path):
    """Every step done: next up gives the rule instead of a step."""
    profile = Profile.objects.for_learner(learner)
    profile.architecture = seed_path.hopper
    profile.save()
    for resource in [*seed_path.watchable, seed_path.session]:
        actions.mark_watched(user=learner, resource=resource)
    html = dashboard(learner_client)
    assert "You have been through every step of the path." in html
    assert "7 of 7 steps done" in html


def count_queries(client):
    with CaptureQueriesContext(connection) as queries:
        dashboard(client)
    return len(queries)


def next_up_html(html):
    return html.split('id="next-up"')[1].split("</section>")[0]


def test_step_titles_open_the_resource_page_and_tiles_have_no_watch_link(learner_client, seed_path):
    """The tile's title leads to the resource page, where the video, coding and notes are; the
    tile itself carries no watch link (the map stays compact; the next-up card has one)."""
    seed_path.lectures[0].watch_url = "https://example.com/watch/3"
    seed_path.lectures[0].save()
    lecture = step_html(dashboard(learner_client), seed_path.steps[1])
    assert '<h4 class="step__title"><a href="/resources/gpu-mode-3/">Lecture 3</a>' in lecture
    assert "https://example.com/watch/3" not in lecture


def test_the_start_here_title_opens_the_resource_page(learner_client, seed_path):
    """The start-here card names the talk with a link to its page, and a separate watch link."""
    html = dashboard(learner_client)
    card = html.split('id="start-here"')[1].split("</section>")[0]
    assert '<a href="/resources/how-gpu-computing-works/">How GPU Computing Works</a>' in card
    assert 'href="https://example.com/watch/how" target="_blank"' in card


def test_a_step_without_a_watch_link_has_no_watch_button(learner_client, seed_path):
    """Lecture 4 has no video address: no "Watch" link pointing nowhere."""
    assert "watch-link" not in step_html(dashboard(learner_client), seed_path.steps[2])


def test_next_up_is_coding_when_this_weeks_balance_is_short(learner, learner_client, seed_path):
    """Watched 1 h and coded 30 min: next up logs code for that talk, 2 h 30 owed, and the next
    video's buttons step back."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=30)
    card = next_up_html(dashboard(learner_client))
    assert "Next up: code" in card
    assert "2\u00a0h\u00a030 of code still owed before the next video" in card
    assert (
        f'<a class="button" id="next-up-code-{seed_path.start.pk}" '
        'href="/resources/how-gpu-computing-works/#coding-how-gpu-computing-works" '
        "data-first-action>Log code for “How GPU Computing Works”</a>"
    ) in card
    assert 'Then: <a href="/resources/gpu-mode-3/">Lecture 3</a>' in card
    # The controls are the same everywhere; the stylesheet steps this card's button back.
    assert '<section class="card next-up next-up--code"' in card
    assert f'id="next-up-{seed_path.lectures[0].pk}-toggle"' in card
    assert ".next-up--code .inline-form .button {" in STYLESHEET.read_text().replace(",\n", ", ")


def test_next_up_is_coding_when_only_the_overall_balance_is_short(
    learner, learner_client, seed_path
):
    """An hour watched last week and not coded, nothing this week: still 3 h owed overall."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    WatchEvent.objects.filter(user=learner).update(at=timezone.now() - datetime.timedelta(days=8))
    card = next_up_html(dashboard(learner_client))
    assert "3\u00a0h of code still owed" in card
    assert "Log code for “How GPU Computing Works”" in card


def test_next_up_codes_for_the_last_watched_resource(learner, learner_client, seed_path):
    """A sitting of the course, the start talk, another sitting: the course was watched last."""
    actions.log_sitting(user=learner, resource=seed_path.course, minutes=30)
    actions.mark_watched(user=learner, resource=seed_path.start)
    actions.log_sitting(user=learner, resource=seed_path.course, minutes=30)
    card = next_up_html(dashboard(learner_client))
    assert "Log code for “CUDA course”" in card
    assert "6\u00a0h of code still owed" in card


def test_next_up_is_watching_again_once_the_rule_is_met(learner, learner_client, seed_path):
    """Watched 1 h, coded 3 h: next up is the next video, its title leading to its page."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=180)
    card = next_up_html(dashboard(learner_client))
    assert "Next up: code" not in card and "Log code" not in card
    lecture = seed_path.lectures[0]
    assert (
        f'<a href="/resources/gpu-mode-3/" id="next-up-{lecture.pk}-page" data-first-action>'
        "Lecture 3</a>"
    ) in card
    toggle = card.split(f'id="next-up-{lecture.pk}-toggle"')[1].split(">")[0]
    assert "button--secondary" not in toggle


def test_a_finished_path_with_code_owed_says_both(learner, learner_client, seed_path):
    """Every step watched and nothing coded: the path is done, and the code is next."""
    for resource in seed_path.watchable:
        actions.mark_watched(user=learner, resource=resource)
    profile = Profile.objects.for_learner(learner)
    profile.architecture = seed_path.hopper
    profile.save()
    actions.mark_watched(user=learner, resource=seed_path.session)
    card = next_up_html(dashboard(learner_client))
    assert "You have been through every step of the path." in card
    assert "Log code for “GTC architecture session: Hopper”" in card


def test_a_step_is_coded_only_at_three_times_its_length(learner, learner_client, seed_path):
    """2 h 59 of code for a 1 h talk is the fraction; 3 h is "✓ Coded"."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=179)
    start = step_html(dashboard(learner_client), seed_path.steps[0])
    assert "2\u00a0h\u00a059 / 3\u00a0h coded" in start and "✓" not in start
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=1)
    start = step_html(dashboard(learner_client), seed_path.steps[0])
    assert '<span aria-hidden="true">✓</span> Coded' in start
    assert "/ 3\u00a0h coded" not in start


def test_the_new_words_are_in_french_too(learner, learner_client, seed_path):
    """A French-speaking learner reads the coding next-up, the fraction and the watch link."""
    seed_path.lectures[0].watch_url = "https://example.com/watch/3"
    seed_path.lectures[0].save()
    actions.mark_watched(user=learner, resource=seed_path.start)
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=90)
    html = learner_client.get("/", headers={"accept-language": "fr"}).content.decode()
    card = next_up_html(html)
    assert "À suivre : coder" in card
    assert "Encore 1\u00a0h\u00a030 de code avant la prochaine vidéo" in card
    assert "Noter une séance de code pour « How GPU Computing Works »" in card
    assert "Ensuite :" in card
    assert "1\u00a0h\u00a030 / 3\u00a0h codées" in step_html(html, seed_path.steps[0])
    assert "(sur un autre site, s’ouvre dans un nouvel onglet)" in html


# One clear card per step (issue 15, point 8)

NBSP = "\N{NO-BREAK SPACE}"


class Bars(HTMLParser):
    """The page's <progress> bars, each with the visible words that label it."""

    def __init__(self):
        super().__init__()
        self.labels = {}  # for= id -> words
        self.bars = []  # (id, words of the <label> it sits in)
        self.open_labels = []
        self.hidden_depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.hidden_depth or "visually-hidden" in (attrs.get("class") or ""):
            self.hidden_depth += 1
        if tag == "label":
            self.open_labels.append([attrs.get("for"), ""])
        if tag == "progress":
            inside = self.open_labels[-1][1] if self.open_labels else ""
            self.bars.append((attrs.get("id"), inside))

    def handle_endtag(self, tag):
        if self.hidden_depth:
            self.hidden_depth -= 1
        if tag == "label" and self.open_labels:
            target, words = self.open_labels.pop()
            if target:
                self.labels[target] = words

    def handle_data(self, data):
        if self.open_labels and not self.hidden_depth:
            self.open_labels[-1][1] += data

    def words_of(self, bar_id, inside):
        return " ".join((self.labels.get(bar_id) or inside).split())


def test_every_bar_has_visible_words_saying_what_it_counts_against_what(
    learner, learner_client, seed_path
):
    """Path, stage, watching and coding bars: each labelled on screen, not only for readers."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    actions.log_sitting(user=learner, resource=seed_path.course, minutes=90)
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=90)
    bars = Bars()
    bars.feed(dashboard(learner_client))
    words = [bars.words_of(bar_id, inside) for bar_id, inside in bars.bars]
    # The today card's coded bar, the path's one bar (stages say theirs in words), the course's
    # sitting bar, and the coded bar of the one step watched (unwatched steps owe no code yet).
    assert len(words) == 4
    assert all(words), words
    assert "1 of 7 steps done · 2 h 30 watched of 16 h 30" in words  # any space reads as one
    assert "In progress: 1 h 30 of 12 h" in words
    assert "1 h 30 / 3 h coded" in words
    assert any(line.startswith("Coded today: 1 h 30 of ") for line in words)  # by weekday


def test_a_step_card_shows_its_length_once(learner_client, seed_path):
    """Each tile says its length once; notes are on the resource page, not in the map."""
    html = dashboard(learner_client)
    for step in seed_path.steps[:5]:
        with translation.override("en"):
            length = re.escape(duration(step.resource.duration_minutes))
        card = step_html(html, step)
        assert len(re.findall(rf"(?<!\d){length}(?!{NBSP}\d)", card)) == 1, card
    course = step_html(html, seed_path.steps[3])
    assert "in several sittings" not in course and "12 h," not in course


def test_a_note_that_only_gives_the_length_of_a_resource_of_unknown_length_stays(
    learner_client, seed_path
):
    """Lecture 14 has no known length: its tile shows the note, the only length it has."""
    step = seed_path.steps[5]
    step.note = "1 h 15, with chapter 5"
    step.save()
    assert "1 h 15, with chapter 5" in step_html(dashboard(learner_client), step)


def test_lengths_never_break_between_number_and_unit(learner, learner_client, seed_path):
    """Every length on the path joins number and unit with a no-break space: no "1 / h"."""
    actions.log_sitting(user=learner, resource=seed_path.course, minutes=90)
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=200)
    html = dashboard(learner_client)
    path = html.split('aria-labelledby="path-title"')[1]
    assert f"1{NBSP}h{NBSP}30" in path
    assert not re.search(r"\d[ \t\n]+(h|min)\b", path)
    assert not re.search(r"\d[ \t\n]*h[ \t\n]+\d\d\b", path)


def test_a_watched_step_offers_logging_code_as_its_one_primary_action(
    learner, learner_client, seed_path
):
    """Watched, 1 h 30 of 3 h coded: "Log code" is the card's primary button, the rest step
    back; at 3 h coded it goes."""
    seed_path.start.watch_url = "https://example.com/watch/how"
    seed_path.start.save()
    actions.mark_watched(user=learner, resource=seed_path.start)
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=90)
    card = step_html(dashboard(learner_client), seed_path.steps[0])
    primary = re.findall(r'class="button button--small(?: step__code)?"[^>]*>\s*([^<]+)', card)
    assert primary == ["Log code"]
    assert 'href="/resources/how-gpu-computing-works/#coding-how-gpu-computing-works"' in card
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=90)
    card = step_html(dashboard(learner_client), seed_path.steps[0])
    assert "Log code" not in card
    assert not re.findall(r'class="button button--small"', card)


def test_an_unwatched_step_has_mark_watched_as_its_primary_action(learner_client, seed_path):
    """Before watching, the one primary button marks it watched; the video link steps back."""
    card = step_html(dashboard(learner_client), seed_path.steps[0])
    primary = re.findall(r'class="button button--small"[^>]*>\s*([^<]+?)\s*<', card)
    assert primary == ["Mark watched"]
    assert "Log code" not in card


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_seed_dashboard_never_points_at_this_document(learner_client, seed, language):
    """Words copied from the guide that name "this document" make no sense in the app."""
    html = learner_client.get("/", headers={"accept-language": language}).content.decode()
    assert "Your path" in html or "Votre parcours" in html
    for words in ("ce document", "this document", "de ce guide"):
        assert words not in html.lower()
