"""Writes that change what a learner watched: each updates one Watch row and logs one WatchEvent.

Every event's minutes is the change in the learner's watched minutes (Watch.watched_minutes), so
the sum of a learner's events always equals the sum of their current watched minutes.
"""

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from curriculum.models import Resource
from progress.models import MINUTES_IN_A_DAY, Watch, WatchEvent


class ProgressError(ValueError):
    """A change the learner asked for that cannot be made; its message is shown to them."""


def _check_watchable(resource: Resource) -> None:
    if resource.is_followed:
        raise ProgressError(_("This resource is followed, not watched: it has no minutes."))


def _check_followed(resource: Resource) -> None:
    if not resource.is_followed:
        raise ProgressError(_("This resource is watched, not followed."))


def _locked_watch(user, resource: Resource, *, create: bool) -> Watch | None:
    """The learner's Watch row for resource, locked until the transaction ends."""
    if create:
        try:
            # A savepoint, so that losing a race to a concurrent click keeps our transaction usable.
            with transaction.atomic():
                Watch.objects.get_or_create(user=user, resource=resource)
        except IntegrityError:
            pass
    watch = Watch.objects.select_for_update().filter(user=user, resource=resource).first()
    if watch is not None:
        watch.resource = resource
    return watch


def _log(watch: Watch, kind: str, minutes_before: int) -> None:
    WatchEvent.objects.create(
        user_id=watch.user_id,
        resource=watch.resource,
        kind=kind,
        minutes=watch.watched_minutes - minutes_before,
    )


@transaction.atomic
def mark_watched(*, user, resource: Resource) -> Watch:
    """Finish a watched resource in one click; marking it again changes nothing."""
    _check_watchable(resource)
    return _set_finished(user, resource, WatchEvent.Kind.FINISHED)


@transaction.atomic
def mark_not_watched(*, user, resource: Resource) -> Watch | None:
    """Undo "watched": the resource goes back to the minutes logged in sittings, no more."""
    _check_watchable(resource)
    return _set_finished(user, resource, WatchEvent.Kind.UNFINISHED, finished=False)


def _set_finished(user, resource, kind, *, finished=True) -> Watch | None:
    """Finish or unfinish the learner's watch of resource, logging the change once."""
    watch = _locked_watch(user, resource, create=finished)
    if watch is None or watch.is_finished == finished:
        return watch
    before = watch.watched_minutes
    watch.finished_at = timezone.now() if finished else None
    watch.save(update_fields=["finished_at", "updated_at"])
    _log(watch, kind, before)
    return watch


def validate_sitting_minutes(minutes) -> int:
    """The minutes of one sitting as a whole number from 1 to 1440, or a ProgressError."""
    try:
        minutes = int(str(minutes).strip())
    except ValueError:
        raise ProgressError(_("Enter the minutes you watched as a whole number.")) from None
    if not 1 <= minutes <= MINUTES_IN_A_DAY:
        raise ProgressError(
            _("A sitting lasts from 1 to %(maximum)s minutes (24 hours).")
            % {"maximum": MINUTES_IN_A_DAY}
        )
    return minutes


@transaction.atomic
def log_sitting(*, user, resource: Resource, minutes: int) -> Watch:
    """Add minutes watched in one sitting; reaching the duration finishes the resource."""
    _check_watchable(resource)
    minutes = validate_sitting_minutes(minutes)
    watch = _locked_watch(user, resource, create=True)
    before = watch.watched_minutes
    watch.logged_minutes = F("logged_minutes") + minutes
    watch.save(update_fields=["logged_minutes", "updated_at"])
    watch.refresh_from_db(fields=["logged_minutes"])
    duration = resource.duration_minutes
    if not watch.is_finished and duration and watch.logged_minutes >= duration:
        watch.finished_at = timezone.now()
        watch.save(update_fields=["finished_at"])
    _log(watch, WatchEvent.Kind.SITTING, before)
    return watch


@transaction.atomic
def mark_followed(*, user, resource: Resource) -> Watch:
    """Mark a conference or channel followed; it carries no minutes."""
    _check_followed(resource)
    return _set_finished(user, resource, WatchEvent.Kind.FOLLOWED)


@transaction.atomic
def mark_not_followed(*, user, resource: Resource) -> Watch | None:
    """Stop following a conference or channel."""
    _check_followed(resource)
    return _set_finished(user, resource, WatchEvent.Kind.UNFOLLOWED, finished=False)
