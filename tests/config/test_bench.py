"""The benchmark's own pieces: the floor view exists only in its URLconf, and its query counter
counts a page's queries at the learner's data and at ten times it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import resolve
from django.urls.exceptions import Resolver404

from bench import FLOOR_PATH, VIEWING_PATH
from bench.queries import count_queries, counts_at_two_sizes, learner_with_data
from progress.models import CodingSession, WatchEvent
from tests.factories import CodingSessionFactory, ResourceFactory, UserFactory, WatchEventFactory

pytestmark = pytest.mark.django_db


def test_the_site_has_no_floor_page(learner_client):
    """Through the site's own URLconf the floor is not found, signed in or not."""
    assert learner_client.get(FLOOR_PATH).status_code == 404
    with pytest.raises(Resolver404):
        resolve(FLOOR_PATH, urlconf="config.urls")


@pytest.mark.urls("bench.urls")
def test_the_floor_answers_a_signed_in_learner_with_the_session_and_user_reads(
    learner_client, learner, django_assert_num_queries
):
    with django_assert_num_queries(2):  # the session, the user
        response = learner_client.get(FLOOR_PATH)
    assert response.status_code == 200
    assert response.content.decode() == f"signed in as {learner.pk}"


@pytest.mark.urls("bench.urls")
def test_the_floor_sends_a_visitor_to_sign_in(client):
    response = client.get(FLOOR_PATH)
    assert response.status_code == 302
    assert response.url.startswith("/accounts/login/")


@pytest.mark.urls("bench.urls")
def test_the_bench_urlconf_still_serves_the_site(learner_client):
    assert learner_client.get("/coding/").status_code == 200


def test_count_queries_counts_the_queries_of_one_request(
    learner_client, learner, django_assert_num_queries
):
    CodingSessionFactory.create_batch(3, user=learner)
    learner_client.get("/coding/")  # the curriculum is built once per process, on first use
    status, queries = count_queries(learner_client, "GET", "/coding/")
    assert status == 200
    with django_assert_num_queries(queries):
        learner_client.get("/coding/")


def test_count_queries_leaves_out_savepoints(learner_client, learner):
    """In a test a view's transaction is a savepoint; on a server it sends no statement at all.
    (A player's beat.)"""
    ResourceFactory(
        slug="gpu-mode-8", duration_minutes=60, watch_url="https://youtu.be/09wntC6BT5o"
    )
    with CaptureQueriesContext(connection) as captured:
        status, queries = count_queries(learner_client, "POST", VIEWING_PATH)
    statements = [query["sql"] for query in captured.captured_queries]
    savepoints = [sql for sql in statements if "SAVEPOINT" in sql]
    assert status == 200
    assert savepoints
    assert queries == len(statements) - len(savepoints)


def learner_with_rows(resource, sessions, events):
    user = UserFactory()
    CodingSessionFactory.create_batch(sessions, user=user, resource=resource)
    WatchEventFactory.create_batch(events, user=user, resource=resource)
    return user


def test_counts_at_two_sizes_are_equal_for_a_page_built_to_be_fast(client):
    resource = ResourceFactory(slug="gpu-mode-12")
    user = learner_with_rows(resource, sessions=4, events=2)
    client.force_login(user)
    targets = [
        ("GET", "/coding/"),
        ("GET", "/stats/"),
        ("POST", "/resources/gpu-mode-12/watched/"),
    ]
    counts = counts_at_two_sizes(client, user, targets)
    assert set(counts) == set(targets)
    for at_1x, at_10x in counts.values():
        assert at_1x == at_10x > 0
    # The copies made for the 10x count are rolled back.
    assert CodingSession.objects.filter(user=user).count() == 4


def test_the_viewing_beat_is_counted_with_its_body_at_two_sizes(client):
    """The player's beat (bench/__init__.py's body) answers 200 and runs as many queries at ten
    times the learner's rows, viewing sessions included."""
    from bench import VIEWING_PATH

    resource = ResourceFactory(slug="gpu-mode-8", watch_url="https://youtu.be/SGhfUhlowB4")
    user = learner_with_rows(resource, sessions=4, events=2)
    client.force_login(user)
    counts = counts_at_two_sizes(client, user, [("POST", VIEWING_PATH)])
    at_1x, at_10x = counts[("POST", VIEWING_PATH)]
    assert at_1x == at_10x > 0


