"""File paths and branch names are the learner's alone: not on a group board, not on a share page."""

import time

from editor.models import EditorKey
from groups import actions
from tests.editor.conftest import BULK, basic, cli_heartbeat

PATH = "/home/grace/secret-project/attention.cu"
BRANCH = "feature/interview-prep"


def grace_codes(client, other_learner):
    key = EditorKey.objects.issue(user=other_learner)
    start = time.time() - 1800
    beats = [cli_heartbeat(start + 120 * n, entity=PATH, branch=BRANCH) for n in range(6)]
    assert (
        client.post(BULK, beats, content_type="application/json", headers=basic(key)).status_code
        == 201
    )


def test_the_group_board_shows_editor_time_without_path_or_branch(
    client, learner, other_learner, group
):
    grace_codes(client, other_learner)
    client.force_login(learner)
    response = client.get(f"/groups/{group.slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "kernels" in html  # the project's day total, shared as coding
    assert PATH not in html and "secret-project" not in html and BRANCH not in html


def test_the_share_page_shows_no_path_or_branch(client, other_learner):
    grace_codes(client, other_learner)
    _link, token = actions.share(user=other_learner, display_name="Grace")
    response = client.get(f"/share/{token}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert PATH not in html and "secret-project" not in html and BRANCH not in html
