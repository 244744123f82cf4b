"""Writes that change what a learner watched: each updates one Watch row and logs one WatchEvent.

Every event's minutes is the change in the learner's watched minutes (Watch.watched_minutes), so
the sum of a learner's events always equals the sum of their current watched minutes.
"""

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, overload

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from curriculum.models import Resource
from progress.beats import BadBeat, Beat
from progress.forms import CodingSessionForm
from progress.models import MINUTES_IN_A_DAY, CodingSession, Note, Viewing, Watch, WatchEvent
from progress.path import LONG_MINUTES
from progress.ranges import merged, seconds, seconds_beyond


class ProgressError(ValueError):
    """A change the learner asked for that cannot be made; its message is shown to them."""


def _check_watchable(resource: Resource) -> None:
    if resource.is_followed:
        raise ProgressError(_("This resource is followed, not watched: it has no minutes."))


def _check_followed(resource: Resource) -> None:
    if not resource.is_followed:
        raise ProgressError(_("This resource is watched, not followed."))


@overload
def _locked_watch(user: User, resource: Resource, *, create: Literal[True]) -> Watch: ...
@overload
def _locked_watch(user: User, resource: Resource, *, create: bool) -> Watch | None: ...
def _locked_watch(user: User, resource: Resource, *, create: bool) -> Watch | None:
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


class NotConfirmed(Exception):
    """Nothing changed: finishing would credit hours the sittings did not log; ask first."""

    def __init__(self, resource: Resource, watch: Watch | None):
        super().__init__("Finishing this resource needs the learner's confirmation.")
        self.resource, self.watch = resource, watch


def mark_watched(*, user: User, resource: Resource, confirmed: bool = True) -> Watch:
    """Finish a watched resource in one click; marking it again changes nothing.

    Unconfirmed, a click that would credit LONG_MINUTES or more beyond the sittings changes
    nothing and raises NotConfirmed with the resource and the learner's watch row (or None).
    """
    _check_watchable(resource)
    duration = resource.duration_minutes or 0
    # Unconfirmed, a long resource is finished only when its sittings leave under LONG_MINUTES.
    least_logged = -1 if confirmed or duration < LONG_MINUTES else duration - LONG_MINUTES
    watch = _set_finished(user, resource, WatchEvent.Kind.FINISHED, least_logged=least_logged)
    if least_logged >= 0 and (watch is None or not watch.is_finished):
        raise NotConfirmed(resource, watch)
    return watch


def mark_not_watched(*, user: User, resource: Resource) -> Watch | None:
    """Undo "watched": the resource goes back to the minutes logged in sittings, no more."""
    _check_watchable(resource)
    return _set_finished(user, resource, WatchEvent.Kind.UNFINISHED, finished=False)


def mark_followed(*, user: User, resource: Resource) -> Watch:
    """Mark a conference or channel followed; it carries no minutes."""
    _check_followed(resource)
    return _set_finished(user, resource, WatchEvent.Kind.FOLLOWED)


def mark_not_followed(*, user: User, resource: Resource) -> Watch | None:
    """Stop following a conference or channel."""
    _check_followed(resource)
    return _set_finished(user, resource, WatchEvent.Kind.UNFOLLOWED, finished=False)


@overload
def _set_finished(
    user: User,
    resource: Resource,
    kind: str,
    *,
    finished: Literal[True] = ...,
    least_logged: int = ...,
) -> Watch: ...
@overload
def _set_finished(
    user: User, resource: Resource, kind: str, *, finished: bool, least_logged: int = ...
) -> Watch | None: ...
def _set_finished(
    user: User, resource: Resource, kind: str, *, finished: bool = True, least_logged: int = -1
) -> Watch | None:
    """Finish or unfinish the learner's watch of resource, logging the change once; finishing
    only a watch with more than least_logged minutes logged (a new one has none).

    One conditional UPDATE decides: it changes the row or nothing, so a second click (or a
    concurrent one, which waits for the row's lock) logs no event. The learner's watch row as
    it stands after the click, or None when they have none.
    """
    rows = Watch.objects.filter(user=user, resource=resource)
    now = timezone.now()
    with transaction.atomic():
        if finished:
            if least_logged < 0:
                # Insert-or-ignore: the first click makes the row, a concurrent one finds it.
                Watch.objects.bulk_create(
                    [Watch(user=user, resource=resource)], ignore_conflicts=True
                )
            to_change = rows.filter(finished_at__isnull=True, logged_minutes__gt=least_logged)
        else:
            to_change = rows.filter(finished_at__isnull=False)
        # Finishing ends a skip: the learner watched it after all (watch_finished_or_skipped).
        fields = {"finished_at": now, "skipped_at": None} if finished else {"finished_at": None}
        changed = to_change.update(**fields, updated_at=now)
        watch = rows.first()
        if watch is None:
            return None
        watch.resource = resource
        if changed:
            # The row is locked by the UPDATE: its minutes before the click are its minutes now.
            before = _watched(watch.logged_minutes, not finished, resource.duration_minutes)
            _log(watch, kind, before)
        return watch


