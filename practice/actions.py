"""A learner's submission: refused at the edge when it cannot be checked, else stored pending and
queued for the worker (practice/tasks.py) in one transaction."""

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from lib.rate_limit import seconds_to_wait
from practice.models import MAX_CODE_BYTES, Exercise, Submission
from practice.tasks import check_submission


class SubmissionRefused(Exception):
    """A submission not accepted: the HTTP status to answer, a code and a message to show."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


def too_large() -> SubmissionRefused:
    return SubmissionRefused(
        413,
        "too_large",
        _("The solution is larger than %(kb)s kB: send only your kernel and its launch.")
        % {"kb": MAX_CODE_BYTES // 1024},
    )


def checked_code(code: str) -> str:
    """The code as the checker will run it, or a refusal that says what is wrong with it."""
    if "\x00" in code:
        raise SubmissionRefused(422, "invalid", _("Remove the NUL character: code cannot hold it."))
    if len(code.encode("utf-8", errors="replace")) > MAX_CODE_BYTES:
        raise too_large()
    if not code.strip():
        raise SubmissionRefused(
            422, "empty", _("The solution is empty: paste your code or choose a file.")
        )
    return code


def submit(*, user: User, exercise: Exercise, code: str, source: str) -> Submission:
    """Store the learner's solution pending and queue its check; refused when too large or empty,
    past the learner's rate, or while another of theirs is being checked."""
    code = checked_code(code)
    retry_after = seconds_to_wait(
        f"practice-submit:{user.pk}",
        limit=settings.PRACTICE_SUBMIT_LIMIT,
        period=settings.PRACTICE_SUBMIT_PERIOD,
    )
    if retry_after is not None:
        raise SubmissionRefused(
            429,
            "rate_limited",
            _("Too many submissions: try again in %(seconds)s s.") % {"seconds": retry_after},
            retry_after=retry_after,
        )
    try:
        with transaction.atomic():
            submission = Submission.objects.create(
                learner=user, exercise=exercise, code=code, source=source
            )
            check_submission.enqueue(submission.pk)
    except IntegrityError:
        # The database's one-pending-per-learner constraint: the check of another is not done.
        raise SubmissionRefused(
            409,
            "pending",
            _(
                "Your previous solution is still being checked: wait for its verdict, then send again."
            ),
        ) from None
    return submission
