"""Sittings corrected and deleted while others are logged, all at once: the totals stay exact
(PostgreSQL only: SQLite serialises every write, so nothing can race)."""

from django.urls import reverse

from progress import actions
from progress.models import Watch, WatchEvent
from tests.factories import ResourceFactory, UserFactory
from tests.progress.test_concurrency import (
    RACES,
    THREADS,
    run_at_once,
    signed_in_clients,
)

pytestmark = RACES


def exact_totals(user, course):
    """The watch row's minutes logged, after checking the events add up to what is watched."""
    watch = Watch.objects.get(user=user, resource=course)
    sittings = WatchEvent.objects.for_learner(user).sittings()
    assert sum(sittings.values_list("logged_minutes", flat=True)) == watch.logged_minutes
    assert WatchEvent.objects.for_learner(user).total_minutes() == (
        Watch.objects.for_learner(user).total_watched_minutes()
    )
    return watch.logged_minutes


def test_sittings_logged_while_others_are_corrected_lose_nothing():
    """25 sittings corrected from 10 to 20 minutes while 25 new ones of 10 are logged: 750."""
    learner = UserFactory(username="ada")
    course = ResourceFactory(kind="course", duration_minutes=6000)
    for _ in range(THREADS // 2):
        actions.log_sitting(user=learner, resource=course, minutes=10)
    existing = list(WatchEvent.objects.for_learner(learner).values_list("pk", flat=True))
    clients = signed_in_clients(learner)
    log_url = reverse("progress:log_sitting", args=[course.slug])

    def work(index):
        if index % 2:
            return clients[index].post(log_url, {"minutes": "10"})
        edit_url = reverse("progress:sitting_edit", args=[existing[index // 2]])
        return clients[index].post(edit_url, {"minutes": "20"})

    responses = run_at_once(work)

    assert [response.status_code for response in responses] == [302] * THREADS
    assert exact_totals(learner, course) == 25 * 20 + 25 * 10


def test_the_same_sitting_deleted_fifty_times_at_once_is_deleted_once():
    """One 302, 49 times 404; the other sitting's minutes remain."""
    learner = UserFactory(username="ada")
    course = ResourceFactory(kind="course", duration_minutes=720)
    actions.log_sitting(user=learner, resource=course, minutes=90)
    actions.log_sitting(user=learner, resource=course, minutes=30)
    first = WatchEvent.objects.for_learner(learner).in_order().first()
    clients = signed_in_clients(learner)
    url = reverse("progress:sitting_delete", args=[first.pk])

    responses = run_at_once(lambda index: clients[index].post(url))

    assert sorted(response.status_code for response in responses) == [302] + [404] * (THREADS - 1)
    assert exact_totals(learner, course) == 30


def test_deletes_and_one_click_finishes_race_to_a_consistent_state():
    """Sittings deleted while the course is marked watched and not watched: the sums agree."""
    learner = UserFactory(username="ada")
    course = ResourceFactory(kind="course", duration_minutes=720)
    for _ in range(THREADS // 2):
        actions.log_sitting(user=learner, resource=course, minutes=10)
    sittings = list(WatchEvent.objects.for_learner(learner).values_list("pk", flat=True))
    clients = signed_in_clients(learner)
    toggles = [
        reverse("progress:mark_watched", args=[course.slug]),
        reverse("progress:mark_not_watched", args=[course.slug]),
    ]

    def work(index):
        if index % 2:
            return clients[index].post(toggles[index // 2 % 2], {"confirm": "yes"})
        return clients[index].post(reverse("progress:sitting_delete", args=[sittings[index // 2]]))

    responses = run_at_once(work)

    assert [response.status_code for response in responses] == [302] * THREADS
    assert exact_totals(learner, course) == 0