def skip(*, user: User, resource: Resource) -> Watch:
    """Say the learner already knows a resource: the path goes past it, counted apart from what
    was watched, and it owes no code. Skipping twice changes nothing; a finished resource cannot
    be skipped (marking it not watched comes first).

    One conditional UPDATE decides, as _set_finished does, so a double click logs one event.
    """
    rows = Watch.objects.filter(user=user, resource=resource)
    now = timezone.now()
    with transaction.atomic():
        Watch.objects.bulk_create([Watch(user=user, resource=resource)], ignore_conflicts=True)
        changed = rows.filter(finished_at__isnull=True, skipped_at__isnull=True).update(
            skipped_at=now, updated_at=now
        )
        watch = rows.get()
        watch.resource = resource
        if changed:
            _log(watch, WatchEvent.Kind.SKIPPED, watch.watched_minutes)
        elif watch.is_finished:
            raise ProgressError(_("You have watched this one already: there is nothing to skip."))
        return watch


def unskip(*, user: User, resource: Resource) -> Watch | None:
    """Undo a skip: the resource is back on the path where it was; twice changes nothing."""
    rows = Watch.objects.filter(user=user, resource=resource)
    with transaction.atomic():
        changed = rows.filter(skipped_at__isnull=False).update(
            skipped_at=None, updated_at=timezone.now()
        )
        watch = rows.first()
        if watch is None:
            return None
        watch.resource = resource
        if changed:
            _log(watch, WatchEvent.Kind.UNSKIPPED, watch.watched_minutes)
        return watch


def validate_sitting_minutes(minutes: object) -> int:
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
def log_sitting(*, user: User, resource: Resource, minutes: int | str) -> Watch:
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
        watch.finished_at, watch.skipped_at = timezone.now(), None
        watch.save(update_fields=["finished_at", "skipped_at"])
    _log(watch, WatchEvent.Kind.SITTING, before, logged=minutes)
    return watch


def _watched(logged: int, finished: bool, duration: int | None) -> int:
    """Minutes counted as watched, as Watch.watched_minutes counts them."""
    return max(logged, duration or 0) if finished else logged


def _replay(watch: Watch, events: list[WatchEvent]) -> list[WatchEvent]:
    """Recount each event's change in minutes watched from the sittings, and the watch's state;
    the events whose minutes changed.

    Events are the watch's whole history, oldest first. Sittings finish the resource when they
    reach its duration, as log_sitting does, so correcting one may finish or unfinish it.
    """
    duration = watch.resource.duration_minutes
    logged, finished_at = 0, None
    moved = []
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
        minutes = _watched(logged, finished_at is not None, duration) - before
        if event.minutes != minutes:
            event.minutes = minutes
            moved.append(event)
    watch.logged_minutes = logged
    if finished_at is None or not watch.is_finished:
        watch.finished_at = finished_at
    return moved


def _locked_sitting(user: User, sitting_id: int) -> tuple[Watch, list[WatchEvent], WatchEvent]:
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


def _save_replayed(watch: Watch, history: list[WatchEvent], corrected: WatchEvent | None) -> Watch:
    """Replay the history and save what changed: the events whose minutes moved, the sitting
    whose logged minutes the caller corrected (if any), and the watch row."""
    changed = _replay(watch, history)
    if corrected is not None and corrected not in changed:
        changed.append(corrected)
    if watch.is_finished:
        watch.skipped_at = None
    # Only what changed: a sitting that grows by a minute while a video plays changes itself and
    # at most the events after it, not the learner's whole history of the resource.
    WatchEvent.objects.bulk_update(changed, ["minutes", "logged_minutes"])
    # With its resume point, which a beat that replays sets first: one write of the row, not two.
    fields = ["logged_minutes", "finished_at", "skipped_at", "resume_seconds", "updated_at"]
    watch.save(update_fields=fields)
    return watch


