"""The player's beats sent at once (PostgreSQL only: SQLite serialises every write, so nothing can
race): the watch row's lock serializes them, the visit's row read without a lock of its own."""

import json
import uuid

from django.urls import reverse

from progress.models import Viewing, WatchEvent
from tests.factories import ResourceFactory, UserFactory
from tests.progress.test_concurrency import RACES, run_at_once, signed_in_clients
from tests.progress.test_sitting_concurrency import exact_totals

pytestmark = RACES

# Under the 30 beats a minute one learner may send (progress/views/viewing.py).
BEATS = 20


def test_the_same_beat_sent_twenty_times_at_once_counts_once():
    """A visit's beat of 50 s sent twenty times at once: one visit, one sitting of one minute, the
    totals exact, and no error from the first beats racing to make the rows."""
    learner = UserFactory(username="ada")
    video = ResourceFactory(duration_minutes=60, watch_url="https://youtu.be/09wntC6BT5o")
    body = json.dumps({"viewing": str(uuid.uuid4()), "duration": 3600, "ranges": [[0, 50]]})
    clients = signed_in_clients(learner, count=BEATS)
    url = reverse("progress:record_viewing", args=[video.slug])

    responses = run_at_once(
        lambda index: clients[index].post(url, body, content_type="application/json"),
        count=BEATS,
    )

    assert [response.status_code for response in responses] == [200] * BEATS
    assert [viewing.ranges for viewing in Viewing.objects.filter(user=learner)] == [[[0, 50]]]
    sittings = WatchEvent.objects.for_learner(learner).values_list("kind", "logged_minutes")
    assert list(sittings) == [("sitting", 1)]
    assert exact_totals(learner, video) == 1
