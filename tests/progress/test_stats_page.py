import re
import xml.etree.ElementTree as ET
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from django.utils import translation
from django.utils.dateformat import format as format_date

from progress import stats_page
from progress.charts import hour_scale
from tests.factories import CodingSessionFactory, WatchEventFactory, WatchFactory

URL = reverse("progress:stats")
SVG = "{http://www.w3.org/2000/svg}"
PARIS = ZoneInfo("Europe/Paris")
NOW = datetime(2026, 11, 18, 15, 0, tzinfo=PARIS)  # a Wednesday
TODAY = NOW.date()

pytestmark = pytest.mark.django_db


def get_english(client):
    return client.get(URL, headers={"accept-language": "en"})


def svg(html, css_class):
    """The <svg> element with that class, parsed as XML."""
    match = re.search(rf'<svg class="{css_class}".*?</svg>', html, re.DOTALL)
    assert match, f"no <svg class={css_class}>"
    return ET.fromstring(match.group(0))


def bars(chart, series):
    return [
        rect
        for rect in chart.iter(f"{SVG}rect")
        if f"chart__bar--{series}" in rect.get("class", "")
    ]


@time_machine.travel(NOW, tick=False)
def test_the_chart_is_valid_svg_with_one_bar_per_week_and_series(learner_client, learner):
    """Twelve hatched bars and twelve solid ones, each with its title, the chart labelled."""
    WatchEventFactory(user=learner, minutes=90, at=datetime(2026, 11, 16, 20, 0, tzinfo=PARIS))
    CodingSessionFactory(user=learner, day=date(2026, 11, 17), minutes=150)
    html = get_english(learner_client).content.decode()
    chart = svg(html, "chart__svg")
    assert chart.get("role") == "img"
    title_id, desc_id = chart.get("aria-labelledby").split()
    assert chart.find(f"{SVG}title").get("id") == title_id
    assert chart.find(f"{SVG}desc").get("id") == desc_id
    watched, coded = bars(chart, "watched"), bars(chart, "coded")
    assert len(watched) == len(coded) == 12
    assert all(bar.find(f"{SVG}title") is not None for bar in watched + coded)
    assert (
        watched[-1].find(f"{SVG}title").text
        == "Week of 16 November: 1\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}30 watched"
    )
    assert (
        coded[-1].find(f"{SVG}title").text
        == "Week of 16 November: 2\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}30 coded"
    )
    assert float(coded[-1].get("height")) > float(watched[-1].get("height")) > 0
    assert float(coded[0].get("height")) == 0
    assert all(bar.get("fill") == "url(#hatch-watched)" for bar in watched)


@time_machine.travel(NOW, tick=False)
def test_the_table_under_the_chart_gives_the_same_figures(learner_client, learner):
    """One row per week with hours watched and coded, for screen readers."""
    WatchEventFactory(user=learner, minutes=90, at=datetime(2026, 11, 16, 20, 0, tzinfo=PARIS))
    CodingSessionFactory(user=learner, day=date(2026, 11, 17), minutes=150)
    html = get_english(learner_client).content.decode()
    table = html[html.index('<table class="stats-table">') : html.index("</table>")]
    assert table.count('<tr><th scope="row">') == 1  # the weeks before it were empty
    assert (
        "16 November 2026 \N{EN DASH} 22 November 2026</th><td>1\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}30</td><td>2\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}30</td>"
        in table
    )


@time_machine.travel(NOW, tick=False)
def test_the_calendar_has_a_titled_square_per_day_of_26_weeks(learner_client, learner):
    """25 full weeks and this week's three days, each square titled with date and minutes."""
    CodingSessionFactory(user=learner, day=date(2026, 11, 17), minutes=45)
    html = get_english(learner_client).content.decode()
    calendar = svg(html, "heatmap")
    days = list(calendar.iter(f"{SVG}rect"))
    assert len(days) == 25 * 7 + 3
    titles = [rect.find(f"{SVG}title").text for rect in days]
    assert "Tuesday 17 November 2026: 45 min coded" in titles
    assert "Wednesday 18 November 2026: 0 min coded" in titles
    assert "more than 2 h" in html and "up to 30 min" in html


@time_machine.travel(NOW, tick=False)
def test_a_french_learner_gets_the_squares_titles_in_french(learner_client, learner):
    CodingSessionFactory(user=learner, day=date(2026, 11, 17), minutes=45)
    html = learner_client.get(URL, headers={"accept-language": "fr"}).content.decode()
    titles = [rect.find(f"{SVG}title").text for rect in svg(html, "heatmap").iter(f"{SVG}rect")]
    assert "mardi 17 novembre 2026 : 45 min codées" in titles
    assert "mercredi 18 novembre 2026 : 0 min codées" in titles


@time_machine.travel(NOW, tick=False)
def test_svg_numbers_use_a_dot_in_french_too(learner_client, learner):
    """Coordinates are not localised: 12,5 would be an invalid attribute."""
    WatchEventFactory(user=learner, minutes=7, at=datetime(2026, 11, 16, 20, 0, tzinfo=PARIS))
    html = learner_client.get(URL, headers={"accept-language": "fr"}).content.decode()
    assert "Vos statistiques" in html or "Your stats" in html
    for css_class in ("chart__svg", "heatmap"):
        for element in svg(html, css_class).iter():
            for name in ("x", "y", "width", "height"):
                assert "," not in element.get(name, "")