@transaction.atomic
def correct_sitting(*, user: User, sitting_id: int, minutes: int | str) -> Watch:
    """Change the minutes of one of the learner's sittings; the totals are recounted exactly.

    Raises WatchEvent.DoesNotExist when the learner has no such sitting.
    """
    minutes = validate_sitting_minutes(minutes)
    watch, history, sitting = _locked_sitting(user, sitting_id)
    sitting.logged_minutes = minutes
    return _save_replayed(watch, history, sitting)


@transaction.atomic
def delete_sitting(*, user: User, sitting_id: int) -> Watch:
    """Delete one of the learner's sittings; the totals are recounted exactly.

    Raises WatchEvent.DoesNotExist when the learner has no such sitting.
    """
    watch, history, sitting = _locked_sitting(user, sitting_id)
    history.remove(sitting)
    sitting.delete()
    return _save_replayed(watch, history, None)


def write_note(*, user: User, resource: Resource, text: str) -> Note | None:
    """Write or replace the learner's note on a resource, or delete it when text is empty.

    One statement (an upsert), so two first saves at once leave one note and no error.
    """
    if not text:
        Note.objects.filter(user=user, resource=resource).delete()
        return None
    Note.objects.bulk_create(
        [Note(user=user, resource=resource, text=text)],
        update_conflicts=True,
        unique_fields=["user", "resource"],
        update_fields=["text", "updated_at"],
    )
    return Note.objects.get(user=user, resource=resource)


def save_once(form: CodingSessionForm, user: User) -> tuple[CodingSession, bool]:
    # form is valid
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


# A viewing session lands in a sitting of these minutes: its new seconds, rounded to the minute.
SECONDS_IN_A_MINUTE = 60
# The resource is watched once this share of the video's distinct seconds has been played
# (Open edX's completion rule for videos).
COMPLETION_SHARE = 0.95
# Between two beats, the video can play no faster than this (YouTube's fastest speed is 2x) …
MAX_PLAYBACK_RATE = 2
# … plus this margin, for the seconds played before the first beat and a clock's jitter.
BEAT_MARGIN_SECONDS = 60
# A session that ended this close to the end resumes from the top.
END_SECONDS = 10


@dataclass
class ViewingRecorded:
    """What recording a beat left: the learner's watch row, the session, and the totals."""

    watch: Watch
    viewing: Viewing
    watched_seconds: int
    finished_now: bool


@transaction.atomic
def record_viewing(*, user: User, resource: Resource, beat: Beat) -> ViewingRecorded:
    """Merge a beat's ranges into its viewing session; the session's new seconds land in its
    sitting, and ≥ 95 % of the video's distinct seconds played marks the resource watched, as the
    one-click does. Raises BadBeat, and writes nothing, when the beat cannot be true.

    The watch row's lock serializes whatever writes the learner's viewings of the resource (beats,
    deleting a sitting): under it their sessions are read without a lock of their own."""
    _check_watchable(resource)
    watch = _locked_watch(user, resource, create=True)
    now = timezone.now()
    viewing, earlier = _viewings_for(user, resource, beat, now)
    before = _beat_fields(viewing)
    session_ranges = merged(viewing.ranges, beat.ranges)
    _check_played_in_time(viewing, seconds(session_ranges) - viewing.played_seconds, now)
    viewing.ranges, viewing.played_seconds, viewing.beat_at = (
        session_ranges,
        seconds(session_ranges),
        now,
    )
    viewing.duration_seconds = beat.duration
    before_this = [r for other in earlier for r in other.ranges]
    new_seconds = seconds_beyond(session_ranges, before_this)
    minutes = min(round(new_seconds / SECONDS_IN_A_MINUTE), MINUTES_IN_A_DAY)
    resume = _resume_second(viewing)
    resume_unsaved = resume != watch.resume_seconds
    watch.resume_seconds = resume
    if _land_in_sitting(watch, viewing, minutes, now):
        resume_unsaved = False  # the replay saved the watch, its resume point with it
    _save_beat(viewing, before)
    watched_seconds = seconds(merged(session_ranges, before_this))
    finished_now = False
    if not watch.is_finished and watched_seconds >= COMPLETION_SHARE * beat.duration:
        watch = _set_finished(user, resource, WatchEvent.Kind.FINISHED)
        finished_now = True
    if resume_unsaved:
        Watch.objects.filter(pk=watch.pk).update(resume_seconds=resume)
        watch.resume_seconds = resume
    return ViewingRecorded(watch, viewing, watched_seconds, finished_now)


