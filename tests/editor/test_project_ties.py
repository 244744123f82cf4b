"""On the coding log, an editor project is tied to a resource or a chapter, or not counted."""

import time

import pytest

from progress.models import CodingSession, EditorProject
from tests.editor.conftest import BULK, cli_heartbeat
from tests.factories import ChapterFactory, ResourceFactory

EN = {"accept-language": "en"}


@pytest.fixture
def project(send, learner):
    start = time.time() - 3600
    send(BULK, [cli_heartbeat(start + 60 * minute) for minute in range(11)])
    return EditorProject.objects.get(user=learner, name="kernels")


def test_the_coding_log_lists_the_projects(learner_client, project):
    html = learner_client.get("/coding/", headers=EN).content.decode()
    assert "Projects from the editor" in html
    assert (
        f"/coding/projects/{project.pk}/" in html and "counts in the overall balance only" in html
    )


def test_tying_a_project_moves_its_time_to_the_resource(learner_client, project):
    resource = ResourceFactory()
    response = learner_client.post(
        f"/coding/projects/{project.pk}/", {"resource": resource.pk, "counted": "on"}
    )
    assert response.status_code == 302
    assert CodingSession.objects.from_editor().get().resource == resource
    assert CodingSession.objects.for_learner(project.user).minutes_by_resource([resource]) == {
        resource.pk: 10
    }


def test_later_heartbeats_count_where_the_project_is_tied(learner_client, project, send):
    chapter = ChapterFactory()
    learner_client.post(f"/coding/projects/{project.pk}/", {"chapter": chapter.pk, "counted": "on"})
    send(BULK, [cli_heartbeat(time.time() - 3600 + 60 * 12)])
    session = CodingSession.objects.from_editor().get()
    assert (session.chapter, session.resource, session.minutes) == (chapter, None, 12)


def test_a_project_not_counted_has_no_time_and_counts_again_when_asked(learner_client, project):
    learner_client.post(f"/coding/projects/{project.pk}/", {})
    assert not CodingSession.objects.exists()
    learner_client.post(f"/coding/projects/{project.pk}/", {"counted": "on"})
    assert CodingSession.objects.from_editor().get().minutes == 10


def test_a_resource_and_a_chapter_at_once_is_refused(learner_client, project):
    resource, chapter = ResourceFactory(), ChapterFactory()
    data = {"resource": resource.pk, "chapter": chapter.pk, "counted": "on"}
    response = learner_client.post(f"/coding/projects/{project.pk}/", data, headers=EN)
    assert response.status_code == 200 and "not both" in response.content.decode()
    assert CodingSession.objects.from_editor().get().resource is None


def test_someone_else_s_project_is_not_found(client, other_learner, project):
    client.force_login(other_learner)
    assert client.get(f"/coding/projects/{project.pk}/").status_code == 404
    assert client.post(f"/coding/projects/{project.pk}/", {}).status_code == 404
    assert CodingSession.objects.from_editor().exists()