@time_machine.travel(NOW, tick=False)
def test_streaks_totals_balance_and_finished_kinds_are_shown(learner_client, learner):
    """The figures beside the charts."""
    for back in (4, 3, 1, 0):
        CodingSessionFactory(user=learner, day=TODAY - timedelta(days=back), minutes=60)
    WatchEventFactory(user=learner, minutes=120, at=NOW - timedelta(days=2))
    WatchFactory(user=learner, resource__kind="talk", finished_at=NOW)
    html = get_english(learner_client).content.decode()
    assert "<dt>Current streak</dt><dd>2 days</dd>" in html
    assert "<dt>Longest streak</dt><dd>2 days</dd>" in html
    assert "<dt>Time watched</dt><dd>2\N{NO-BREAK SPACE}h</dd>" in html
    assert "<dt>Time coded</dt><dd>4\N{NO-BREAK SPACE}h</dd>" in html
    assert (
        "You watched 2\u00a0h and coded 4\u00a0h in all: 2\u00a0h more code to meet the 1:3 rule."
        in html
    )
    assert "<dt>Talk</dt><dd>1</dd>" in html


def test_a_new_learner_sees_empty_stats_without_errors(learner_client):
    """Nothing watched, nothing coded: no division by zero."""
    response = get_english(learner_client)
    html = response.content.decode()
    assert response.status_code == 200
    assert "nothing to balance" in html
    assert "Nothing finished yet." in html
    assert 'class="chart__svg"' not in html  # a sentence instead (test_stats_first_weeks.py)


def test_the_page_has_no_inline_style_and_a_stats_link(learner_client):
    """CSP forbids style attributes; the navigation marks the page as current."""
    html = get_english(learner_client).content.decode()
    assert "style=" not in html
    assert 'href="/stats/" aria-current="page">Stats</a>' in html


def test_others_do_not_see_the_stats_link(client):
    """Anonymous visitors have no stats."""
    assert (
        'href="/stats/"' not in client.get("/", headers={"accept-language": "en"}).content.decode()
    )


def test_another_learners_data_stays_out(learner_client, other_learner):
    """Only the signed-in learner's minutes count."""
    WatchEventFactory(user=other_learner, minutes=600)
    CodingSessionFactory(user=other_learner, minutes=600)
    html = get_english(learner_client).content.decode()
    assert "<dt>Time watched</dt><dd>0\N{NO-BREAK SPACE}min</dd>" in html
    assert "<dt>Time coded</dt><dd>0\N{NO-BREAK SPACE}min</dd>" in html


def test_the_hour_axis_has_round_steps_above_the_largest_week():
    """The axis tops out at a round number of hours, in at most five steps."""
    assert hour_scale(0) == (1, 1)
    assert hour_scale(2.5) == (3, 1)
    assert hour_scale(8.2) == (10, 2)
    assert hour_scale(41) == (50, 10)
    assert hour_scale(1234) == (1235, 247)


@time_machine.travel(NOW, tick=False)
def test_two_learners_each_see_only_their_own_stats(client, learner, other_learner):
    """Pages built one after the other in the same process keep nothing of the one before."""
    CodingSessionFactory(user=learner, day=date(2026, 11, 17), minutes=150)
    WatchEventFactory(
        user=other_learner, minutes=90, at=datetime(2026, 11, 16, 20, 0, tzinfo=PARIS)
    )
    pages = {}
    for user in (learner, other_learner, learner):
        client.force_login(user)
        pages[user.username] = get_english(client).content.decode()
    mine, theirs = pages[learner.username], pages[other_learner.username]
    assert "Week of 16 November: 2\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}30 coded" in mine
    assert "Week of 16 November: 0\N{NO-BREAK SPACE}min watched" in mine
    assert "Week of 16 November: 0\N{NO-BREAK SPACE}min coded" in theirs
    assert "Week of 16 November: 1\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}30 watched" in theirs
    # The calendar of the day is built once per process; each learner's minutes only on a copy.
    assert "Tuesday 17 November 2026: 150 min coded" in mine
    assert "Tuesday 17 November 2026: 0 min coded" in theirs


@pytest.mark.parametrize("language", ["en", "fr"])
def test_dates_are_written_as_the_date_filter_writes_them(language):
    """The view model formats without the date filter (its per-call cost was a tenth of the page):
    the same long date for every month, in both languages, and no abbreviated month."""
    with translation.override(language):
        words = stats_page.words_of(language)
        for day in (date(2026, month, 7 + month) for month in range(1, 13)):
            assert stats_page.day_month_year(day, words) == format_date(day, "j F Y")
            assert words.month_labels[day.month] == format_date(day, "N")


@time_machine.travel(NOW, tick=False)
def test_lengths_of_time_read_as_everywhere_else_in_the_totals_and_the_weeks(
    learner_client, learner
):
    """135 minutes: "2 h 15" in all and in the week, as lib/durations.py writes every length, in
    each language; never hours to a tenth ("2.3", "2,3"), never "Déc"."""
    CodingSessionFactory(user=learner, day=date(2026, 11, 17), minutes=135)
    english = get_english(learner_client).content.decode()
    french = learner_client.get(URL, headers={"accept-language": "fr"}).content.decode()
    assert "<dt>Time coded</dt><dd>2\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}15</dd>" in english
    assert "Week of 16 November: 2\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}15 coded" in english
    assert "<dd>2\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}15</dd>" in french
    assert "Semaine du 16 novembre : 2\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}15 de code" in french
    assert "16 novembre 2026 \N{EN DASH} 22 novembre 2026" in french
    assert "2,3" not in french and "2.3" not in english and "Nov " not in english
    assert "Tuesday 17 November 2026: 135 min coded" in get_english(learner_client).text
