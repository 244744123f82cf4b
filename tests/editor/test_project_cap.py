"""A learner has at most MAX_PROJECTS_PER_LEARNER editor projects: heartbeats of a project past
it are taken (201) and count under the unnamed project; no project row is made for them."""

from progress.editor_time import MAX_PROJECTS_PER_LEARNER
from progress.models import CodingSession, EditorProject
from tests.editor.conftest import BULK, an_hour_ago_for, cli_heartbeat


def test_past_the_cap_a_new_project_makes_no_row_and_its_time_still_counts(send, learner):
    EditorProject.objects.bulk_create(
        [EditorProject(user=learner, name=f"old-{n}") for n in range(MAX_PROJECTS_PER_LEARNER)]
    )
    start = an_hour_ago_for(minutes=5)
    beats = [cli_heartbeat(start + 60 * n, project="one-too-many") for n in range(5)]
    response = send(BULK, beats)
    assert response.status_code == 201
    assert [answer[1] for answer in response.json()["responses"]] == [201] * 5
    assert EditorProject.objects.filter(user=learner).count() == MAX_PROJECTS_PER_LEARNER + 1
    assert not EditorProject.objects.filter(name="one-too-many").exists()
    session = CodingSession.objects.get(user=learner)
    assert (session.editor_project, session.minutes) == ("", 4)


def test_a_known_project_keeps_counting_at_the_cap(send, learner):
    EditorProject.objects.bulk_create(
        [EditorProject(user=learner, name=f"p-{n}") for n in range(MAX_PROJECTS_PER_LEARNER)]
    )
    start = an_hour_ago_for(minutes=3)
    response = send(BULK, [cli_heartbeat(start + 60 * n, project="p-7") for n in range(3)])
    assert response.status_code == 201
    session = CodingSession.objects.get(user=learner)
    assert (session.editor_project, session.minutes) == ("p-7", 2)


def test_below_the_cap_a_bulk_of_new_projects_fills_it_and_no_more(send, learner):
    EditorProject.objects.bulk_create(
        [EditorProject(user=learner, name=f"p-{n}") for n in range(MAX_PROJECTS_PER_LEARNER - 1)]
    )
    start = an_hour_ago_for(minutes=3)
    beats = [cli_heartbeat(start + 60 * n, project=f"new-{n}") for n in range(3)]
    assert send(BULK, beats).status_code == 201
    names = set(EditorProject.objects.filter(user=learner).values_list("name", flat=True))
    assert len(names - {""}) == MAX_PROJECTS_PER_LEARNER
    assert "new-0" in names and "new-1" not in names and "new-2" not in names
