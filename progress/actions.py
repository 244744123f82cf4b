"""Writes that change what a learner watched: each updates one Watch row and logs one WatchEvent.

Every event's minutes is the change in the learner's watched minutes (Watch.watched_minutes), so
the sum of a learner's events always equals the sum of their current watched minutes.
"""

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from curriculum.models import Resource
from progress.models import MINUTES_IN_A_DAY, CodingSession, Watch, WatchEvent


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
    rows = Watch.objects.select_for_update().filter(user=user, resource=resource)
    watch = rows.first()
    if watch is None and create:
        # Insert-or-ignore: a concurrent click may have just inserted it, which is no error.
        Watch.objects.bulk_create([Watch(user=user, resource=resource)], ignore_conflicts=True)
        watch = rows.first()
    if watch is not None:
        watch.resource = resource
    return watch


def _log(watch: Watch, kind: str, minutes_before: int, logged: int = 0) -> None:
    WatchEvent.objects.create(
        user_id=watch.user_id,
        resource=watch.resource,
        kind=kind,
        minutes=watch.watched_minutes - minutes_before,
        logged_minutes=logged,
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
    _log(watch, WatchEvent.Kind.SITTING, before, logged=minutes)
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


def _watched(logged: int, finished: bool, duration: int | None) -> int:
    """Minutes counted as watched, as Watch.watched_minutes counts them."""
    return max(logged, duration or 0) if finished else logged


def _replay(watch: Watch, events: list[WatchEvent]) -> list[WatchEvent]:
    """Recount each event's change in minutes watched from the sittings, and the watch's state.

    Events are the watch's whole history, oldest first. Sittings finish the resource when they
    reach its duration, as log_sitting does, so correcting one may finish or unfinish it.
    """
    duration = watch.resource.duration_minutes
    logged, finished_at = 0, None
    for event in events:
        before = _watched(logged, finished_at is not None, duration)
        if event.is_sitting:
            logged += event.logged_minutes
            if finished_at is None and duration and logged >= duration:
                finished_at = event.at
        elif event.kind in {WatchEvent.Kind.FINISHED, WatchEvent.Kind.FOLLOWED}:
            finished_at = event.at
        elif event.kind in {WatchEvent.Kind.UNFINISHED, WatchEvent.Kind.UNFOLLOWED}:
            finished_at = None
        event.minutes = _watched(logged, finished_at is not None, duration) - before
    watch.logged_minutes = logged
    if finished_at is None or not watch.is_finished:
        watch.finished_at = finished_at
    return events


def _locked_sitting(user, sitting_id: int) -> tuple[Watch, list[WatchEvent], WatchEvent]:
    """The learner's sitting with its watch (locked) and that watch's history, oldest first."""
    sittings = WatchEvent.objects.for_learner(user).sittings().select_related("resource")
    sitting = sittings.filter(pk=sitting_id).first()
    if sitting is None:
        raise WatchEvent.DoesNotExist
    watch = _locked_watch(user, sitting.resource, create=False)
    history = list(
        WatchEvent.objects.for_learner(user).filter(resource=sitting.resource).in_order()
    )
    # Read again under the lock: a concurrent request may have deleted it meanwhile.
    sitting = next((event for event in history if event.pk == sitting.pk), None)
    if watch is None or sitting is None:
        raise WatchEvent.DoesNotExist
    return watch, history, sitting


def _save_replayed(watch: Watch, history: list[WatchEvent]) -> Watch:
    _replay(watch, history)
    WatchEvent.objects.bulk_update(history, ["minutes", "logged_minutes"])
    watch.save(update_fields=["logged_minutes", "finished_at", "updated_at"])
    return watch


@transaction.atomic
def correct_sitting(*, user, sitting_id: int, minutes) -> Watch:
    """Change the minutes of one of the learner's sittings; the totals are recounted exactly.

    Raises WatchEvent.DoesNotExist when the learner has no such sitting.
    """
    minutes = validate_sitting_minutes(minutes)
    watch, history, sitting = _locked_sitting(user, sitting_id)
    sitting.logged_minutes = minutes
    return _save_replayed(watch, history)


@transaction.atomic
def delete_sitting(*, user, sitting_id: int) -> Watch:
    """Delete one of the learner's sittings; the totals are recounted exactly.

    Raises WatchEvent.DoesNotExist when the learner has no such sitting.
    """
    watch, history, sitting = _locked_sitting(user, sitting_id)
    history.remove(sitting)
    sitting.delete()
    return _save_replayed(watch, history)


def save_once(form, user):  # a CodingSessionForm, valid
    """Save a new session, or return the one already saved from the same form, and whether it is new."""
    form.instance.user = user
    try:
        with transaction.atomic():
            return form.save(), True
    except IntegrityError:
        key = form.cleaned_data["idempotency_key"]
        existing = CodingSession.objects.for_learner(user).filter(idempotency_key=key).first()
        if existing is None:
            raise
        return existing, False