def _viewings_for(
    user: User, resource: Resource, beat: Beat, now: datetime
) -> tuple[Viewing, list[Viewing]]:
    """The learner's session of this key, or a new one, and their other sessions of resource, in
    one query; a key of another resource is refused."""
    sessions = list(
        Viewing.objects.for_learner(user)
        .of_resource_or_key(resource, beat.viewing)
        .select_related("sitting")
    )
    viewing = next((session for session in sessions if session.key == beat.viewing), None)
    earlier = [session for session in sessions if session is not viewing]
    if viewing is None:
        viewing = Viewing(
            user=user, resource=resource, key=beat.viewing, duration_seconds=beat.duration,
            started_at=now, beat_at=now,
        )  # fmt: skip
    elif viewing.resource_id != resource.pk:
        raise BadBeat("viewing", _("This viewing key belongs to another video."))
    return viewing, earlier


# What a beat may change of its session; the rest is written once, when the session starts.
BEAT_FIELDS = ("ranges", "played_seconds", "duration_seconds", "beat_at", "sitting_id")


def _beat_fields(viewing: Viewing) -> dict[str, object]:
    return {name: getattr(viewing, name) for name in BEAT_FIELDS}


def _save_beat(viewing: Viewing, before: dict[str, object]) -> None:
    """Insert a new session; of one already saved, write only what the beat changed."""
    if viewing.pk is None:
        viewing.save()
        return
    changed = [name for name, value in before.items() if getattr(viewing, name) != value]
    viewing.save(update_fields=changed)


def _check_played_in_time(viewing: Viewing, growth: float, now: datetime) -> None:
    """More seconds than could have played since the last beat means the beat is not true."""
    elapsed = (now - viewing.beat_at).total_seconds() if viewing.pk else 0
    if growth > MAX_PLAYBACK_RATE * elapsed + BEAT_MARGIN_SECONDS:
        raise BadBeat(
            "ranges",
            _("More was played than the time since the last beat allows: nothing was recorded."),
        )


def _land_in_sitting(watch: Watch, viewing: Viewing, minutes: int, now: datetime) -> bool:
    """Give the session's sitting these minutes, creating it at its first whole minute; whether
    that changed a sitting, the history replayed and the watch saved."""
    if viewing.sitting is None:
        if minutes == 0:
            return False
        viewing.sitting = WatchEvent.objects.create(
            user_id=watch.user_id, resource=watch.resource, kind=WatchEvent.Kind.SITTING, at=now
        )
    elif viewing.sitting.logged_minutes == minutes:
        return False
    history = list(
        WatchEvent.objects.for_learner(watch.user_id).filter(resource=watch.resource).in_order()
    )
    for event in history:
        if event.pk == viewing.sitting.pk:
            event.logged_minutes = minutes
            viewing.sitting = event
    _save_replayed(watch, history, viewing.sitting)
    return True


def _resume_second(viewing: Viewing) -> int:
    furthest = viewing.furthest_second
    return 0 if furthest >= viewing.duration_seconds - END_SECONDS else furthest


def log_code_today(
    *, user: User, resource: Resource, minutes: int, key: uuid.UUID | str, built: str
) -> tuple[CodingSession, bool]:
    """Log minutes of code on resource today (the learner's day) in one tap; the same key twice
    (a double tap, a resent form) saves one session. Returns the session and whether it is new."""
    return CodingSession.objects.get_or_create(
        user=user,
        idempotency_key=key,
        defaults={
            "day": timezone.localdate(),
            "minutes": minutes,
            "resource": resource,
            "built": built[: CodingSession._meta.get_field("built").max_length],
        },
    )
