"""What each learner did: their profile, what they watched, what they coded, their notes."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.validators import (
    MaxLengthValidator,
    MaxValueValidator,
    MinValueValidator,
    URLValidator,
)
from django.db import models
from django.db.models import Case, Exists, F, OuterRef, Q, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce, Greatest, TruncDate
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from curriculum.models import Architecture, Chapter, GpuCard, Resource, Revision
from lib.time_zone import validate_time_zone
from progress.validators import validate_learner_day

MINUTES_IN_A_DAY = 24 * 60
NOTE_MAX_LENGTH = 10_000


class ProfileManager(models.Manager):
    def for_learner(self, user):
        """The learner's profile, created on first need (accounts made by createsuperuser have none).
        Its card and architecture are the curriculum's, in memory: read by id, not joined."""
        profile, _created = self.get_or_create(user=user)
        return profile

    def records_viewing_at_revision(self, user_id) -> tuple[bool, str | None]:
        """Whether the learner's player records (on until their profile turns it off) and the
        curriculum's revision token, in one query: the player's beat reads both every 30 s."""
        off = self.filter(user=OuterRef("pk"), records_viewing=False)
        token = Revision.objects.order_by("pk").values("token")[:1]
        return (
            get_user_model()
            .objects.filter(pk=user_id)
            .annotate(records=~Exists(off), revision=Subquery(token))
            .values_list("records", "revision")
            .get()
        )

    def note_browser_language(self, user_id, language):
        """Keep the language the learner's browser asks for, while they let the browser choose."""
        self.filter(user_id=user_id, language="").exclude(browser_language=language).update(
            browser_language=language
        )


class Profile(models.Model):
    """A learner's settings: their GPU, the day they started the path, their language and time zone."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("learner"),
    )
    architecture = models.ForeignKey(
        Architecture,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("GPU architecture"),
        help_text=_("Empty means “I don't know”."),
    )
    gpu_card = models.ForeignKey(
        GpuCard,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("GPU card"),
        help_text=_("Empty means “other or none”: the architecture then says which GPU."),
    )
    started_on = models.DateField(
        _("started the path on"),
        default=timezone.localdate,
        validators=[validate_learner_day],
        help_text=_("Week 1 of the path starts on this day."),
    )
    language = models.CharField(
        _("interface language"), max_length=10, choices=settings.LANGUAGES, blank=True
    )
    browser_language = models.CharField(
        _("browser's language"),
        max_length=10,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_(
            "The language the learner's browser last asked for while their interface language is "
            "the browser's: e-mails and the editor's status bar, which no browser asks for, use it."
        ),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        validators=[validate_time_zone],
        help_text=_("An IANA name such as America/Montreal; empty means the site's time zone."),
    )
    records_viewing = models.BooleanField(
        _("record what I play"),
        default=True,
        help_text=_(
            "When a video plays on its page, the seconds played are saved as sittings, the "
            "resource is marked watched at 95 %, and the page remembers where you stopped."
        ),
    )

    objects = ProfileManager()

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self):
        return str(self.user)

    def language_outside_browser(self):
        """The language of what reaches the learner outside a browser (e-mails, the editor's
        status bar): the one they chose, else the one their browser asks for, else the site's."""
        return self.language or self.browser_language or settings.LANGUAGE_CODE


class WatchQuerySet(models.QuerySet):
    def for_learner(self, user):
        """The watch states of one learner."""
        return self.filter(user=user)

    def to_continue(self):
        """Videos begun and neither finished nor skipped, the one played last first."""
        begun = Q(logged_minutes__gt=0) | Q(resume_seconds__gt=0)
        return self.filter(begun, finished_at__isnull=True, skipped_at__isnull=True).order_by(
            "-updated_at", "-pk"
        )

    def total_watched_minutes(self):
        """Sum of watched minutes (see Watch.watched_minutes), computed in the database."""
        watched = Case(
            When(
                finished_at__isnull=False,
                then=Greatest(F("logged_minutes"), Coalesce(F("resource__duration_minutes"), 0)),
            ),
            default=F("logged_minutes"),
        )
        return self.aggregate(total=Coalesce(Sum(watched), Value(0)))["total"]