def test_the_editor_bulk_is_counted_with_its_key_at_two_sizes(client):
    """The editor's 25 heartbeats (bench/__init__.py) answer 201 with the learner's editor key and
    run as many queries at ten times the learner's rows, heartbeats included."""
    from bench import EDITOR_PATH
    from progress.models import Heartbeat

    user = learner_with_rows(ResourceFactory(), sessions=4, events=2)
    client.force_login(user)
    at_1x, at_10x = counts_at_two_sizes(client, user, [("POST", EDITOR_PATH)])[
        ("POST", EDITOR_PATH)
    ]
    assert at_1x == at_10x > 0
    assert not Heartbeat.objects.exists()  # rolled back with the copies


def test_counts_at_two_sizes_see_ten_times_the_rows(client, monkeypatch):
    """The second count runs with ten times the learner's coding sessions and watch events."""
    import bench.queries

    resource = ResourceFactory()
    user = learner_with_rows(resource, sessions=3, events=2)
    client.force_login(user)
    seen = []

    def rows_then_count(client, method, path):
        seen.append(
            (
                CodingSession.objects.filter(user=user).count(),
                WatchEvent.objects.filter(user=user).count(),
            )
        )
        return 200, 1

    monkeypatch.setattr(bench.queries, "count_queries", rows_then_count)
    counts_at_two_sizes(client, user, [("GET", "/coding/")])
    assert seen == [(3, 2), (3, 2), (30, 20)]


def test_a_target_that_does_not_answer_200_stops_the_count(client):
    user = learner_with_rows(ResourceFactory(), sessions=1, events=1)
    client.force_login(user)
    with pytest.raises(RuntimeError, match="GET /resources/no-such-thing/ answered 404"):
        counts_at_two_sizes(client, user, [("GET", "/resources/no-such-thing/")])


def test_the_counted_learner_has_coding_sessions_and_watch_events():
    resource = ResourceFactory()
    learner_with_rows(resource, sessions=2, events=0)
    with_both = learner_with_rows(resource, sessions=1, events=1)
    UserFactory(is_staff=True)
    assert learner_with_data() == with_both


def bench_group(users):
    """The benchmark's study group (bench.BOARD_SLUG), the first of these users its owner."""
    from bench import BOARD_SLUG
    from groups.models import Membership, StudyGroup

    group = StudyGroup.objects.create(name="Benchmark study group", slug=BOARD_SLUG)
    Membership.objects.bulk_create(
        Membership(
            group=group,
            user=user,
            role="owner" if index == 0 else "member",
            display_name=f"Learner {user.pk}",
            shares="coding" if index % 2 else "progress",
        )
        for index, user in enumerate(users)
    )
    return group


def test_the_group_board_is_counted_at_two_sizes(client):
    """The board target answers its members and runs as many queries at ten times the rows."""
    from bench import BOARD_PATH

    resource = ResourceFactory()
    user = learner_with_rows(resource, sessions=4, events=2)
    others = [learner_with_rows(resource, sessions=3, events=1) for _ in range(3)]
    bench_group([user, *others])
    client.force_login(user)
    at_1x, at_10x = counts_at_two_sizes(client, user, [("GET", BOARD_PATH)])[("GET", BOARD_PATH)]
    assert at_1x == at_10x > 0


def test_the_group_board_is_not_found_by_a_learner_of_another_group(client):
    """Why the board has its own cookie file: a learner who is not a member gets a 404."""
    from bench import BOARD_PATH

    resource = ResourceFactory()
    bench_group([learner_with_rows(resource, sessions=1, events=1)])
    outsider = learner_with_rows(resource, sessions=1, events=1)
    client.force_login(outsider)
    with pytest.raises(RuntimeError, match=f"GET {BOARD_PATH} answered 404"):
        counts_at_two_sizes(client, outsider, [("GET", BOARD_PATH)])


