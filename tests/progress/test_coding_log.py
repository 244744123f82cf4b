import re
import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from progress.models import CodingSession
from tests.factories import ChapterFactory, CodingSessionFactory, ResourceFactory, SeriesFactory
from tests.pages import field_errors

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
URL = "/coding/"


def session_data(**overrides):
    data = {
        "day": timezone.localdate().isoformat(),
        "minutes": "90",
        "built": "A tiled matmul",
        "code_url": "https://github.com/ada/kernels",
        "resource": str(ResourceFactory().pk),
        "chapter": "",
        "idempotency_key": str(uuid.uuid4()),
    }
    return {**data, **overrides}


def test_the_url_is_named_coding_log():
    """The coding log is reversed as progress:coding_log."""
    assert reverse("progress:coding_log") == URL


def test_it_lists_only_the_learners_sessions_newest_first(learner_client, learner, other_learner):
    """Sessions are the learner's own, newest day first."""
    today = timezone.localdate()
    CodingSessionFactory(user=learner, built="older kernel", day=today - timedelta(days=3))
    CodingSessionFactory(user=learner, built="newer kernel", day=today)
    CodingSessionFactory(user=other_learner, built="grace's secret kernel")
    html = learner_client.get(URL, headers=EN).content.decode()
    assert html.index("newer kernel") < html.index("older kernel")
    assert "grace's secret kernel" not in html


def test_the_add_form_defaults_to_today_and_carries_a_fresh_key(learner_client):
    """The form's day is today in the site's time zone; each rendering gets a new hidden key."""
    first, second = (learner_client.get(URL).content.decode() for _ in range(2))
    assert f'name="day" value="{timezone.localdate().isoformat()}"' in first
    key = re.compile(r'type="hidden" name="idempotency_key" value="([0-9a-f-]{36})"')
    assert key.search(first)[1] != key.search(second)[1]


def test_the_selects_group_resources_by_series_and_chapters_by_part(learner_client):
    """Resources come in optgroups named after their series, chapters after their part."""
    ResourceFactory(title="Lecture one", series=SeriesFactory(name="GPU MODE"))
    ChapterFactory(part__number=2, number=5)
    html = learner_client.get(URL, headers=EN).content.decode()
    assert '<optgroup label="GPU MODE">' in html
    assert '<optgroup label="Part 2">' in html


def test_it_adds_a_session_and_redirects_with_a_message(learner_client, learner):
    """A valid POST saves one session for the learner and redirects back to the log."""
    data = session_data()
    response = learner_client.post(URL, data, headers=EN, follow=True)
    assert response.redirect_chain == [(URL, 302)]
    assert "Coding session saved." in response.content.decode()
    session = CodingSession.objects.get(user=learner)
    assert (session.minutes, session.built, str(session.idempotency_key)) == (
        90,
        "A tiled matmul",
        data["idempotency_key"],
    )


def test_a_session_tied_to_a_chapter_only_is_accepted(learner_client, learner):
    """A chapter alone is enough to tie a session."""
    chapter = ChapterFactory()
    learner_client.post(URL, session_data(resource="", chapter=str(chapter.pk)))
    assert CodingSession.objects.get(user=learner).chapter == chapter


def test_a_double_submit_creates_one_session(learner_client, learner):
    """The same form posted twice (double click, resent POST) saves one session, lands the same."""
    data = session_data()
    first = learner_client.post(URL, data)
    second = learner_client.post(URL, data, headers=EN, follow=True)
    assert first.url == URL
    assert second.redirect_chain == [(URL, 302)]
    assert "This coding session was already saved." in second.content.decode()
    assert CodingSession.objects.filter(user=learner).count() == 1


