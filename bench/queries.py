"""The number of queries each benchmarked target runs for one learner, at the learner's data and
at ten times it: a page built to be fast runs the same number whatever the data size.

"10x" is the learner's own coding sessions and watch events copied until there are ten times as
many (watch states and notes are one per resource at most, the curriculum is the curriculum);
the copies are rolled back afterwards. Run by bench/run.py, which writes the counts as JSON for
its report:

    python bench/queries.py OUT.json '[["GET", "/"], ["POST", "/resources/x/watched/"]]'

writes {"data": {"learners": ..., ...}, "learner": id, "queries": [[method, path, 1x, 10x], ...]}.
"""

import base64
import itertools
import json
import os
import sys
import time
import uuid
from pathlib import Path

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

# Under the outer transaction that rolls the copies back, a view's own transaction becomes a
# savepoint; on a server it is the outermost one and sends no such statement, so none is counted.
SAVEPOINT_STATEMENTS = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def count_queries(client, method, path):
    """(status code, number of queries) of one request, as the benchmark sends it."""
    from bench import BODIES, EDITOR_PATHS, concrete

    headers = {"HX-Request": "true"} if method == "POST" else {}
    if path in EDITOR_PATHS:
        headers = {"Authorization": f"Basic {EDITOR_AUTHORIZATION[client]}"}
    # New heartbeats each time, half an hour after the last request's: a resend writes nothing.
    body = concrete(BODIES.get(path, ""), start=time.time() - 3600 + 1800 * next(_SENT))
    content_type = "application/json" if body else "application/octet-stream"
    with CaptureQueriesContext(connection) as captured:
        response = client.generic(method, path, body, content_type, headers=headers)
    statements = [query["sql"] for query in captured.captured_queries]
    return response.status_code, sum(not sql.startswith(SAVEPOINT_STATEMENTS) for sql in statements)


_SENT = itertools.count()

# The Authorization each test client sends to the editor's endpoint (its learner's editor key).
EDITOR_AUTHORIZATION = {}


def multiply_learner_data(user, factor):
    """Copy the learner's coding sessions, watch events, viewing sessions and editor heartbeats
    until there are `factor` times as many (time from the editor is one session per day and
    project: more heartbeats, not more sessions)."""
    from progress.models import CodingSession, Heartbeat, Viewing, WatchEvent

    sessions = list(CodingSession.objects.filter(user=user).typed())
    beats = list(Heartbeat.objects.filter(user=user))
    events = list(WatchEvent.objects.filter(user=user))
    viewings = list(Viewing.objects.filter(user=user))
    copies, event_copies, viewing_copies, beat_copies = [], [], [], []
    for _ in range(factor - 1):
        for viewing in viewings:
            viewing.pk, viewing.key, viewing.sitting_id = None, uuid.uuid4(), None
            viewing_copies.append(Viewing(**_fields(viewing)))
        for session in sessions:
            session.pk, session.idempotency_key = None, uuid.uuid4()
            copies.append(CodingSession(**_fields(session)))
        for event in events:
            event.pk = None
            event_copies.append(WatchEvent(**_fields(event)))
        for beat in beats:
            beat.pk, beat.entity_digest = None, uuid.uuid4().hex
            beat_copies.append(Heartbeat(**_fields(beat)))
    CodingSession.objects.bulk_create(copies, batch_size=5_000)
    WatchEvent.objects.bulk_create(event_copies, batch_size=5_000)
    Viewing.objects.bulk_create(viewing_copies, batch_size=5_000)
    Heartbeat.objects.bulk_create(beat_copies, batch_size=5_000)


def _fields(instance):
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if not field.primary_key
    }


def counts_at_two_sizes(client, user, targets, factor=10):
    """{(method, path): (queries at the learner's data, at `factor` times it)}.

    Each target is asked once first: the process builds its curriculum then, and the POST puts
    the learner in the state the benchmark's repeated POSTs keep them in.
    """
    from editor.models import EditorKey

    with transaction.atomic():
        key = EditorKey.objects.issue(user=user)  # rolled back with the rest
        EDITOR_AUTHORIZATION[client] = base64.b64encode(key.encode()).decode()
        for method, path in targets:
            _answered(client, method, path)
        at_1x = {target: _answered(client, *target) for target in targets}
        multiply_learner_data(user, factor)
        at_10x = {target: _answered(client, *target) for target in targets}
        transaction.set_rollback(True)
    return {target: (at_1x[target], at_10x[target]) for target in targets}


def _answered(client, method, path):
    status, queries = count_queries(client, method, path)
    from bench import STATUS

    if status != STATUS.get(path, 200):
        raise RuntimeError(f"{method} {path} answered {status}")
    return queries


def learner_with_data():
    """The first learner (by id) who has both coding sessions and watch events, among the members
    of the benchmark's study group when there is one (its board answers them only)."""
    from django.contrib.auth import get_user_model

    from bench import BOARD_SLUG
    from groups.models import Membership
    from progress.models import CodingSession, WatchEvent

    learners = (
        get_user_model()
        .objects.filter(is_staff=False)
        .filter(pk__in=CodingSession.objects.values("user"))
        .filter(pk__in=WatchEvent.objects.values("user"))
        .order_by("pk")
    )
    members = Membership.objects.filter(group__slug=BOARD_SLUG).values("user")
    return learners.filter(pk__in=members).first() or learners.first()


def data_size():
    """How many learners and rows the database holds, for the report."""
    from django.contrib.auth import get_user_model

    from progress.models import CodingSession, WatchEvent

    return {
        "learners": get_user_model().objects.filter(is_staff=False).count(),
        "coding_sessions": CodingSession.objects.count(),
        "watch_events": WatchEvent.objects.count(),
    }


def main(out, targets):
    import django

    django.setup()
    from django.test import Client

    host = os.environ.get("ALLOWED_HOSTS", "localhost").split(",")[0]
    client = Client(HTTP_HOST=host)
    user = learner_with_data()
    client.force_login(user)
    counts = counts_at_two_sizes(client, user, [tuple(target) for target in targets])
    Path(out).write_text(
        json.dumps(
            {
                "data": data_size(),
                "learner": user.pk,
                "queries": [[method, path, *pair] for (method, path), pair in counts.items()],
            }
        )
    )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    main(sys.argv[1], json.loads(sys.argv[2]))