def test_the_counted_learner_is_a_member_of_the_benchmark_group_when_there_is_one():
    resource = ResourceFactory()
    learner_with_rows(resource, sessions=2, events=1)
    member = learner_with_rows(resource, sessions=1, events=1)
    bench_group([UserFactory(), member])
    assert learner_with_data() == member


def test_the_generated_groups_put_the_board_members_in_their_own_cookie_file(tmp_path):
    """bench/generate.py: study groups of 20 to 50 among the learners, and the benchmark's
    group made of signed-in learners, whose cookie lines are the board target's file, each
    line a session of one of its members; the board answers every one of them."""
    import random

    from django.contrib.sessions.backends.db import SessionStore
    from django.test import Client

    from bench import BOARD_MEMBERS, BOARD_PATH, BOARD_SLUG, cookie_file
    from bench.generate import create_groups, write_sessions
    from groups.models import Membership, StudyGroup

    rng = random.Random(1)
    users = UserFactory.create_batch(230)
    signed_in = users[::3]  # 77 learners, more than a group holds
    members = create_groups(users, signed_in, rng)
    write_sessions(signed_in, tmp_path / "cookies.txt", members)

    assert members == signed_in[:BOARD_MEMBERS]
    group = StudyGroup.objects.get(slug=BOARD_SLUG)
    assert {m.user for m in Membership.objects.filter(group=group)} == set(members)
    assert group.memberships.filter(role="owner").get().user == members[0]
    others = StudyGroup.objects.exclude(slug=BOARD_SLUG)
    assert others.count() == 2
    assert all(20 <= other.memberships.count() <= 50 for other in others)

    lines = cookie_file(tmp_path, BOARD_PATH).read_text().splitlines()
    assert len(lines) == BOARD_MEMBERS
    assert len((tmp_path / "cookies.txt").read_text().splitlines()) == len(signed_in)
    sessions = [SessionStore(session_key=line.split()[0]) for line in lines]
    assert [int(session["_auth_user_id"]) for session in sessions] == [m.pk for m in members]
    for line in lines[:3]:
        client = Client()
        client.cookies["sessionid"] = line.split()[0]
        assert client.get(BOARD_PATH).status_code == 200


def _row(target, path, ratio, method="GET"):
    return {
        "target": target, "method": method, "path": path, "rps": 100 * ratio,
        "median_ms": 1.0, "p95_ms": 2.0, "errors": 0, "ratio_to_floor": ratio,
        "ratios_to_floor": [ratio], "ratio_to_readyz": ratio, "queries_1x": 3, "queries_10x": 3,
    }  # fmt: skip


def _goal_of(table, tmp_path, monkeypatch, only=None):
    import argparse

    import bench.run

    monkeypatch.setattr(bench.run, "RESULTS", tmp_path)
    args = argparse.Namespace(
        requests=10,
        rounds=1,
        slices=2,
        workers=2,
        server_threads=4,
        connections=8,
        no_cache=False,
        only=only,
    )
    data = {"learners": 1, "coding_sessions": 1, "watch_events": 1}
    bench.run.report(table, {"data": data}, [90.0], args)
    (written,) = tmp_path.glob("bench-*.md")
    return next(line for line in written.read_text().splitlines() if line.startswith("Goal"))


YARDSTICKS = [_row("/readyz", "/readyz", 1.1), _row("signed-in floor", FLOOR_PATH, 1.0)]


def test_the_report_does_not_call_the_goal_met_when_no_page_was_run(tmp_path, monkeypatch):
    goal = _goal_of(YARDSTICKS, tmp_path, monkeypatch, only=[FLOOR_PATH])

    assert goal == "Goal: no learner page was measured in this run."


def test_the_report_names_the_pages_short_of_the_goal_but_not_the_writes_outside_it(
    tmp_path, monkeypatch
):
    table = [
        *YARDSTICKS,
        _row("dashboard", "/", 0.62),
        _row("settings", "/settings/", 0.31),
        _row("viewing beat (POST)", VIEWING_PATH, 0.2, method="POST"),
    ]

    goal = _goal_of(table, tmp_path, monkeypatch)

    assert goal == (
        "Goal: every learner page at ≥ 0.4x the floor, mark watched (POST) at ≥ 0.5x, "
        "group board at ≥ 0.2x: not met by settings."
    )


