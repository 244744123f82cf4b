"""The group board: members only, what each chose to show, sorted, in a fixed number of queries."""

import pytest
from django.urls import reverse

from groups import actions
from groups.models import Membership
from progress import actions as progress_actions
from tests.factories import CodingSessionFactory, NoteFactory, UserFactory
from tests.groups.conftest import membership

pytestmark = pytest.mark.django_db


def board_url(group, **query):
    url = reverse("groups:board", args=[group.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_a_member_sees_every_member_with_their_progress(
    client_of, learner, other_learner, group, small_path
):
    """Grace marked a lecture watched and coded: Ada's board shows it."""
    progress_actions.mark_watched(user=other_learner, resource=small_path.lectures[0])
    CodingSessionFactory(user=other_learner, resource=small_path.lectures[0], minutes=180)
    response = client_of(learner).get(board_url(group))
    assert response.status_code == 200
    rows = {row.name: row for row in response.context["rows"]}
    assert set(rows) == {"Ada L.", "Grace H."}
    assert rows["Grace H."].progress.steps_done == 1
    assert rows["Grace H."].progress.steps_total == 3
    assert rows["Grace H."].week.watched == 60
    assert rows["Grace H."].week.is_met
    assert rows["Grace H."].streak == 1
    assert rows["Ada L."].last_active is None
    body = response.content.decode()
    assert "Étapes : 1 sur 3" in body
    assert "Week 1" in body


def test_notes_usernames_and_emails_are_never_on_the_board(
    client_of, learner, other_learner, group, small_path
):
    """A note, the username and the e-mail address of a member stay off the page."""
    NoteFactory(user=other_learner, resource=small_path.lectures[0], text="my secret thoughts")
    body = client_of(learner).get(board_url(group)).content.decode()
    assert "my secret thoughts" not in body
    assert "grace@example.com" not in body
    assert "grace" not in body.replace("Grace H.", "")


def test_coding_descriptions_show_only_for_members_who_share_them(
    client_of, learner, other_learner, group, small_path
):
    """Grace shares what she coded, Ada does not: only Grace's session is on the board."""
    CodingSessionFactory(
        user=other_learner, resource=small_path.lectures[0], built="A tiled matmul"
    )
    CodingSessionFactory(
        user=learner, resource=small_path.lectures[0], built="Ada's private kernel"
    )
    body = client_of(other_learner).get(board_url(group)).content.decode()
    assert "A tiled matmul" in body
    assert "private kernel" not in body


def test_the_board_sorts_by_the_chosen_column(client_of, learner, other_learner, group, small_path):
    """By progress, Grace (one step) comes before Ada (none); by name, Ada first."""
    progress_actions.mark_watched(user=other_learner, resource=small_path.lectures[0])
    client = client_of(learner)
    by_progress = client.get(board_url(group, sort="progress")).context["rows"]
    by_name = client.get(board_url(group, sort="name")).context["rows"]
    unknown = client.get(board_url(group, sort="<script>")).context["rows"]
    assert [row.name for row in by_progress] == ["Grace H.", "Ada L."]
    assert [row.name for row in by_name] == ["Ada L.", "Grace H."]
    assert [row.name for row in unknown] == ["Grace H.", "Ada L."]


def test_leaving_removes_ones_row_from_the_board_at_once(client_of, learner, other_learner, group):
    """Grace leaves: Ada's next look at the board no longer shows her."""
    client = client_of(other_learner)
    response = client.post(reverse("groups:leave", args=[group.slug]))
    assert response.status_code == 302
    assert client.get(board_url(group)).status_code == 404
    rows = client_of(learner).get(board_url(group)).context["rows"]
    assert [row.name for row in rows] == ["Ada L."]
    assert not Membership.objects.filter(user=other_learner).exists()


def test_a_member_changes_their_name_and_what_they_show(client_of, other_learner, group):
    """The form on the board saves the display name and the choice of what to show."""
    response = client_of(other_learner).post(
        reverse("groups:update_membership", args=[group.slug]),
        {"display_name": "G. Hopper", "shares": "progress"},
    )
    assert response.status_code == 302
    mine = membership(group, other_learner)
    assert (mine.display_name, mine.shares) == ("G. Hopper", "progress")


def test_a_bad_choice_changes_nothing(client_of, other_learner, group):
    response = client_of(other_learner).post(
        reverse("groups:update_membership", args=[group.slug]),
        {"display_name": "  ", "shares": "everything"},
    )
    assert response.status_code == 400
    mine = membership(group, other_learner)
    assert (mine.display_name, mine.shares) == ("Grace H.", "coding")


def group_of(size, small_path):
    """A group of size members, each with watching, coding and a note."""
    owner = UserFactory()
    group = actions.create_group(owner=owner, name=f"Group of {size}", display_name="Owner")
    invitation, _token = actions.create_link(group=group, days=7, max_uses=50)
    for index in range(size - 1):
        user = UserFactory()
        actions.join(user=user, invitation=invitation, display_name=f"M{index}", shares="coding")
        progress_actions.mark_watched(user=user, resource=small_path.lectures[index % 3])
        CodingSessionFactory(user=user, resource=small_path.lectures[0])
        NoteFactory(user=user, resource=small_path.lectures[0])
    return owner, group


@pytest.mark.parametrize("size", [5, 50])
def test_the_board_takes_the_same_queries_at_5_and_50_members(
    client, small_path, size, django_assert_num_queries
):
    """Session, user, membership, members, then the board's computation: 13 queries either way."""
    owner, group = group_of(size, small_path)
    client.force_login(owner)
    client.get(board_url(group))  # the curriculum structure is built once per process
    with django_assert_num_queries(13):
        response = client.get(board_url(group))
    assert len(response.context["rows"]) == size


def test_the_board_speaks_english_too(client_of, learner, other_learner, group, small_path):
    progress_actions.mark_watched(user=other_learner, resource=small_path.lectures[0])
    body = client_of(learner).get(board_url(group), headers={"accept-language": "en"})
    html = body.content.decode()
    assert "Steps: 1 of 3" in html
    assert "Coding streak" in html
    assert "Sort by:" in html


def test_the_board_shows_a_members_five_latest_sessions_of_the_week(
    client_of, learner, other_learner, group, small_path
):
    """Seven sessions this week: the five latest are listed, newest first."""
    for number in range(7):
        CodingSessionFactory(
            user=other_learner, resource=small_path.lectures[0], built=f"Kernel #{number}"
        )
    rows = client_of(learner).get(board_url(group)).context["rows"]
    grace = next(row for row in rows if row.name == "Grace H.")
    assert [session["built"] for session in grace.coding] == [
        f"Kernel #{n}" for n in (6, 5, 4, 3, 2)
    ]
