"""What reminds a learner of their plan: a private calendar feed, a weekly digest and a daily nudge
by e-mail."""

from datetime import time

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from lib.models import Token, TokenQuerySet
from lib.tokens import digest, new_token


def new_feed_token():
    """Kept for migration 0001, which names it as the old token column's default."""
    return new_token()


# Code time on weekdays unless the learner picks other days (a bit per day, Monday first).
WEEKDAYS_MONDAY_TO_FRIDAY = 0b0011111


class CalendarFeedQuerySet(TokenQuerySet):
    def for_token(self, token):
        """The feed this token opens, with its learner and their profile, in one query; none for
        a deactivated account."""
        return (
            self.with_token(token)
            .filter(user__is_active=True)
            .select_related("user__profile__architecture")
        )


class CalendarFeed(Token):
    """A learner's private iCalendar address: whoever has the token reads the plan, nothing else."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="calendar_feed",
        verbose_name=_("learner"),
    )
    # Each new address of the feed renews it (CalendarFeed.issue_for).
    created_at = models.DateTimeField(_("created at"), auto_now=True)
    code_weekdays = models.PositiveSmallIntegerField(
        _("code days"),
        default=WEEKDAYS_MONDAY_TO_FRIDAY,
        help_text=_("The days of the week that get code time: bit 0 is Monday, bit 6 Sunday."),
    )
    code_at = models.TimeField(
        _("code time starts at"), default=time(20, 0), help_text=_("In the learner's time zone.")
    )

    objects = CalendarFeedQuerySet.as_manager()

    class Meta:
        verbose_name = _("calendar feed")
        verbose_name_plural = _("calendar feeds")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(code_weekdays__gte=1, code_weekdays__lte=127),
                name="calendar_feed_some_code_days",
            )
        ]

    def __str__(self):
        return str(self.user)

    @property
    def code_days(self) -> list[int]:
        """The weekdays with code time, 0 for Monday to 6 for Sunday."""
        return [day for day in range(7) if self.code_weekdays & (1 << day)]

    @classmethod
    def issue_for(cls, user):
        """The feed and its new token, the only time it is known: the old address stops working."""
        token = new_feed_token()
        feed, _created = cls.objects.update_or_create(
            user=user, defaults={"token_hash": digest(token)}
        )
        return feed, token


class DigestSubscription(models.Model):
    """A learner who asked for the weekly digest, and the weekday they want it on."""

    class Weekday(models.IntegerChoices):
        MONDAY = 0, _("Monday")
        TUESDAY = 1, _("Tuesday")
        WEDNESDAY = 2, _("Wednesday")
        THURSDAY = 3, _("Thursday")
        FRIDAY = 4, _("Friday")
        SATURDAY = 5, _("Saturday")
        SUNDAY = 6, _("Sunday")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="digest_subscription",
        verbose_name=_("learner"),
    )
    weekday = models.PositiveSmallIntegerField(
        _("weekday"), choices=Weekday.choices, default=Weekday.MONDAY
    )
    subscribed_at = models.DateTimeField(_("subscribed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("digest subscription")
        verbose_name_plural = _("digest subscriptions")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(weekday__gte=0, weekday__lte=6), name="digest_weekday_valid"
            )
        ]

    def __str__(self):
        return f"{self.user} · {self.get_weekday_display()}"


class DigestQuerySet(models.QuerySet):
    def unsent_for_subscribers(self, since_week):
        """Digests of since_week or later not sent yet, of learners still subscribed with an address."""
        return self.filter(
            sent_at__isnull=True,
            week__gte=since_week,
            user__is_active=True,
            user__digest_subscription__isnull=False,
        ).exclude(user__email="")


class Digest(models.Model):
    """One learner's digest of one week, created before it is sent: at most one per week."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="digests",
        verbose_name=_("learner"),
    )
    week = models.DateField(
        _("week"), help_text=_("The Monday of the week it is sent in, in the learner's time zone.")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)

    objects = DigestQuerySet.as_manager()

    class Meta:
        verbose_name = _("digest")
        verbose_name_plural = _("digests")
        constraints = [
            models.UniqueConstraint(fields=["user", "week"], name="digest_one_per_learner_week")
        ]

    def __str__(self):
        return f"{self.user} · {self.week}"


class NudgeSubscription(models.Model):
    """A learner who asked for the daily nudge, and the hour they want it at."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="nudge_subscription",
        verbose_name=_("learner"),
    )
    hour = models.PositiveSmallIntegerField(
        _("hour"), help_text=_("From 0 to 23, in the learner's time zone.")
    )
    subscribed_at = models.DateTimeField(_("subscribed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("daily nudge subscription")
        verbose_name_plural = _("daily nudge subscriptions")
        constraints = [
            models.CheckConstraint(condition=models.Q(hour__lte=23), name="nudge_hour_valid")
        ]

    def __str__(self):
        return f"{self.user} · {self.hour:02d}:00"


class Nudge(models.Model):
    """One learner's nudge of one day, created before it is sent: at most one per local date."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        SKIPPED = "skipped", _("not needed by the time it was due")
        FAILED = "failed", _("failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="nudges",
        verbose_name=_("learner"),
    )
    day = models.DateField(_("day"), help_text=_("The date in the learner's time zone."))
    status = models.CharField(
        _("status"),
        max_length=8,
        choices=Status.choices,
        default=Status.QUEUED,
        help_text=_(
            "A nudge left being sent (a worker stopped mid-send) is never sent again: "
            "one missed nudge is better than two."
        ),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)

    class Meta:
        verbose_name = _("daily nudge")
        verbose_name_plural = _("daily nudges")
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="nudge_one_per_learner_day")
        ]

    def __str__(self):
        return f"{self.user} · {self.day}"