def test_the_report_of_a_partial_run_says_the_goal_is_met_for_the_pages_run(tmp_path, monkeypatch):
    table = [*YARDSTICKS, _row("coding log", "/coding/", 0.45)]

    goal = _goal_of(table, tmp_path, monkeypatch, only=["/coding/"])

    assert goal == (
        "Goal: every learner page run at ≥ 0.4x the floor, mark watched (POST) at ≥ 0.5x, "
        "group board at ≥ 0.2x: met."
    )


def test_the_post_and_the_board_are_held_to_their_own_goals(tmp_path, monkeypatch):
    """Issue 38: the mark-watched POST at 0.5x the floor, a 50-member board at 0.2x."""
    table = [
        *YARDSTICKS,
        _row("dashboard", "/", 0.41),
        _row("mark watched (POST)", "/resources/gpu-mode-12/watched/", 0.45, method="POST"),
        _row("group board", "/groups/bench-board/", 0.21),
    ]

    goal = _goal_of(table, tmp_path, monkeypatch)

    assert goal.endswith("not met by mark watched (POST).")


def _wrk(rps):
    return {"rps": rps, "median_ms": 1000 / rps, "p95_ms": 2000 / rps, "errors": 0}


def test_each_ratio_is_the_median_of_the_rounds_ratios_to_their_own_floor():
    """A load that slows the machine during one round slows that round's floor too: the page is
    compared with the floor of its own round, and the odd round does not decide."""
    import bench.run

    page = ("dashboard", "GET", "/")
    targets = [bench.run.READYZ, bench.run.FLOOR, page]

    def round_(floor_rps, page_rps):
        return [
            ("/readyz", _wrk(1000)),
            (bench.run.FLOOR[0], _wrk(floor_rps)),
            ("dashboard", _wrk(page_rps)),
        ]

    rounds = [round_(800, 440), round_(900, 300), round_(600, 330)]
    queries = {(method, path): (3, 3) for _name, method, path in targets}

    dashboard = bench.run.table_rows(targets, rounds, queries)[2]

    assert dashboard["ratios_to_floor"] == [0.55, 0.333, 0.55]
    assert dashboard["ratio_to_floor"] == pytest.approx(0.55)
    assert dashboard["rps"] == 330


def test_a_target_driven_after_its_own_floor_run_is_compared_with_that_floor():
    """Issue 38 (9): the floor of the same seconds, not the one measured at the round's start."""
    import bench.run

    page = ("dashboard", "GET", "/")
    targets = [bench.run.READYZ, bench.run.FLOOR, page]
    rounds = [
        [
            ("/readyz", _wrk(1000)),
            (bench.run.FLOOR[0], _wrk(900)),
            ("dashboard", {**_wrk(300), "floor_rps": 600}),
        ]
    ]
    queries = {(method, path): (3, 3) for _name, method, path in targets}

    dashboard = bench.run.table_rows(targets, rounds, queries)[2]

    assert dashboard["ratio_to_floor"] == pytest.approx(0.5)


DASHBOARD = ("dashboard", "GET", "/")
PATH_PAGE = ("path", "GET", "/path/")


def test_a_round_alternates_the_floor_and_each_page_in_slices():
    """Issue 38 (9): floor, page, floor, page for each page; the yardsticks once, in their place."""
    import bench.run

    targets = [bench.run.READYZ, bench.run.FLOOR, DASHBOARD, PATH_PAGE]

    driven = [what[0] for _target, what in bench.run.round_runs(targets, slices=2)]

    assert driven == [
        "/readyz",
        "signed-in floor",
        *["signed-in floor", "dashboard"] * 2,
        *["signed-in floor", "path"] * 2,
    ]