class Watch(models.Model):
    """Where one learner stands on one resource: one row per learner and resource."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="watches",
        verbose_name=_("learner"),
    )
    resource = models.ForeignKey(
        Resource, on_delete=models.PROTECT, related_name="watches", verbose_name=_("resource")
    )
    logged_minutes = models.PositiveIntegerField(
        _("minutes logged"),
        default=0,
        help_text=_("Minutes logged in sittings; marking watched in one click adds none."),
    )
    finished_at = models.DateTimeField(
        _("finished at"), null=True, blank=True, help_text=_("When it was watched or followed.")
    )
    skipped_at = models.DateTimeField(
        _("skipped at"),
        null=True,
        blank=True,
        help_text=_(
            "When the learner said they already know it: the path goes past it, it counts as "
            "neither watched nor owing code. Never set while it is finished."
        ),
    )
    resume_seconds = models.PositiveIntegerField(
        _("resume at (seconds)"),
        default=0,
        help_text=_("Where the last viewing on the resource page stopped; 0 starts from the top."),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    objects = WatchQuerySet.as_manager()

    class Meta:
        verbose_name = _("watch state")
        verbose_name_plural = _("watch states")
        constraints = [
            models.UniqueConstraint(fields=["user", "resource"], name="watch_one_per_learner"),
            models.CheckConstraint(
                condition=Q(finished_at__isnull=True) | Q(skipped_at__isnull=True),
                name="watch_finished_or_skipped",
            ),
        ]

    def __str__(self):
        return f"{self.user} · {self.resource}"

    @property
    def is_finished(self):
        return self.finished_at is not None

    @property
    def is_skipped(self):
        return self.skipped_at is not None

    @property
    def watched_minutes(self):
        """Minutes counted as watched: the sittings, or the whole duration once finished."""
        if self.is_finished:
            return max(self.logged_minutes, self.resource.duration_minutes or 0)
        return self.logged_minutes


class WatchEventQuerySet(models.QuerySet):
    def for_learner(self, user):
        """The watching history of one learner."""
        return self.filter(user=user)

    def total_minutes(self):
        """Sum of the events' minutes: equals the learner's current watched minutes."""
        return self.aggregate(total=Coalesce(Sum("minutes"), Value(0)))["total"]

    def minutes_by_day(self):
        """Minutes watched per day in the current time zone, as {day: minutes}."""
        rows = self.values(on=TruncDate("at")).annotate(total=Sum("minutes")).order_by()
        return dict(rows.values_list("on", "total"))

    def minutes_by_resource(self, week_start, week_end):
        """Rows of resource, total minutes and minutes between the two instants (the week)."""
        in_week = Q(at__gte=week_start, at__lt=week_end)
        return (
            self.values("resource")
            .annotate(total=Sum("minutes"), week=Sum("minutes", filter=in_week, default=0))
            .order_by()
        )

    def sittings(self):
        """Only the sittings, the events a learner may correct."""
        return self.filter(kind=WatchEvent.Kind.SITTING)

    def in_order(self):
        """Oldest first, the order in which they happened."""
        return self.order_by("at", "pk")


class WatchEvent(models.Model):
    """One dated change to a learner's watching, kept so statistics can sum minutes per week."""

    class Kind(models.TextChoices):
        SITTING = "sitting", _("sitting logged")
        FINISHED = "finished", _("marked watched")
        UNFINISHED = "unfinished", _("marked not watched")
        FOLLOWED = "followed", _("marked followed")
        UNFOLLOWED = "unfollowed", _("marked not followed")
        SKIPPED = "skipped", _("skipped: already known")
        UNSKIPPED = "unskipped", _("skip undone")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="watch_events",
        verbose_name=_("learner"),
    )
    resource = models.ForeignKey(
        Resource, on_delete=models.PROTECT, related_name="+", verbose_name=_("resource")
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    minutes = models.IntegerField(
        _("minutes"),
        default=0,
        help_text=_("Change in minutes watched: negative when a resource is marked not watched."),
    )
    logged_minutes = models.PositiveIntegerField(
        _("minutes logged"),
        default=0,
        help_text=_("For a sitting, the minutes the learner entered; 0 for other kinds."),
    )
    at = models.DateTimeField(_("at"), default=timezone.now)

    objects = WatchEventQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("watch event")
        verbose_name_plural = _("watch events")
        indexes = [
            models.Index(fields=["user", "at"], name="watchevent_user_at"),
            # Covers the path pages' minutes per resource (progress/balance.py, learner_minutes),
            # read from the index alone however long the learner's history.
            models.Index(fields=["user", "resource", "at", "minutes"], name="watchevent_minutes"),
        ]

    def __str__(self):
        return f"{self.user} · {self.get_kind_display()} · {self.resource}"

    @property
    def is_sitting(self):
        return self.kind == self.Kind.SITTING


class CodingSessionQuerySet(models.QuerySet):
    def for_learner(self, user):
        """The coding sessions of one learner."""
        return self.filter(user=user)

    def typed(self):
        """Only the sessions the learner typed: those from the editor are recomputed, not edited."""
        return self.filter(source=CodingSession.Source.TYPED)

    def from_editor(self):
        """Only the day-by-project totals measured by the editor."""
        return self.filter(source=CodingSession.Source.EDITOR)

    def for_list(self):
        """Sessions with the resource and chapter their titles need, fetched in the same query."""
        return self.select_related("resource__series", "chapter__part")

    def row_values(self):
        """The columns of the coding log's rows as dicts, without joins (the titles of resources
        and chapters come from the curriculum in memory)."""
        return self.values(
            "pk", "day", "minutes", "built", "code_url", "resource_id", "chapter_id", "source"
        )

    def minutes_by_day(self):
        """Minutes coded per day, as {day: minutes}: the one read of "minutes coded per day"."""
        rows = self.values("day").annotate(total=Sum("minutes")).order_by()
        return dict(rows.values_list("day", "total"))

    def in_week(self, monday):
        """Sessions whose day falls in the week (Monday to Sunday) starting on monday."""
        return self.filter(day__gte=monday, day__lt=monday + timedelta(days=7))

    def minutes_by_resource(self, resources):
        """Minutes coded per resource id, in one query, for the given resources."""
        rows = (
            self.filter(resource__in=resources)
            .values("resource")
            .annotate(total=Sum("minutes"))
            .order_by()
        )
        return {row["resource"]: row["total"] for row in rows}

    def minutes_by_resource_and_week(self, monday):
        """Rows of resource (or None), total minutes and minutes in the week starting on monday."""
        in_week = Q(day__gte=monday, day__lt=monday + timedelta(days=7))
        return (
            self.values("resource")
            .annotate(total=Sum("minutes"), week=Sum("minutes", filter=in_week, default=0))
            .order_by()
        )


class CodingSession(models.Model):
    """A coding session: what the learner built after watching, tied to a resource or a chapter.

    A session "from the editor" is the time measured by the learner's editor for one project on
    one day (progress/editor_time.py): recomputed from the raw heartbeats, never typed, and tied
    to a resource or a chapter only once the learner ties its project.
    """

    class Source(models.TextChoices):
        TYPED = "typed", _("typed")
        EDITOR = "editor", _("from the editor")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="coding_sessions",
        verbose_name=_("learner"),
    )
    day = models.DateField(_("day"), validators=[validate_learner_day])
    minutes = models.PositiveIntegerField(
        _("minutes"), validators=[MinValueValidator(1), MaxValueValidator(MINUTES_IN_A_DAY)]
    )
    built = models.CharField(_("what I built"), max_length=300)
    code_url = models.URLField(
        _("link to the code"),
        max_length=500,
        blank=True,
        validators=[URLValidator(schemes=["http", "https"])],
    )
    resource = models.ForeignKey(
        Resource,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="coding_sessions",
        verbose_name=_("resource"),
    )
    chapter = models.ForeignKey(
        Chapter,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="coding_sessions",
        verbose_name=_("chapter"),
    )
    idempotency_key = models.UUIDField(
        _("form key"), help_text=_("Sent with the form so that a double submit saves one session.")
    )
    source = models.CharField(
        _("source"), max_length=6, choices=Source.choices, default=Source.TYPED
    )
    editor_project = models.CharField(
        _("editor project"),
        max_length=200,
        blank=True,
        help_text=_("For time from the editor: the project (folder or repository) it was in."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = CodingSessionQuerySet.as_manager()

    class Meta:
        ordering = ["-day", "-created_at", "-pk"]
        verbose_name = _("coding session")
        verbose_name_plural = _("coding sessions")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "idempotency_key"], name="codingsession_submitted_once"
            ),
            # Time from the editor may be untied: it then counts in the overall balance only.
            models.CheckConstraint(
                condition=Q(resource__isnull=False) | Q(chapter__isnull=False) | Q(source="editor"),
                name="codingsession_typed_tied_to_resource_or_chapter",
            ),
            models.UniqueConstraint(
                fields=["user", "day", "editor_project"],
                condition=Q(source="editor"),
                name="codingsession_one_editor_total_per_project_and_day",
            ),
            models.CheckConstraint(
                condition=Q(minutes__gte=1, minutes__lte=MINUTES_IN_A_DAY),
                name="codingsession_minutes_within_a_day",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "-day"], name="codingsession_user_day"),
            # A learner's last logged code (the group board's last activity) without their rows.
            models.Index(fields=["user", "-created_at"], name="codingsession_user_created"),
            # Covers the path pages' minutes per resource, as watchevent_minutes does.
            models.Index(
                fields=["user", "resource", "day", "minutes"], name="codingsession_minutes"
            ),
        ]

    def __str__(self):
        return f"{self.user} · {self.day} · {self.built}"

    @property
    def is_from_editor(self):
        return self.source == self.Source.EDITOR


