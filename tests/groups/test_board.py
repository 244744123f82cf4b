"""The group board: members only, what each chose to show, sorted, in a fixed number of queries."""

import pytest
from django.urls import reverse

from groups import actions as group_actions
from groups.models import Membership
from progress import actions as progress_actions
from tests.factories import CodingSessionFactory, NoteFactory
from tests.groups.conftest import membership

pytestmark = pytest.mark.django_db


def board_url(group, **query):
    url = reverse("groups:board", args=[group.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def entry(response, name):
    """The HTML of the member's entry on the board."""
    html = response.content.decode()
    start = html.index(f'<h2 class="board__name">{name}')
    return html[start : html.index("</li>\n", start)]


def test_a_member_sees_every_member_with_their_progress(
    client_of, learner, other_learner, group, small_path
):
    """Grace marked a lecture watched and coded: Ada's board shows it."""
    progress_actions.mark_watched(user=other_learner, resource=small_path.lectures[0])
    CodingSessionFactory(user=other_learner, resource=small_path.lectures[0], minutes=180)
    response = client_of(learner).get(board_url(group))
    assert response.status_code == 200
    members = {member.name: member for member in response.context["page"].members}
    assert set(members) == {"Ada L.", "Grace H."}
    assert members["Grace H."].steps_done == 1
    assert members["Grace H."].watched_minutes == 60
    assert members["Grace H."].streak == 1
    assert members["Grace H."].last_active_at > 0
    assert members["Ada L."].last_active_at == 0
    grace = entry(response, "Grace H.")
    assert "Étapes : 1 sur 3 · Week 1" in grace
    assert "1:3 respecté" in grace
    assert "aucune pour l’instant" not in grace
    assert "aucune pour l’instant" in entry(response, "Ada L.")


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
    by_progress = client.get(board_url(group, sort="progress")).context["page"].members
    by_name = client.get(board_url(group, sort="name")).context["page"].members
    unknown = client.get(board_url(group, sort="<script>")).context["page"].members
    assert [member.name for member in by_progress] == ["Grace H.", "Ada L."]
    assert [member.name for member in by_name] == ["Ada L.", "Grace H."]
    assert [member.name for member in unknown] == ["Grace H.", "Ada L."]


def test_leaving_removes_ones_row_from_the_board_at_once(client_of, learner, other_learner, group):
    """Grace leaves: Ada's next look at the board no longer shows her."""
    client = client_of(other_learner)
    response = client.post(reverse("groups:leave", args=[group.slug]))
    assert response.status_code == 302
    assert client.get(board_url(group)).status_code == 404
    members = client_of(learner).get(board_url(group)).context["page"].members
    assert [member.name for member in members] == ["Ada L."]
    assert not Membership.objects.filter(user=other_learner).exists()


def test_the_form_on_the_board_holds_the_members_own_name_and_choice(
    client_of, learner, other_learner, group
):
    """Each member's form shows their name, escaped (as Jinja2 escapes quotes), and what they
    chose to show, ticked."""
    Membership.objects.filter(user=other_learner).update(display_name='O\'Hara <dev> & "co"')
    grace = client_of(other_learner).get(board_url(group), headers={"accept-language": "en"})
    ada = client_of(learner).get(board_url(group))
    grace_html, ada_html = grace.content.decode(), ada.content.decode()
    assert 'value="O&#39;Hara &lt;dev&gt; &amp; &#34;co&#34;"' in grace_html
    assert 'value="coding" required id="id_shares_1" checked>' in grace_html
    assert "that, and my week: hours watched and coded, the 1:3 balance" in grace_html
    assert 'name="display_name" value="Ada L."' in ada_html
    assert 'value="progress" required id="id_shares_0" checked>' in ada_html
    assert "mes étapes du parcours et ma dernière activité" in ada_html


def test_a_member_who_shows_their_steps_shows_none_of_their_week(
    client_of, learner, other_learner, group, small_path
):
    """Ada shows her steps only: Grace reads her steps and last activity, not the hours she
    coded, the code she owes or her streak; Grace, who shows her week, has all of it on Ada's."""
    progress_actions.mark_watched(user=learner, resource=small_path.lectures[0])
    CodingSessionFactory(user=learner, resource=small_path.lectures[0], minutes=45)
    progress_actions.mark_watched(user=other_learner, resource=small_path.lectures[0])
    CodingSessionFactory(user=other_learner, resource=small_path.lectures[0], minutes=180)
    english = {"accept-language": "en"}

    seen_by_grace = client_of(other_learner).get(board_url(group), headers=english)
    ada = entry(seen_by_grace, "Ada L.")
    assert "Steps: 1 of 3" in ada
    assert "Last activity" in ada
    assert "not shared: only the steps and the last activity" in ada
    for figure in ("45\xa0min", "coded", "of code short of 1:3", "Coding streak", "1 day"):
        assert figure not in ada
    seen_by_ada = client_of(learner).get(board_url(group), headers=english)
    grace = entry(seen_by_ada, "Grace H.")
    assert "1\xa0h watched, 3\xa0h coded" in grace
    assert "Coding streak" in grace
    assert "45\xa0min" not in seen_by_ada.content.decode()


def test_sorting_by_a_weeks_figure_gives_away_nothing_of_who_keeps_it(
    client_of, learner, other_learner, stranger, group, small_path
):
    """Ada coded the most but shows only her steps: sorted by code, the members who show their
    week come first in their order, then Ada, wherever her minutes would have put her."""
    invitation, _token = group_actions.create_link(group=group, days=7, max_uses=5)
    group_actions.join(user=stranger, invitation=invitation, display_name="Mal", shares="coding")
    CodingSessionFactory(user=learner, resource=small_path.lectures[0], minutes=600)
    CodingSessionFactory(user=other_learner, resource=small_path.lectures[0], minutes=30)
    CodingSessionFactory(user=stranger, resource=small_path.lectures[0], minutes=90)
    for sort in ("coded", "watched", "streak"):
        members = client_of(other_learner).get(board_url(group, sort=sort)).context["page"]
        names = [member.name for member in members.members]
        assert names[-1] == "Ada L.", sort
    coded = client_of(other_learner).get(board_url(group, sort="coded")).context["page"]
    assert [member.name for member in coded.members] == ["Mal", "Grace H.", "Ada L."]
    assert coded.members[-1].coded_minutes == 0


def test_a_member_who_starts_showing_their_week_shows_it_at_once(
    client_of, learner, other_learner, group, small_path
):
    """Ada ticks the second choice on her board: Grace's next look shows her week."""
    CodingSessionFactory(user=learner, resource=small_path.lectures[0], minutes=45)
    response = client_of(learner).post(
        reverse("groups:update_membership", args=[group.slug]),
        {"display_name": "Ada L.", "shares": "coding"},
    )
    assert response.status_code == 302
    seen = client_of(other_learner).get(board_url(group), headers={"accept-language": "en"})
    assert "0\xa0min watched, 45\xa0min coded" in entry(seen, "Ada L.")
    assert membership(group, learner).shares == "coding"


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
    members = client_of(learner).get(board_url(group)).context["page"].members
    grace = next(member for member in members if member.name == "Grace H.")
    assert [session.built for session in grace.coding] == [f"Kernel #{n}" for n in (6, 5, 4, 3, 2)]


def test_the_week_counts_only_this_weeks_coding_and_watching(
    client_of, learner, other_learner, group, small_path
):
    """Sessions and watching of last week are in the streak and the last activity, not the week."""
    from datetime import timedelta

    from django.utils import timezone

    from progress.balance import week_start
    from tests.factories import WatchEventFactory

    last_sunday = week_start(timezone.localdate()) - timedelta(days=1)
    CodingSessionFactory(user=other_learner, day=last_sunday, minutes=120)
    CodingSessionFactory(user=other_learner, minutes=30)
    WatchEventFactory(
        user=other_learner,
        resource=small_path.lectures[0],
        minutes=45,
        at=timezone.now() - timedelta(days=8),
    )
    response = client_of(learner).get(board_url(group), headers={"accept-language": "en"})
    grace = next(m for m in response.context["page"].members if m.name == "Grace H.")
    assert (grace.coded_minutes, grace.watched_minutes, grace.last_active_at > 0) == (30, 0, True)
    assert "0\xa0min watched, 30\xa0min coded" in entry(response, "Grace H.")
    assert "nothing watched" in entry(response, "Grace H.")
    assert "30 min watched" not in response.content.decode()


def test_the_board_costs_the_same_queries_for_two_members_or_fifty(
    client_of, learner, other_learner, group, small_path, django_assert_num_queries
):
    """The session, the user, the curriculum's revision token, the members with their profiles
    and figures, their days with code and finished talks, this week's shared sessions, the
    exercises passed by those who share their coding: 7, whatever the number of members and the length of their histories."""
    from datetime import timedelta

    from django.utils import timezone

    from groups.models import Membership
    from tests.factories import (
        ExerciseFactory,
        ProfileFactory,
        SubmissionFactory,
        UserFactory,
        WatchEventFactory,
    )

    exercise = ExerciseFactory(resource=small_path.lectures[0])
    client = client_of(learner)
    client.get(board_url(group))  # the curriculum is built once per process, on first use
    with django_assert_num_queries(7):
        assert client.get(board_url(group)).status_code == 200
    for number in range(48):
        user = UserFactory()
        ProfileFactory(user=user, time_zone=("Asia/Tokyo", "America/Toronto", "")[number % 3])
        Membership.objects.create(
            group=group, user=user, display_name=f"Member {number}", shares="coding"
        )
        CodingSessionFactory.create_batch(3, user=user, resource=small_path.lectures[0])
        WatchEventFactory(user=user, resource=small_path.lectures[0], minutes=20)
        progress_actions.mark_watched(user=user, resource=small_path.lectures[number % 3])
        SubmissionFactory(learner=user, exercise=exercise, verdict="passed")
    for sort in SORT_KEYS:
        with django_assert_num_queries(7):
            response = client.get(board_url(group, sort=sort))
        assert len(response.context["page"].members) == 50
    # Ten times the history: a 30-day streak and a week of ten sessions for Grace.
    today = timezone.localdate()
    lecture = small_path.lectures[0]
    for back in range(30):
        CodingSessionFactory(user=other_learner, resource=lecture, day=today - timedelta(days=back))
    CodingSessionFactory.create_batch(9, user=other_learner, resource=lecture, day=today)
    with django_assert_num_queries(7):
        response = client.get(board_url(group))
    grace = next(m for m in response.context["page"].members if m.name == "Grace H.")
    assert (grace.streak, len(grace.coding)) == (30, 5)


SORT_KEYS = ("name", "progress", "watched", "coded", "streak", "activity")


def test_a_streak_is_the_run_of_days_up_to_today_or_yesterday(
    client_of, learner, other_learner, group, small_path
):
    """Grace coded today, the two days before and four days ago: 3 days; Ada's last run ended
    two days ago: none."""
    from datetime import timedelta

    from django.utils import timezone

    today = timezone.localdate()
    for back in (0, 1, 1, 2, 4, 5):
        CodingSessionFactory(user=other_learner, day=today - timedelta(days=back))
    for back in (2, 3):
        CodingSessionFactory(user=learner, day=today - timedelta(days=back))
    members = {m.name: m for m in client_of(learner).get(board_url(group)).context["page"].members}
    assert (members["Grace H."].streak, members["Grace H."].coded_today) == (3, True)
    assert (members["Ada L."].streak, members["Ada L."].coded_today) == (0, False)


def test_a_members_last_activity_is_their_latest_watching_or_coding(
    client_of, learner, other_learner, group, small_path
):
    """Grace last watched after she last coded, Ada the other way round: each member's last
    activity is the later of the two."""
    from datetime import timedelta

    from django.utils import timezone

    from progress.models import CodingSession
    from tests.factories import WatchEventFactory

    now = timezone.now().replace(microsecond=0)
    lecture = small_path.lectures[0]
    for user, watched, coded in ((other_learner, 3, 9), (learner, 8, 2)):
        WatchEventFactory(user=user, resource=lecture, minutes=20, at=now - timedelta(days=watched))
        session = CodingSessionFactory(user=user, resource=lecture)
        CodingSession.objects.filter(pk=session.pk).update(created_at=now - timedelta(days=coded))
    members = {m.name: m for m in client_of(learner).get(board_url(group)).context["page"].members}
    assert members["Grace H."].last_active_at == (now - timedelta(days=3)).timestamp()
    assert members["Ada L."].last_active_at == (now - timedelta(days=2)).timestamp()


def test_a_member_can_jump_to_their_own_entry_on_a_board_of_several(
    client_of, learner, other_learner, group, small_path
):
    """On a long board (fifty members on a phone) the viewer's entry may be far down: a link
    goes to it, and to nothing when the viewer is the board's only member."""
    body = client_of(learner).get(board_url(group, sort="name")).content.decode()
    mine = membership(group, learner).pk
    assert f'<a href="#member-{mine}">Aller à ma ligne</a>' in body
    assert f'id="member-{mine}"' in body

    group.memberships.filter(user=other_learner).delete()
    body = client_of(learner).get(board_url(group)).content.decode()
    assert "Aller à ma ligne" not in body
    assert f'id="member-{mine}"' in body


def test_the_architecture_talk_counts_as_a_step_for_the_member_whose_card_it_is(
    client_of, learner, other_learner, group, seed
):
    """Both watched Hopper's session; only Grace has an H100, so only her path counts it."""
    from curriculum import structure
    from curriculum.models import GpuCard
    from progress.models import Profile

    h100 = GpuCard.objects.get(slug="h100")
    Profile.objects.for_learner(other_learner)
    Profile.objects.filter(user=other_learner).update(gpu_card=h100, architecture=h100.architecture)
    talk = structure.current().session_advice(card_id=h100.pk).session
    for user in (learner, other_learner):
        progress_actions.mark_watched(user=user, resource=talk)
    members = {m.name: m for m in client_of(learner).get(board_url(group)).context["page"].members}
    assert members["Grace H."].steps_done == members["Ada L."].steps_done + 1