def test_one_slice_is_the_floor_then_the_page():
    import bench.run

    runs = bench.run.round_runs([bench.run.READYZ, bench.run.FLOOR, DASHBOARD], slices=1)

    assert runs[2:] == [(DASHBOARD, bench.run.FLOOR), (DASHBOARD, DASHBOARD)]


def test_a_targets_slices_are_joined_as_requests_over_seconds():
    """Not the mean of the slices' rates: 1,000 requests in 2 s then in 4 s are 333 a second."""
    import bench.run

    slices = [
        {"requests": 1000, "seconds": 2.0, "median_ms": 4.0, "p95_ms": 9.0, "errors": 0},
        {"requests": 1000, "seconds": 4.0, "median_ms": 8.0, "p95_ms": 15.0, "errors": 2},
    ]

    joined = bench.run.joined(slices)

    assert joined["rps"] == pytest.approx(2000 / 6)
    assert (joined["median_ms"], joined["p95_ms"], joined["errors"]) == (6.0, 12.0, 2)


def _slowing_machine():
    """A run function for measure_round on a machine that halves its speed halfway through the
    round: the floor answers 1,000 requests a second and the dashboard 500 before, half as many
    after. Records what it was asked to drive and how many requests."""
    asked = []
    speeds = {"/readyz": 800, FLOOR_PATH: 1000, "/": 500}

    def run(target, requests):
        asked.append((target[0], requests))
        rps = speeds[target[2]] / (1 if len(asked) <= 4 else 2)
        return {
            "requests": requests,
            "seconds": requests / rps,
            "median_ms": 1.0,
            "p95_ms": 2.0,
            "errors": 0,
        }

    return run, asked


def test_measure_round_divides_a_page_by_the_floor_of_its_own_slices():
    """The machine slows down while the dashboard is driven: its slices and the floor's slices
    between them slow alike, and the ratio stays the page's own, 0.5, where the round's first
    floor would have given 0.33."""
    import bench.run

    run, asked = _slowing_machine()
    targets = [bench.run.READYZ, bench.run.FLOOR, DASHBOARD]

    rows = dict(bench.run.measure_round(targets, slices=2, requests=600, run=run))

    assert asked == [
        ("/readyz", 600),
        ("signed-in floor", 600),
        ("signed-in floor", 300),
        ("dashboard", 300),
        ("signed-in floor", 300),
        ("dashboard", 300),
    ]
    assert rows["signed-in floor"]["rps"] == pytest.approx(1000)
    assert "floor_rps" not in rows["signed-in floor"]
    assert rows["dashboard"]["floor_rps"] == pytest.approx(600 / (0.3 + 0.6))
    assert rows["dashboard"]["rps"] == pytest.approx(600 / (0.6 + 1.2))
    ratio, _to_readyz = bench.run.ratios_of(list(rows.items()))["dashboard"]
    assert ratio == pytest.approx(0.5)


def test_the_table_gives_each_page_the_median_of_its_rounds_and_their_spread():
    """Three rounds measured with slices: the median of the rounds' ratios, each to the floor of
    its own slices, and every round's ratio and floor kept for the spread."""
    import bench.run

    targets = [bench.run.READYZ, bench.run.FLOOR, DASHBOARD]

    def round_(floor_rps, page_rps):
        return [
            ("/readyz", _wrk(900)),
            (bench.run.FLOOR[0], _wrk(1000)),
            ("dashboard", {**_wrk(page_rps), "floor_rps": floor_rps}),
        ]

    rounds = [round_(1000, 450), round_(500, 300), round_(800, 320)]
    queries = {(method, path): (3, 3) for _name, method, path in targets}

    dashboard = bench.run.table_rows(targets, rounds, queries)[2]
    floor = bench.run.table_rows(targets, rounds, queries)[1]

    assert dashboard["ratios_to_floor"] == [0.45, 0.6, 0.4]
    assert dashboard["ratio_to_floor"] == pytest.approx(0.45)
    assert dashboard["floor_rps"] == [1000, 500, 800]
    assert floor["ratio_to_floor"] == 1
    assert floor["floor_rps"] == []


