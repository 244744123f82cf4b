"""Characters no column can hold, and JSON types that are not numbers, get a 422 naming the field.

PostgreSQL text cannot hold NUL, and no UTF-8 column can hold a lone UTF-16 surrogate (JSON's
"\\ud800" decodes to one): both used to reach the database and answer 500. JSON true used to
be read as 1 minute. Run on PostgreSQL too (DATABASE_URL), where NUL used to fail.
"""

import pytest

from progress.models import CodingSession, Note, Watch, WatchEvent
from tests.factories import CodingSessionFactory, ResourceFactory

pytestmark = pytest.mark.django_db

NUL = "\x00"
SURROGATES = ["\ud800", "ok\udfff", "\udc00 and \ud83d"]


@pytest.fixture
def kernel(db):
    return ResourceFactory(slug="gpu-mode-9", title="Reductions", kind="lecture")


@pytest.fixture
def course(db):
    return ResourceFactory(slug="freecodecamp", kind="course", duration_minutes=720)


def assert_refused(response, field):
    assert response.status_code == 422, response.content
    body = response.json()
    assert body["error"] == "invalid"
    assert field in body["fields"]
    assert body["message"].startswith(f"{field}: ")


def nothing_written():
    return not (
        CodingSession.objects.exists()
        or Note.objects.exists()
        or Watch.objects.exists()
        or WatchEvent.objects.exists()
    )


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/resources/%00"),
        ("get", "/resources/a%00b"),
        ("get", "/resources/%00/note"),
        ("put", "/resources/%00/note"),
        ("post", "/resources/%00/watched"),
        ("post", "/resources/a%00b/not-watched"),
        ("post", "/resources/%00/followed"),
        ("post", "/resources/%00/not-followed"),
        ("post", "/resources/%00/sittings"),
    ],
)
def test_a_nul_in_a_resource_slug_is_refused(api, kernel, method, path):
    body = {"text": "A note"} if path.endswith("note") else {"minutes": 30}
    response = api.get(path) if method == "get" else api.send(method, path, body)
    assert_refused(response, "slug")
    assert nothing_written()


@pytest.mark.parametrize("field", ["resource", "chapter"])
def test_a_nul_in_what_a_new_session_practised_is_refused(api, kernel, field):
    body = {"minutes": 30, "built": "A kernel", "resource": "gpu-mode-9", field: f"a{NUL}"}
    assert_refused(api.post("/sessions", body), field)
    assert nothing_written()


@pytest.mark.parametrize("field", ["resource", "chapter"])
def test_a_nul_in_what_a_session_practised_is_refused_on_update(api, learner, kernel, field):
    session = CodingSessionFactory(user=learner, resource=kernel, built="Before")
    assert_refused(api.patch(f"/sessions/{session.pk}", {field: NUL}), field)
    session.refresh_from_db()
    assert (session.resource, session.chapter, session.built) == (kernel, None, "Before")


@pytest.mark.parametrize("text", SURROGATES)
def test_a_lone_surrogate_in_a_note_is_refused(api, kernel, text):
    assert_refused(api.put("/resources/gpu-mode-9/note", {"text": text}), "text")
    assert nothing_written()


@pytest.mark.parametrize("text", SURROGATES)
@pytest.mark.parametrize("field", ["built", "code_url", "resource", "chapter"])
def test_a_lone_surrogate_in_a_new_session_is_refused(api, kernel, field, text):
    body = {"minutes": 30, "built": "A kernel", "resource": "gpu-mode-9", field: text}
    assert_refused(api.post("/sessions", body), field)
    assert nothing_written()


@pytest.mark.parametrize("field", ["built", "code_url", "resource", "chapter"])
def test_a_lone_surrogate_is_refused_on_update(api, learner, kernel, field):
    session = CodingSessionFactory(user=learner, resource=kernel, built="Before")
    assert_refused(api.patch(f"/sessions/{session.pk}", {field: "\ud800"}), field)
    session.refresh_from_db()
    assert (session.resource, session.built) == (kernel, "Before")


@pytest.mark.parametrize("field", ["q", "kind", "series", "guide", "architecture"])
def test_a_nul_in_a_catalogue_filter_is_refused(api, kernel, field):
    assert_refused(api.get("/resources", **{field: f"a{NUL}"}), field)


def test_a_surrogate_sent_in_a_query_string_is_read_as_a_replacement_character(client, api, kernel):
    """A query string is bytes: an encoded surrogate decodes to U+FFFD and finds nothing."""
    response = client.get("/api/v1/resources?q=%ED%A0%80", headers=api.headers)
    assert response.status_code == 200
    assert response.json() == []


@pytest.mark.parametrize("value", [True, False, "30", 30.0, [30]])
def test_minutes_of_a_new_session_must_be_a_json_number(api, kernel, value):
    body = {"minutes": value, "built": "A kernel", "resource": "gpu-mode-9"}
    assert_refused(api.post("/sessions", body), "minutes")
    assert nothing_written()


@pytest.mark.parametrize("value", [True, False, "30"])
def test_minutes_of_an_update_must_be_a_json_number(api, learner, kernel, value):
    session = CodingSessionFactory(user=learner, resource=kernel, minutes=45)
    assert_refused(api.patch(f"/sessions/{session.pk}", {"minutes": value}), "minutes")
    session.refresh_from_db()
    assert session.minutes == 45


@pytest.mark.parametrize("value", [True, False, "30"])
def test_minutes_of_a_sitting_must_be_a_json_number(api, course, value):
    assert_refused(api.post("/resources/freecodecamp/sittings", {"minutes": value}), "minutes")
    assert nothing_written()


def test_plain_text_and_numbers_still_work(api, kernel):
    """The checks refuse only what no column holds: accents, emoji and CJK text are kept."""
    body = {"minutes": 30, "built": "Réduction 🚀 归约", "resource": "gpu-mode-9"}
    assert api.post("/sessions", body).status_code == 201
    assert api.put("/resources/gpu-mode-9/note", {"text": "Très bien 👍"}).status_code == 200
    assert CodingSession.objects.get().built == "Réduction 🚀 归约"
    assert Note.objects.get().text == "Très bien 👍"
