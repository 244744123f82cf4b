"""What the logs keep of refused requests: one line per client error, none per rate refusal of a
client that authenticates by a header (tests/config/test_logging.py: a sign-in lockout is logged)."""

import logging
import time

from editor.models import EditorKey
from tests.editor.conftest import BULK, basic, cli_heartbeat


def test_rate_refusals_write_no_warning_and_a_bad_request_still_does(
    client, learner, other_learner, redis_cache, settings, caplog
):
    """A key past its limit sends on, as a client replaying its queue does: its 429s stay out of
    the error log, which still says when a request was bad."""
    settings.EDITOR_RATE_LIMIT = 1
    flooding = basic(EditorKey.objects.issue(user=learner))
    beats = [cli_heartbeat(time.time())]
    with caplog.at_level(logging.INFO, logger="django.request"):
        statuses = [
            client.post(BULK, beats, content_type="application/json", headers=flooding).status_code
            for _request in range(6)
        ]
        other = basic(EditorKey.objects.issue(user=other_learner))
        bad = client.post(BULK, b"{not json", content_type="application/json", headers=other)

    assert statuses == [201] + [429] * 5
    assert bad.status_code == 400
    assert [(r.name, r.status_code) for r in caplog.records if r.name == "django.request"] == [
        ("django.request", 400)
    ]
