"""Learner B, signed in, aims every per-learner URL at learner A's things: 404 where an id is
named, A's rows untouched, and none of A's data in what B gets back."""

import io
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from progress.models import CodingSession, EditorProject, Note, Profile, Watch, WatchEvent
from tests.factories import (
    PASSWORD,
    CodingSessionFactory,
    FollowedResourceFactory,
    NoteFactory,
    ProfileFactory,
    ResourceFactory,
    WatchEventFactory,
    WatchFactory,
)

pytestmark = pytest.mark.django_db

# Plain words, so that HTML escaping cannot hide a leak from the assertion.
A_SECRETS = [
    "ada@example.com",
    "A private note of Ada",
    "Ada secret kernel",
    "https://ada.example/code",
    "ada-secret-project",
]


def rows_of(user):
    """Every column of every row the learner owns."""
    models = [Profile, Watch, WatchEvent, CodingSession, Note, EditorProject]
    rows = {
        model.__name__: list(model.objects.filter(user=user).order_by("pk").values())
        for model in models
    }
    rows["User"] = list(get_user_model().objects.filter(pk=user.pk).values())
    return rows


@pytest.fixture
def a_things(learner):
    """Ada's watching, sittings, following, coding session and note."""
    lecture = ResourceFactory(slug="lecture", duration_minutes=60)
    course = ResourceFactory(slug="course", kind="course", duration_minutes=720)
    channel = FollowedResourceFactory(slug="channel")
    ProfileFactory(user=learner)
    WatchFactory(user=learner, resource=lecture, finished_at="2025-01-07T19:00:00Z")
    WatchEventFactory(user=learner, resource=lecture, kind="finished", minutes=60)
    WatchFactory(user=learner, resource=course, logged_minutes=95)
    sitting = WatchEventFactory(user=learner, resource=course, minutes=95)
    WatchFactory(user=learner, resource=channel, finished_at="2025-01-07T19:00:00Z")
    session = CodingSessionFactory(
        user=learner,
        resource=lecture,
        built="Ada secret kernel",
        code_url="https://ada.example/code",
    )
    NoteFactory(user=learner, resource=lecture, text="A private note of Ada")
    project = EditorProject.objects.create(user=learner, name="ada-secret-project")
    return {"pk": session.pk, "sitting": sitting.pk, "project": project.pk}


# (URL name, its arguments, method, data, the status B must get)
PROBES = [
    ("progress:coding_session_edit", {"pk": "pk"}, "get", None, 404),
    (
        "progress:coding_session_edit",
        {"pk": "pk"},
        "post",
        {"minutes": "1", "built": "x", "day": "2025-01-08"},
        404,
    ),
    ("progress:coding_session_delete", {"pk": "pk"}, "get", None, 404),
    ("progress:coding_session_delete", {"pk": "pk"}, "post", {}, 404),
    ("progress:note", {"slug": "lecture"}, "get", None, 200),
    ("progress:note", {"slug": "lecture"}, "post", {"text": ""}, 302),
    ("progress:note", {"slug": "lecture"}, "post", {"text": "B's own note"}, 302),
    ("progress:mark_watched", {"slug": "course"}, "post", {}, 200),
    ("progress:mark_watched", {"slug": "course"}, "post", {"confirm": "yes"}, 302),
    ("progress:sitting_edit", {"pk": "sitting"}, "get", None, 404),
    ("progress:sitting_edit", {"pk": "sitting"}, "post", {"minutes": "5"}, 404),
    ("progress:sitting_delete", {"pk": "sitting"}, "get", None, 404),
    ("progress:sitting_delete", {"pk": "sitting"}, "post", {}, 404),
    ("progress:mark_not_watched", {"slug": "lecture"}, "post", {}, 302),
    ("progress:log_sitting", {"slug": "course"}, "post", {"minutes": "30"}, 302),
    ("progress:record_viewing", {"slug": "lecture"}, "post", {}, 400),
    ("progress:mark_not_followed", {"slug": "channel"}, "post", {}, 302),
    ("progress:mark_followed", {"slug": "channel"}, "post", {}, 302),
    ("progress:skip", {"slug": "lecture"}, "post", {}, 302),
    ("progress:unskip", {"slug": "lecture"}, "post", {}, 302),
    ("progress:history", {}, "get", None, 200),
    (
        "progress:coding_session_add",
        {"slug": "lecture"},
        "post",
        {
            "minutes": "5",
            "built": "b",
            "day": "2025-01-08",
            "idempotency_key": "6f1c1b7e-3d0b-4b8e-9d55-2b1f8f0e6a11",
        },
        302,
    ),
    (
        "progress:log_code_today",
        {"slug": "lecture"},
        "post",
        {"minutes": "30", "idempotency_key": "0b7e3c1a-5d2f-4c1e-8a9b-3f6d2e1c4b5a"},
        302,
    ),
    ("progress:coding_log", {}, "get", None, 200),
    ("progress:editor_project", {"pk": "project"}, "get", None, 404),
    ("progress:editor_project", {"pk": "project"}, "post", {"counted": ""}, 404),
    ("accounts:settings", {}, "get", None, 200),
    ("accounts:settings", {}, "post", {"started_on": "2025-02-01", "language": "en"}, 302),
    ("accounts:export_json", {}, "get", None, 200),
    ("accounts:export_csv", {}, "get", None, 200),
    ("accounts:delete_account", {}, "post", {"password": PASSWORD}, 302),
    ("progress:stats", {}, "get", None, 200),
    ("curation:curator_progress", {}, "get", None, 403),
    ("progress:home", {}, "get", None, 200),
    ("progress:path", {}, "get", None, 200),
    ("progress:catalogue", {}, "get", None, 200),
    ("progress:resource_detail", {"slug": "lecture"}, "get", None, 200),
]


def test_the_probes_cover_every_progress_url():
    """Each URL of the progress app is probed (a new one must be added here)."""
    from progress import urls

    assert {f"progress:{pattern.name}" for pattern in urls.urlpatterns} <= {
        probe[0] for probe in PROBES
    }


@pytest.mark.parametrize(
    ("name", "arguments", "method", "data", "status"),
    PROBES,
    ids=[f"{probe[2]} {probe[0]} {index}" for index, probe in enumerate(PROBES)],
)
def test_learner_b_cannot_read_or_change_learner_as_things(
    client, learner, other_learner, a_things, name, arguments, method, data, status
):
    """B's request is answered for B alone: A's rows are unchanged and A's data never shows."""
    before = rows_of(learner)
    client.force_login(other_learner)
    url = reverse(
        name, kwargs={key: a_things.get(value, value) for key, value in arguments.items()}
    )
    response = getattr(client, method)(url, data)

    assert response.status_code == status
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if response.get("Content-Type") == "application/zip":
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            body = b"".join(archive.read(member) for member in archive.namelist())
    for secret in A_SECRETS:
        assert secret.encode() not in body
    assert rows_of(learner) == before
