"""The check of a submission, run by the worker (`manage.py db_worker`) from the database queue,
the one the mail uses (reminders/tasks.py).

The runner and its sandbox (practice/sandbox.py) check the solution on the public cases, then on
hidden ones drawn from the server's secret. Of a hidden case the learner learns only that one
failed: its sizes and values are not stored. Without a sandbox on this machine the verdict is
"refused" with the reason; the code is never run outside one.
"""

import hashlib
import hmac
import importlib
import logging
from typing import Any

from django.conf import settings
from django.tasks import task
from django.utils import timezone
from django.utils.translation import gettext_noop

from practice.models import Submission

logger = logging.getLogger(__name__)

VERDICTS = {choice.value for choice in Submission.Verdict} - {Submission.Verdict.PENDING}
NO_CHECKER = gettext_noop("This server cannot check solutions: its checker is not installed.")
CHECKER_FAILED = gettext_noop(
    "The checker failed on the server, not your code: send it again later."
)
HIDDEN_CASE_FAILED = gettext_noop("A hidden case failed.")
MESSAGE_LENGTH = 2000


def practice_secret() -> bytes:
    """PRACTICE_SECRET, or one derived from SECRET_KEY that nothing else uses."""
    if settings.PRACTICE_SECRET:
        return settings.PRACTICE_SECRET.encode()
    return hmac.new(
        settings.SECRET_KEY.encode(), b"parcours.practice.hidden-cases", hashlib.sha256
    ).digest()


def hidden_seed(submission: Submission) -> int:
    """The seed of a submission's hidden cases: the server's secret keyed by the exercise and the
    submission, so that no learner can know the cases before sending, nor reuse a past draw."""
    message = f"{submission.exercise.slug}:{submission.pk}".encode()
    digest = hmac.new(practice_secret(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def checked(submission: Submission) -> dict[str, Any]:
    """The runner's answer for the submission, from inside the sandbox, or a refusal that says why."""
    try:
        sandbox = importlib.import_module("practice.sandbox")
    except ImportError:
        return {"verdict": "refused", "message": NO_CHECKER}
    available, reason = sandbox.sandbox_available()
    if not available:
        return {"verdict": "refused", "message": reason}
    return sandbox.check_in_sandbox(
        exercise_dir=submission.exercise.directory,
        solution=submission.code,
        hidden_seed=hidden_seed(submission),
        timeout_s=float(settings.PRACTICE_CHECK_SECONDS),
    )


def stored_result(result: dict[str, Any]) -> dict[str, Any]:
    """What of the runner's answer is kept: a hidden case is kept as hidden, nothing more."""
    verdict = result.get("verdict")
    if verdict not in VERDICTS:
        return {"verdict": "crashed", "message": CHECKER_FAILED, "case": None}
    case = result.get("case")
    message = str(result.get("message") or "")[:MESSAGE_LENGTH]
    if isinstance(case, dict) and case.get("hidden"):
        case, message = {"hidden": True}, HIDDEN_CASE_FAILED
    elif not isinstance(case, dict):
        case = None
    seconds = result.get("seconds")
    seconds = float(seconds) if isinstance(seconds, int | float) and seconds >= 0 else None
    return {"verdict": verdict, "message": message, "case": case, "seconds": seconds}


@task
def check_submission(submission_id: int) -> str:
    """Check one pending submission and store its verdict."""
    submission = (
        Submission.objects.pending().select_related("exercise").filter(pk=submission_id).first()
    )
    if submission is None:
        return "skipped: checked already, or deleted"
    try:
        result = checked(submission)
    except Exception:
        logger.exception("Submission %s: the checker failed", submission.pk)
        result = {"verdict": "refused", "message": CHECKER_FAILED}
    fields = stored_result(result)
    updated = (
        Submission.objects.pending()
        .filter(pk=submission.pk)
        .update(checked=timezone.now(), **fields)
    )
    logger.info("Submission %s checked: %s", submission.pk, fields["verdict"])
    return fields["verdict"] if updated else "skipped: checked meanwhile"
