"""What reminds a learner of their plan: a private calendar feed and a weekly digest by e-mail."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.tokens import digest, new_token


def new_feed_token():
    """Kept for migration 0001, which names it as the old token column's default."""
    return new_token()


class CalendarFeedQuerySet(models.QuerySet):
    def for_token(self, token):
        """The feed this token opens, with its learner and their profile, in one query."""
        return self.select_related("user__profile__architecture").filter(token_hash=digest(token))


class CalendarFeed(models.Model):
    """A learner's private iCalendar address: whoever has the token reads the plan, nothing else."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="calendar_feed",
        verbose_name=_("learner"),
    )
    token_hash = models.CharField(_("token digest"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now=True)

    objects = CalendarFeedQuerySet.as_manager()

    class Meta:
        verbose_name = _("calendar feed")
        verbose_name_plural = _("calendar feeds")

    def __str__(self):
        return str(self.user)

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

    class Meta:
        verbose_name = _("digest")
        verbose_name_plural = _("digests")
        constraints = [
            models.UniqueConstraint(fields=["user", "week"], name="digest_one_per_learner_week")
        ]

    def __str__(self):
        return f"{self.user} · {self.week}"