def test_two_learners_may_send_the_same_key(learner_client, learner, other_learner):
    """The key is unique per learner, not across learners."""
    data = session_data()
    CodingSessionFactory(user=other_learner, idempotency_key=data["idempotency_key"])
    learner_client.post(URL, data)
    assert CodingSession.objects.filter(user=learner).count() == 1


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("minutes", "0", "Enter between 1 and 1440 minutes (24 h)."),
        ("minutes", "-30", "Enter between 1 and 1440 minutes (24 h)."),
        ("minutes", "1441", "Enter between 1 and 1440 minutes (24 h)."),
        ("minutes", "lots", "Enter a whole number."),
        ("day", "1999-12-31", "The day cannot be before 2000."),
        ("code_url", "javascript:alert(1)", "Enter a web address that starts with http"),
        ("code_url", "ftp://example.com/code", "Enter a web address that starts with http"),
        ("built", "", "This field is required."),
    ],
)
def test_bad_input_gets_a_field_error_and_saves_nothing(learner_client, field, value, error):
    """Out-of-range minutes, old days, non-web links: the form comes back with the error."""
    response = learner_client.post(URL, session_data(**{field: value}), headers=EN)
    assert response.status_code == 200
    assert error in " ".join(field_errors(response, field))
    assert CodingSession.objects.count() == 0


def test_a_day_in_the_future_is_refused(learner_client):
    """Tomorrow has not been coded yet."""
    tomorrow = (timezone.localdate() + timedelta(days=1)).isoformat()
    response = learner_client.post(URL, session_data(day=tomorrow), headers=EN)
    assert field_errors(response, "day") == ["The day cannot be in the future."]
    assert CodingSession.objects.count() == 0


def test_a_session_tied_to_nothing_is_refused(learner_client):
    """Neither a resource nor a chapter: a clear error on the resource field, nothing saved."""
    response = learner_client.post(URL, session_data(resource="", chapter=""), headers=EN)
    assert field_errors(response, "resource") == [
        "Choose the resource or the chapter this session practised."
    ]
    assert "Choose the resource or the chapter this session practised." in (
        response.content.decode()
    )
    assert CodingSession.objects.count() == 0


def test_markup_in_what_was_built_is_shown_as_text(learner_client, learner):
    """A <script> in the description is escaped on the page."""
    CodingSessionFactory(user=learner, built="<script>alert('x')</script>")
    html = learner_client.get(URL).content.decode()
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html


def test_a_links_address_is_escaped_in_its_attribute(learner_client, learner):
    """An & or a quote in the link to the code cannot end the row's href."""
    CodingSessionFactory(user=learner, code_url='https://example.com/?a=1&b="x"')
    html = learner_client.get(URL).content.decode()
    assert 'href="https://example.com/?a=1&amp;b=&#34;x&#34;" rel="noopener nofollow"' in html


def test_sessions_are_paged(learner_client, learner):
    """Twenty sessions a page, with a link to older ones."""
    CodingSessionFactory.create_batch(25, user=learner)
    first = learner_client.get(URL, headers=EN)
    second = learner_client.get(URL, {"page": 2}, headers=EN)
    assert first.content.decode().count('<tr id="session-') == 20
    assert second.content.decode().count('<tr id="session-') == 5
    assert "Older sessions" in first.content.decode()
    assert "Page 2 of 2" in second.content.decode()


def test_a_curators_edit_of_a_title_is_on_the_next_coding_log(learner_client, learner):
    """The rows' titles come from the curriculum built once per revision: an edit rebuilds it."""
    resource = ResourceFactory(title="Old title", series=None)
    CodingSessionFactory(user=learner, resource=resource)
    assert "Old title" in learner_client.get(URL, headers=EN).content.decode()
    resource.title = "New title"
    resource.save()
    html = learner_client.get(URL, headers=EN).content.decode()
    assert "New title" in html and "Old title" not in html


def test_with_the_seed_every_resource_sits_in_its_series_group(learner_client, seed):
    """The guide's resources are not one flat list: each option of the resource select is in an
    optgroup named after a series, GPU MODE's lectures together."""
    html = learner_client.get(URL, headers=EN).content.decode()
    select = re.search(r'<select name="resource".*?</select>', html, re.S).group(0)
    groups = re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', select, re.S)
    labels = [label for label, _options in groups]
    assert "GPU MODE" in labels and len(labels) == len(set(labels)) >= 5
    outside = re.sub(r"<optgroup.*?</optgroup>", "", select, flags=re.S)
    assert re.findall(r'<option value="(\d+)"', outside) == []
    gpu_mode = dict(groups)["GPU MODE"]
    assert "Reductions" in gpu_mode and "How GPU Computing Works" not in gpu_mode
