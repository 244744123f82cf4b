"""Writes that change what a learner watched: each updates one Watch row and logs one WatchEvent.

Every event's minutes is the change in the learner's watched minutes (Watch.watched_minutes), so
the sum of a learner's events always equals the sum of their current watched minutes.
"""

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, overload

from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from curriculum.models import Resource, Revision
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


class CurriculumChanged(Exception):
    """Nothing changed: the curriculum is no longer at the revision the resource was read at."""


def _check_revision(revision: str | None) -> None:
    """Raise CurriculumChanged unless revision is None or still the curriculum's token."""
    if revision is None:
        return
    if revision != Revision.objects.values_list("token", flat=True).first():
        raise CurriculumChanged


def mark_watched(
    *, user: User, resource: Resource, confirmed: bool = True, revision: str | None = None
) -> Watch:
    """Finish a watched resource in one click; marking it again changes nothing.

    Unconfirmed, a click that would credit LONG_MINUTES or more beyond the sittings changes
    nothing and raises NotConfirmed with the resource and the learner's watch row (or None).
    With a revision (the curriculum token the resource was read at), nothing changes unless it
    is still the current one: CurriculumChanged. The other one-click changes take one alike.
    """
    _check_watchable(resource)
    duration = resource.duration_minutes or 0
    # Unconfirmed, a long resource is finished only when its sittings leave under LONG_MINUTES.
    least_logged = -1 if confirmed or duration < LONG_MINUTES else duration - LONG_MINUTES
    watch = _set_finished(
        user, resource, WatchEvent.Kind.FINISHED, least_logged=least_logged, revision=revision
    )
    if least_logged >= 0 and (watch is None or not watch.is_finished):
        raise NotConfirmed(resource, watch)
    return watch


def mark_not_watched(
    *, user: User, resource: Resource, revision: str | None = None
) -> Watch | None:
    """Undo "watched": the resource goes back to the minutes logged in sittings, no more."""
    _check_watchable(resource)
    kind = WatchEvent.Kind.UNFINISHED
    return _set_finished(user, resource, kind, finished=False, revision=revision)


def mark_followed(*, user: User, resource: Resource, revision: str | None = None) -> Watch:
    """Mark a conference or channel followed; it carries no minutes."""
    _check_followed(resource)
    return _set_finished(user, resource, WatchEvent.Kind.FOLLOWED, revision=revision)


def mark_not_followed(
    *, user: User, resource: Resource, revision: str | None = None
) -> Watch | None:
    """Stop following a conference or channel."""
    _check_followed(resource)
    kind = WatchEvent.Kind.UNFOLLOWED
    return _set_finished(user, resource, kind, finished=False, revision=revision)


@overload
def _set_finished(
    user: User,
    resource: Resource,
    kind: str,
    *,
    finished: Literal[True] = ...,
    least_logged: int = ...,
    revision: str | None = ...,
) -> Watch: ...
@overload
def _set_finished(
    user: User,
    resource: Resource,
    kind: str,
    *,
    finished: bool,
    least_logged: int = ...,
    revision: str | None = ...,
) -> Watch | None: ...
def _set_finished(
    user: User,
    resource: Resource,
    kind: str,
    *,
    finished: bool = True,
    least_logged: int = -1,
    revision: str | None = None,
) -> Watch | None:
    """Finish or unfinish the learner's watch of resource, logging the change once; finishing
    only a watch with more than least_logged minutes logged (a new one has none).

    The learner's watch row as it stands after the click, or None when they have none.
    """
    if connection.vendor == "postgresql":
        return _set_finished_in_one_statement(
            user, resource, kind, finished, least_logged, revision
        )
    with transaction.atomic():
        _check_revision(revision)
        watch = _locked_watch(user, resource, create=finished and least_logged < 0)
        if watch is None or watch.is_finished == finished or watch.logged_minutes <= least_logged:
            return watch
        before = watch.watched_minutes
        watch.finished_at = timezone.now() if finished else None
        watch.save(update_fields=["finished_at", "updated_at"])
        _log(watch, kind, before)
        return watch


# The watch row's fields and columns, in the model's order (Watch.from_db reads them so).
_WATCH_FIELDS = [field.attname for field in Watch._meta.concrete_fields]
_WATCH_COLUMNS = ", ".join(str(field.column) for field in Watch._meta.concrete_fields)

# Whether the curriculum is still at the revision the resource was read at (or none was given):
# every write below is made only then, so the token needs no query of its own.
_FRESH = """\
fresh AS (
    SELECT %(revision)s::text IS NULL
        OR %(revision)s = (SELECT token FROM curriculum_revision ORDER BY id LIMIT 1) AS ok
)"""

