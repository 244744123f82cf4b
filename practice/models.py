"""Kernel exercises that follow a lecture, and the learners' submissions, checked by the worker."""

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from curriculum.models import Chapter, Resource

# A solution is one Python file: larger than this, it is refused before anything runs.
MAX_CODE_BYTES = 64 * 1024


class ExerciseQuerySet(models.QuerySet):
    def active(self):
        """Exercises learners see: those a curator has not turned off."""
        return self.filter(is_active=True)

    def for_resource(self, resource_id):
        """The active exercises that follow one resource, in the curators' order."""
        return self.active().filter(resource_id=resource_id).order_by("order", "slug")

    def with_passed(self, user):
        """Exercises with `passed`: whether this learner has a passing submission of each."""
        passing = Submission.objects.filter(
            exercise=OuterRef("pk"), learner=user, verdict=Submission.Verdict.PASSED
        )
        return self.annotate(passed=Exists(passing))

    def passed_by(self, user):
        """The exercises this learner passed, first passed first, each with `first_passed_at` and
        `sent` (how many submissions of it they sent, passed or not)."""
        passed = Q(submissions__verdict=Submission.Verdict.PASSED)
        return (
            self.filter(submissions__learner=user)
            .annotate(
                first_passed_at=models.Min("submissions__created", filter=passed),
                sent=models.Count("submissions"),
            )
            .filter(first_passed_at__isnull=False)
            .order_by("first_passed_at", "pk")
        )


class Exercise(models.Model):
    slug = models.SlugField(
        _("slug"),
        max_length=100,
        unique=True,
        help_text=_("Submissions are kept under this name: it comes from the repository's folder."),
    )
    title = models.CharField(_("title"), max_length=200)
    statement = models.TextField(
        _("statement"),
        blank=True,
        help_text=_("Markdown from the repository; the loader rewrites it when the file changes."),
    )
    starter = models.TextField(_("starter code"), blank=True)
    resource = models.ForeignKey(
        Resource,
        on_delete=models.PROTECT,
        related_name="exercises",
        verbose_name=_("resource"),
        help_text=_("The lecture this exercise follows: its page shows the exercise."),
    )
    chapter = models.ForeignKey(
        Chapter,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="exercises",
        verbose_name=_("chapter of the guide"),
    )
    order = models.PositiveSmallIntegerField(
        _("order"),
        default=0,
        help_text=_("Exercises of one resource are listed from the smallest number."),
    )
    is_active = models.BooleanField(
        _("active"),
        default=True,
        help_text=_("Turned off, the exercise is hidden from learners and accepts no submission."),
    )
    folder = models.CharField(
        _("folder"),
        max_length=100,
        help_text=_("Its folder under exercises/ in the repository."),
    )
    fingerprint = models.CharField(
        _("fingerprint"),
        max_length=64,
        blank=True,
        editable=False,
        help_text=_("A hash of the folder's files: the loader rewrites the text when it changes."),
    )

    objects = ExerciseQuerySet.as_manager()

    class Meta:
        ordering = ["order", "slug"]
        verbose_name = _("exercise")
        verbose_name_plural = _("exercises")

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("practice:exercise", args=[self.slug])

    @property
    def directory(self):
        return settings.PRACTICE_EXERCISES_DIR / self.folder


class SubmissionQuerySet(models.QuerySet):
    def for_learner(self, user):
        """One learner's submissions, newest first."""
        return self.filter(learner=user).order_by("-created", "-pk")

    def pending(self):
        """Submissions waiting for the worker's verdict."""
        return self.filter(verdict=Submission.Verdict.PENDING)

    def passed(self):
        """Submissions whose solution passed every case."""
        return self.filter(verdict=Submission.Verdict.PASSED)

    def passed_with_counts(self):
        """One row per exercise passed: when it was first passed, how many submissions it took
        (every one sent, passed or not), in the order they were passed."""
        return (
            self.order_by()
            .values("exercise")
            .annotate(
                first_passed_at=models.Min("created", filter=Q(verdict=Submission.Verdict.PASSED)),
                submissions=models.Count("pk"),
            )
            .filter(first_passed_at__isnull=False)
            .order_by("first_passed_at")
        )


class Submission(models.Model):
    class Verdict(models.TextChoices):
        PENDING = "pending", _("being checked")
        PASSED = "passed", _("passed")
        FAILED = "failed", _("failed")
        TIMED_OUT = "timed_out", _("timed out")
        CRASHED = "crashed", _("crashed")
        REFUSED = "refused", _("refused")

    class Source(models.TextChoices):
        WEB = "web", _("the site")
        CLI = "cli", _("the command line")

    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="submissions",
        verbose_name=_("learner"),
    )
    exercise = models.ForeignKey(
        Exercise,
        on_delete=models.PROTECT,
        related_name="submissions",
        verbose_name=_("exercise"),
    )
    code = models.TextField(_("code"))
    created = models.DateTimeField(_("submitted"), default=timezone.now)
    checked = models.DateTimeField(_("checked"), null=True, blank=True)
    verdict = models.CharField(
        _("verdict"), max_length=10, choices=Verdict.choices, default=Verdict.PENDING
    )
    message = models.TextField(_("message"), blank=True)
    case = models.JSONField(
        _("failing case"),
        null=True,
        blank=True,
        help_text=_("The first public case that failed; of a hidden case, only that it was one."),
    )
    seconds = models.FloatField(_("seconds"), null=True, blank=True)
    source = models.CharField(
        _("sent from"), max_length=3, choices=Source.choices, default=Source.WEB
    )

    objects = SubmissionQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")
        constraints = [
            # The worker checks one solution of a learner at a time; a second waits its turn.
            models.UniqueConstraint(
                fields=["learner"],
                condition=Q(verdict="pending"),
                name="submission_one_pending_per_learner",
            ),
            models.CheckConstraint(
                condition=Q(
                    verdict__in=["pending", "passed", "failed", "timed_out", "crashed", "refused"]
                ),
                name="submission_verdict_known",
            ),
            models.CheckConstraint(
                condition=Q(source__in=["web", "cli"]), name="submission_source_known"
            ),
            models.CheckConstraint(
                condition=Q(seconds__isnull=True) | Q(seconds__gte=0),
                name="submission_seconds_not_negative",
            ),
        ]

    def __str__(self):
        return f"{self.exercise} · {self.learner} · {self.get_verdict_display()}"

    @property
    def is_pending(self):
        return self.verdict == self.Verdict.PENDING

    @property
    def hidden_case_failed(self):
        return isinstance(self.case, dict) and bool(self.case.get("hidden"))