class EditorProjectQuerySet(models.QuerySet):
    def for_learner(self, user):
        """The editor projects of one learner, by name."""
        return self.filter(user=user).order_by("name")

    def for_list(self):
        """Projects with the resource and chapter they count for, fetched in the same query."""
        return self.select_related("resource", "chapter__part")


class EditorProject(models.Model):
    """A project the learner's editor reported (a folder or repository name), and where its time
    counts: tied once to a resource or a chapter, or nowhere but the overall balance."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="editor_projects",
        verbose_name=_("learner"),
    )
    name = models.CharField(_("name"), max_length=200, blank=True)
    resource = models.ForeignKey(
        Resource,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("resource"),
    )
    chapter = models.ForeignKey(
        Chapter,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("chapter"),
    )
    counted = models.BooleanField(
        _("counted"),
        default=True,
        help_text=_(
            "Off when the learner types sessions for this work: its time then counts once."
        ),
    )

    objects = EditorProjectQuerySet.as_manager()

    class Meta:
        verbose_name = _("editor project")
        verbose_name_plural = _("editor projects")
        constraints = [
            models.UniqueConstraint(fields=["user", "name"], name="editorproject_one_per_name"),
            models.CheckConstraint(
                condition=Q(resource__isnull=True) | Q(chapter__isnull=True),
                name="editorproject_tied_once",
            ),
        ]

    def __str__(self):
        return f"{self.user} · {self.name}"


class HeartbeatQuerySet(models.QuerySet):
    def for_learner(self, user):
        """The raw heartbeats of one learner."""
        return self.filter(user=user)

    def between(self, start, end):
        """Heartbeats from start (included) to end (excluded), oldest first."""
        return self.filter(time__gte=start, time__lt=end).order_by("time", "pk")

    def older_than(self, instant):
        """Heartbeats past their retention, for pruning."""
        return self.filter(time__lt=instant)


class Heartbeat(models.Model):
    """One raw heartbeat from the learner's editor, kept only to count time and drop repeats.

    Neither the file path nor the branch is stored: the entity only as a digest, which tells two
    heartbeats apart and reveals nothing. Pruned after HEARTBEAT_RETENTION (prune_heartbeats).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="heartbeats",
        verbose_name=_("learner"),
    )
    time = models.DateTimeField(_("time"))
    entity_digest = models.CharField(_("entity digest"), max_length=64)
    project = models.CharField(_("project"), max_length=200, blank=True)
    language = models.CharField(_("language"), max_length=100, blank=True)
    category = models.CharField(_("category"), max_length=32, blank=True)

    objects = HeartbeatQuerySet.as_manager()

    class Meta:
        verbose_name = _("heartbeat")
        verbose_name_plural = _("heartbeats")
        constraints = [
            # A bulk resent after a timeout inserts nothing: its heartbeats are already here.
            models.UniqueConstraint(
                fields=["user", "time", "entity_digest"], name="heartbeat_received_once"
            )
        ]
        indexes = [models.Index(fields=["time"], name="heartbeat_time")]

    def __str__(self):
        return f"{self.user} · {self.time} · {self.project}"