# The statement's answer, always one row: whether the curriculum was fresh, then the watch row
# (all NULL when the learner has none): changed, or as the statement's snapshot saw it.
_ANSWER = f"""\
SELECT fresh.ok, watch.* FROM fresh LEFT JOIN (
    SELECT {_WATCH_COLUMNS}, true AS changed FROM changed
    UNION ALL
    SELECT {_WATCH_COLUMNS}, false FROM progress_watch
    WHERE user_id = %(user)s AND resource_id = %(resource)s AND NOT EXISTS (SELECT FROM changed)
) AS watch ON true"""

# Finishing in one statement: the row is updated, or inserted when the learner has none, and the
# event is logged only when the row changed (its minutes from the row as locked).
_FINISH = f"""\
WITH {_FRESH}, updated AS (
    UPDATE progress_watch SET finished_at = %(now)s, updated_at = %(now)s
    WHERE user_id = %(user)s AND resource_id = %(resource)s
        AND finished_at IS NULL AND logged_minutes > %(least_logged)s AND (SELECT ok FROM fresh)
    RETURNING {_WATCH_COLUMNS}
), inserted AS (
    INSERT INTO progress_watch (user_id, resource_id, logged_minutes, finished_at, resume_seconds,
        updated_at)
    SELECT %(user)s, %(resource)s, 0, %(now)s, 0, %(now)s
    WHERE %(least_logged)s < 0 AND (SELECT ok FROM fresh) AND NOT EXISTS (
        SELECT FROM progress_watch WHERE user_id = %(user)s AND resource_id = %(resource)s
    )
    ON CONFLICT (user_id, resource_id) DO UPDATE
        SET finished_at = EXCLUDED.finished_at, updated_at = EXCLUDED.updated_at
        WHERE progress_watch.finished_at IS NULL
    RETURNING {_WATCH_COLUMNS}
), changed AS (
    SELECT * FROM updated UNION ALL SELECT * FROM inserted
), logged AS (
    INSERT INTO progress_watchevent (user_id, resource_id, kind, minutes, logged_minutes, at)
    SELECT user_id, resource_id, %(kind)s,
        GREATEST(logged_minutes, %(duration)s) - logged_minutes, 0, %(now)s
    FROM changed
)
{_ANSWER}"""

# Unfinishing in one statement, as _FINISH: there is never a row to insert.
_UNFINISH = f"""\
WITH {_FRESH}, changed AS (
    UPDATE progress_watch SET finished_at = NULL, updated_at = %(now)s
    WHERE user_id = %(user)s AND resource_id = %(resource)s AND finished_at IS NOT NULL
        AND (SELECT ok FROM fresh)
    RETURNING {_WATCH_COLUMNS}
), logged AS (
    INSERT INTO progress_watchevent (user_id, resource_id, kind, minutes, logged_minutes, at)
    SELECT user_id, resource_id, %(kind)s,
        logged_minutes - GREATEST(logged_minutes, %(duration)s), 0, %(now)s
    FROM changed
)
{_ANSWER}"""


def _set_finished_in_one_statement(
    user: User,
    resource: Resource,
    kind: str,
    finished: bool,
    least_logged: int,
    revision: str | None,
) -> Watch | None:
    """_set_finished in one PostgreSQL statement: no transaction to open, no lock kept when
    nothing changes, so a double click costs one read."""
    parameters: dict[str, int | str | datetime | None] = {
        "user": user.pk,
        "resource": resource.pk,
        "kind": kind,
        "duration": resource.duration_minutes or 0,
        "least_logged": least_logged,
        "revision": revision,
        "now": timezone.now(),
    }
    with connection.cursor() as cursor:
        cursor.execute(_FINISH if finished else _UNFINISH, parameters)
        fresh, *columns, changed = cursor.fetchone()
    if not fresh:
        raise CurriculumChanged
    watch = _watch(columns, resource) if columns[0] is not None else None
    if not changed and _would_change(watch, finished, least_logged):
        # A concurrent click changed the row after this statement's snapshot: read it as it is.
        watch = Watch.objects.for_learner(user).filter(resource=resource).first()
        if watch is not None:
            watch.resource = resource
    return watch


def _watch(columns: list, resource: Resource) -> Watch:
    watch = Watch.from_db(connection.alias, _WATCH_FIELDS, columns)
    watch.resource = resource
    return watch


def _would_change(watch: Watch | None, finished: bool, least_logged: int) -> bool:
    """Whether _set_finished changes this row (None: no row yet)."""
    if watch is None:
        return finished and least_logged < 0
    if not finished:
        return watch.is_finished
    return not watch.is_finished and watch.logged_minutes > least_logged


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
def log_sitting(
    *, user: User, resource: Resource, minutes: int | str, revision: str | None = None
) -> Watch:
    """Add minutes watched in one sitting; reaching the duration finishes the resource (with a
    revision, only at that revision of the curriculum, as mark_watched)."""
    _check_watchable(resource)
    minutes = validate_sitting_minutes(minutes)
    _check_revision(revision)
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


