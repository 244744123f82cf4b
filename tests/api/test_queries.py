"""Each operation of the API takes a fixed number of queries, whatever the learner's data: one
table, at one and ten times the data (the curriculum's cache is filled and the token's last use
written before counting)."""

import pytest

from curriculum import structure
from progress import actions
from tests.factories import CodingSessionFactory, NoteFactory

pytestmark = pytest.mark.django_db

SESSION = {"minutes": 30, "built": "A scan", "resource": "gpu-mode-3"}

# Marking watched: a transaction of the same statements on both databases (progress/actions.py).
MARKING = 10

# (method, path, body, queries); {session} is a session of the learner's.
OPERATIONS = [
    ("get", "/me", None, 1),
    ("get", "/summary", None, 9),
    ("get", "/resources", None, 3),
    ("get", "/resources/freecodecamp", None, 7),
    ("post", "/resources/gpu-mode-4/watched", None, MARKING),
    ("post", "/resources/freecodecamp/sittings", {"minutes": 30}, 12),
    ("get", "/resources/freecodecamp/note", None, 3),
    ("put", "/resources/freecodecamp/note", {"text": "Shared memory"}, 5),
    ("get", "/sessions", None, 2),
    ("get", "/sessions/{session}", None, 2),
    ("post", "/sessions", SESSION, 12),
    ("patch", "/sessions/{session}", {"minutes": 45}, 10),
    ("delete", "/sessions/{session}", None, 3),
]


def learner_data(learner, seed_path, times):
    # Not the resources the operations change: marking twice would change nothing.
    others = [r for r in seed_path.watchable if r.slug not in {"gpu-mode-4", "freecodecamp"}]
    for resource in others[:times]:
        actions.mark_watched(user=learner, resource=resource)
    sessions = [
        CodingSessionFactory(user=learner, resource=seed_path.lectures[0]) for _ in range(times)
    ]
    NoteFactory(user=learner, resource=seed_path.lectures[0])
    return sessions[0]


@pytest.mark.parametrize("times", [1, 10])
@pytest.mark.parametrize(("method", "path", "body", "queries"), OPERATIONS)
def test_an_operation_takes_a_fixed_number_of_queries(
    api, learner, seed_path, django_assert_num_queries, times, method, path, body, queries
):
    session = learner_data(learner, seed_path, times)
    path = path.format(session=session.pk)
    call = (lambda: api.get(path)) if method == "get" else (lambda: api.send(method, path, body))
    structure.current()
    api.get("/me")
    with django_assert_num_queries(queries):
        response = call()
    assert response.status_code in {200, 201, 204}, response.content
