"""What the sitting edit and delete tests share: a sitting to change and the totals it moves."""

from progress import actions
from progress.models import Watch, WatchEvent


def sitting_of(user, course, minutes):
    actions.log_sitting(user=user, resource=course, minutes=minutes)
    return WatchEvent.objects.for_learner(user).sittings().latest("pk")


def totals(user, course):
    """The watch row's minutes and state, and the events' sum against the watched minutes."""
    watch = Watch.objects.select_related("resource").get(user=user, resource=course)
    events = WatchEvent.objects.for_learner(user).total_minutes()
    assert events == Watch.objects.for_learner(user).total_watched_minutes()
    return watch.logged_minutes, watch.is_finished, events