def _save_replayed(watch: Watch, history: list[WatchEvent]) -> Watch:
    _replay(watch, history)
    WatchEvent.objects.bulk_update(history, ["minutes", "logged_minutes"])
    watch.save(update_fields=["logged_minutes", "finished_at", "updated_at"])
    return watch


@transaction.atomic
def correct_sitting(*, user: User, sitting_id: int, minutes: int | str) -> Watch:
    """Change the minutes of one of the learner's sittings; the totals are recounted exactly.

    Raises WatchEvent.DoesNotExist when the learner has no such sitting.
    """
    minutes = validate_sitting_minutes(minutes)
    watch, history, sitting = _locked_sitting(user, sitting_id)
    sitting.logged_minutes = minutes
    return _save_replayed(watch, history)


@transaction.atomic
def delete_sitting(*, user: User, sitting_id: int) -> Watch:
    """Delete one of the learner's sittings; the totals are recounted exactly.

    Raises WatchEvent.DoesNotExist when the learner has no such sitting.
    """
    watch, history, sitting = _locked_sitting(user, sitting_id)
    history.remove(sitting)
    sitting.delete()
    return _save_replayed(watch, history)


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
    one-click does. Raises BadBeat, and writes nothing, when the beat cannot be true."""
    _check_watchable(resource)
    watch = _locked_watch(user, resource, create=True)
    now = timezone.now()
    viewing = _viewing_for(user, resource, beat, now)
    earlier = Viewing.objects.for_learner(user).filter(resource=resource).exclude(pk=viewing.pk)
    earlier_ranges = list(earlier.values_list("ranges", flat=True))
    session_ranges = merged(viewing.ranges, beat.ranges)
    _check_played_in_time(viewing, seconds(session_ranges) - viewing.played_seconds, now)
    viewing.ranges, viewing.played_seconds, viewing.beat_at = (
        session_ranges,
        seconds(session_ranges),
        now,
    )
    viewing.duration_seconds = beat.duration
    before_this = [r for v_ranges in earlier_ranges for r in v_ranges]
    new_seconds = seconds_beyond(session_ranges, before_this)
    minutes = min(round(new_seconds / SECONDS_IN_A_MINUTE), MINUTES_IN_A_DAY)
    _land_in_sitting(watch, viewing, minutes, now)
    viewing.save()
    watched_seconds = seconds(merged(session_ranges, before_this))
    finished_now = False
    if not watch.is_finished and watched_seconds >= COMPLETION_SHARE * beat.duration:
        watch = _set_finished(user, resource, WatchEvent.Kind.FINISHED)
        finished_now = True
    watch.resume_seconds = _resume_second(viewing)
    Watch.objects.filter(pk=watch.pk).update(resume_seconds=watch.resume_seconds)
    return ViewingRecorded(watch, viewing, watched_seconds, finished_now)


def _viewing_for(user: User, resource: Resource, beat: Beat, now: datetime) -> Viewing:
    """The learner's session of this key, locked, or a new one; a key of another resource is refused."""
    viewing = (
        Viewing.objects.for_learner(user)
        .select_for_update(of=("self",))
        .select_related("sitting")
        .filter(key=beat.viewing)
        .first()
    )
    if viewing is None:
        return Viewing(
            user=user, resource=resource, key=beat.viewing, duration_seconds=beat.duration,
            started_at=now, beat_at=now,
        )  # fmt: skip
    if viewing.resource_id != resource.pk:
        raise BadBeat("viewing", _("This viewing key belongs to another video."))
    return viewing


def _check_played_in_time(viewing: Viewing, growth: float, now: datetime) -> None:
    """More seconds than could have played since the last beat means the beat is not true."""
    elapsed = (now - viewing.beat_at).total_seconds() if viewing.pk else 0
    if growth > MAX_PLAYBACK_RATE * elapsed + BEAT_MARGIN_SECONDS:
        raise BadBeat(
            "ranges",
            _("More was played than the time since the last beat allows: nothing was recorded."),
        )


def _land_in_sitting(watch: Watch, viewing: Viewing, minutes: int, now: datetime) -> None:
    """Give the session's sitting these minutes, creating it at its first whole minute."""
    if viewing.sitting is None:
        if minutes == 0:
            return
        viewing.sitting = WatchEvent.objects.create(
            user_id=watch.user_id, resource=watch.resource, kind=WatchEvent.Kind.SITTING, at=now
        )
    elif viewing.sitting.logged_minutes == minutes:
        return
    history = list(
        WatchEvent.objects.for_learner(watch.user_id).filter(resource=watch.resource).in_order()
    )
    for event in history:
        if event.pk == viewing.sitting.pk:
            event.logged_minutes = minutes
            viewing.sitting = event
    _save_replayed(watch, history)


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