class EditorDay(models.Model):
    """A learner's time from the editor on one of their days in one project, exact: the sum of
    the gaps under 15 minutes between their heartbeats (progress/editor_time.py). The coding
    session of that day and project shows it rounded to the minute; this row is what a new
    heartbeat's share is added to, so that its day is never counted again from the start."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="editor_days",
        verbose_name=_("learner"),
    )
    day = models.DateField(_("day"))
    project = models.CharField(_("project"), max_length=200, blank=True)
    microseconds = models.BigIntegerField(_("microseconds coded"), default=0)

    class Meta:
        verbose_name = _("day in the editor")
        verbose_name_plural = _("days in the editor")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "day", "project"], name="editorday_one_per_day_and_project"
            )
        ]

    def __str__(self):
        return f"{self.user} · {self.day} · {self.project}"


class NoteQuerySet(models.QuerySet):
    def for_learner(self, user):
        """The notes of one learner: nobody else ever reads them."""
        return self.filter(user=user)


class Note(models.Model):
    """A learner's private note on a resource: what they learned, where they stopped."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notes",
        verbose_name=_("learner"),
    )
    resource = models.ForeignKey(
        Resource, on_delete=models.PROTECT, related_name="+", verbose_name=_("resource")
    )
    text = models.TextField(_("note"), validators=[MaxLengthValidator(NOTE_MAX_LENGTH)])
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    objects = NoteQuerySet.as_manager()

    class Meta:
        verbose_name = _("note")
        verbose_name_plural = _("notes")
        constraints = [
            models.UniqueConstraint(fields=["user", "resource"], name="note_one_per_resource")
        ]

    def __str__(self):
        return f"{self.user} · {self.resource}"


