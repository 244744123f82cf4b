"""The settings page's reminders section as a view model: the calendar feed, its code time, the
digest's day and the nudge's hour (templates/reminders/_settings.jinja prints it, on the
settings page and alone when an htmx form of the section answers)."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.urls import reverse

from lib.http import AuthenticatedHttpRequest
from reminders.forms import CodeTimeForm, DigestForm, NudgeForm

# Only the feed's digest is stored: a new token waits here for the page after a no-JS redirect.
NEW_FEED_TOKEN = "reminders_new_feed_token"


@dataclass(frozen=True, slots=True)
class RemindersSection:
    has_feed: bool
    feed_url: str  # only when the address was just made: Parcours keeps no copy of it
    webcal_url: str
    code_time: CodeTimeForm | None  # the feed's days and hour, or as they were sent
    digest: DigestForm
    nudge: NudgeForm
    announcement: str


def with_reminders(learners: QuerySet) -> QuerySet:
    """Learners with their calendar feed, digest and nudge, read in the same query."""
    return learners.select_related("calendar_feed", "digest_subscription", "nudge_subscription")


def learner_of(request: AuthenticatedHttpRequest) -> AbstractBaseUser:
    """The signed-in learner with what the section shows, in one query."""
    return with_reminders(get_user_model().objects.all()).get(pk=request.user.pk)


def reminders_section(
    request: AuthenticatedHttpRequest,
    learner: AbstractBaseUser,
    announcement: str = "",
    new_token: str | None = None,
    code_form: CodeTimeForm | None = None,
) -> RemindersSection:
    """What the section shows: whether there is a feed (its address only when just made), when
    its code time goes, the digest's day and the nudge's hour, from a learner read
    with_reminders()."""
    # A reverse one-to-one read by select_related and missing raises DoesNotExist, an
    # AttributeError: getattr's default is the learner without one.
    feed = getattr(learner, "calendar_feed", None)
    digest = getattr(learner, "digest_subscription", None)
    nudge = getattr(learner, "nudge_subscription", None)
    token = new_token or request.session.pop(NEW_FEED_TOKEN, None)
    feed_url = (
        request.build_absolute_uri(reverse("reminders:feed", args=[token]))
        if token and feed
        else ""
    )
    if code_form is None and feed is not None:
        code_form = CodeTimeForm.for_feed(feed)
    return RemindersSection(
        has_feed=feed is not None,
        feed_url=feed_url,
        webcal_url=feed_url.replace("https://", "webcal://", 1).replace("http://", "webcal://", 1),
        code_time=code_form,
        digest=DigestForm(initial={"weekday": digest.weekday if digest else None}),
        nudge=NudgeForm(initial={"hour": nudge.hour if nudge else None}),
        announcement=announcement,
    )