def test_the_report_gives_the_heartbeats_a_second_and_the_beat_against_their_goals():
    import bench.run

    table = [
        {**_row("editor bulk of 25 (POST)", "/b", 0.1, method="POST"), "rps": 48},
        {**_row("editor heartbeat (POST)", "/h", 0.2, method="POST"), "rps": 210},
        _row("viewing beat (POST)", VIEWING_PATH, 0.31, method="POST"),
    ]

    assert bench.run.writes_line(table) == (
        "Writes: 1,200 heartbeats/s in bulks of 25 (goal 1,000); 210 requests/s of one heartbeat "
        "(goal 600); viewing beat 0.31x the floor (goal 0.5)."
    )


def test_boards_of_sizes_hold_the_first_members_and_go_when_the_split_ends(client):
    """bench/split.py --board-sizes: a board of two is the owner and the next member to join,
    answers them and not the third; the boards go at the end, the benchmark's group stays."""
    from bench.boards import boards_of_sizes
    from groups.models import Membership, StudyGroup

    users = [UserFactory() for _ in range(3)]
    bench_group(users)
    with boards_of_sizes([2, 3]) as boards:
        assert boards == {
            "/groups/bench-board-2/": {users[0].pk, users[1].pk},
            "/groups/bench-board-3/": {user.pk for user in users},
        }
        client.force_login(users[1])
        page = client.get("/groups/bench-board-2/").context["page"]
        owners = {line.name for line in page.members if line.is_owner}
        assert {line.name for line in page.members} == {f"Learner {u.pk}" for u in users[:2]}
        assert owners == {f"Learner {users[0].pk}"}
        client.force_login(users[2])
        assert client.get("/groups/bench-board-2/").status_code == 404
    assert not StudyGroup.objects.filter(slug__startswith="bench-board-").exists()
    assert Membership.objects.filter(group__slug="bench-board").count() == 3


def test_boards_of_sizes_go_even_when_the_split_fails():
    from bench.boards import boards_of_sizes
    from groups.models import StudyGroup

    bench_group([UserFactory(), UserFactory()])
    with pytest.raises(RuntimeError), boards_of_sizes([1, 2]):
        raise RuntimeError("a target answered 500")
    assert list(StudyGroup.objects.values_list("slug", flat=True)) == ["bench-board"]


def test_user_of_reads_the_learner_a_cookie_line_is_signed_in_as():
    from django.contrib.sessions.backends.db import SessionStore

    from bench.boards import user_of

    learner = UserFactory()
    session = SessionStore()
    session["_auth_user_id"] = str(learner.pk)
    session.create()
    assert user_of(f"{session.session_key} csrf-token") == learner.pk
    assert user_of("no-such-session csrf-token") is None


@pytest.mark.parametrize("text", ["2,10,50", "1", "50"])
def test_board_sizes_take_numbers_the_benchmark_group_can_give(text):
    from bench.boards import board_sizes

    assert board_sizes(text) == [int(size) for size in text.split(",")]


@pytest.mark.parametrize("text", ["0,10", "51", "ten", "2,,10", ""])
def test_board_sizes_refuse_what_no_board_can_be(text):
    import argparse

    from bench.boards import board_sizes

    with pytest.raises(argparse.ArgumentTypeError, match="from 1 to 50"):
        board_sizes(text)


def test_the_flood_report_holds_the_flooded_p95_against_twice_the_idle_one():
    """bench/flood.py's verdict: the median over the rounds of flooded p95 / idle p95, at most 2."""
    from argparse import Namespace
    from collections import Counter

    from bench.flood import report

    def run(p95):
        return {"median_ms": 5.0, "p95_ms": p95}

    args = Namespace(requests=100, connections=8)
    within = report([(run(10), run(15)), (run(10), run(25)), (run(10), run(19))], Counter(), args)
    beyond = report([(run(10), run(21)), (run(10), run(30))], Counter({429: 1200, 201: 36}), args)

    assert "(median of the rounds, 1.90): met." in within
    assert "| 2 | 5.0 | 10.0 | 5.0 | 25.0 | 2.50 |" in within
    assert "(median of the rounds, 2.55): not met." in beyond
    assert "answered: 201: 36, 429: 1,200." in beyond