class ViewingQuerySet(models.QuerySet):
    def for_learner(self, user):
        """The viewing sessions of one learner."""
        return self.filter(user=user)

    def of_resource_or_key(self, resource, key):
        """The sessions of resource, and the session of key whatever its resource."""
        return self.filter(Q(resource=resource) | Q(key=key))


class Viewing(models.Model):
    """One viewing session of a video played on its resource page: the ranges of the video that
    were really played, and the sitting those seconds land in.

    The player names the session with a key it makes up when play is pressed, and sends the
    session's ranges again with each beat: merging them is idempotent, so a beat sent twice or
    late never counts twice.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="viewings",
        verbose_name=_("learner"),
    )
    resource = models.ForeignKey(
        Resource, on_delete=models.PROTECT, related_name="+", verbose_name=_("resource")
    )
    key = models.UUIDField(_("session key"), help_text=_("Made up by the player for this session."))
    ranges = models.JSONField(
        _("ranges played"),
        default=list,
        help_text=_("[start, end] pairs of seconds of the video, merged, in order."),
    )
    played_seconds = models.PositiveIntegerField(
        _("seconds played"), default=0, help_text=_("Distinct seconds of the video played.")
    )
    duration_seconds = models.PositiveIntegerField(
        _("video length (seconds)"), help_text=_("As the player reported it.")
    )
    sitting = models.OneToOneField(
        WatchEvent,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="viewing",
        verbose_name=_("sitting"),
        help_text=_("Deleting the sitting deletes the viewing with it."),
    )
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    beat_at = models.DateTimeField(_("last beat at"), default=timezone.now)

    objects = ViewingQuerySet.as_manager()

    class Meta:
        ordering = ["started_at", "pk"]
        verbose_name = _("viewing")
        verbose_name_plural = _("viewings")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="viewing_one_per_key"),
        ]
        indexes = [models.Index(fields=["user", "resource"], name="viewing_user_resource")]

    def __str__(self):
        return f"{self.user} · {self.resource} · {self.started_at:%Y-%m-%d %H:%M}"

    @property
    def furthest_second(self):
        return self.ranges[-1][1] if self.ranges else 0
