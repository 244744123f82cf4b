"""Exercises and their submissions: what `parcours practice`, `check` and `submit` call."""

from django.utils.translation import gettext as _
from ninja import Path, Router, Status

from api import auth
from api.auth import ApiError, ApiRequest
from api.schemas import ExerciseDetailOut, ExerciseOut, SubmissionIn, SubmissionOut, errors
from api.views.shared import Slug, not_found
from practice import actions
from practice.actions import SubmissionRefused
from practice.bundle import runner_bundle
from practice.models import Exercise, Submission

router = Router(tags=["practice"])


def exercise_or_404(request: ApiRequest, slug: str) -> Exercise:
    exercise = (
        Exercise.objects.active()
        .with_passed(request.auth)
        .select_related("resource")
        .filter(slug=slug)
        .first()
    )
    if exercise is None:
        raise not_found(_("No exercise has the slug “%(slug)s”.") % {"slug": slug})
    return exercise


@router.get("/exercises", response={200: list[ExerciseOut], **errors()}, auth=auth.READ)
def list_exercises(request: ApiRequest) -> list[Exercise]:
    """The active exercises, each with the lecture it follows and whether the learner passed it."""
    return list(
        Exercise.objects.active()
        .with_passed(request.auth)
        .select_related("resource")
        .order_by("resource__slug", "order", "slug")
    )


@router.get(
    "/exercises/{slug}", response={200: ExerciseDetailOut, **errors(404, 422)}, auth=auth.READ
)
def get_exercise(request: ApiRequest, slug: Slug) -> Exercise:
    """One exercise with its statement and the files to check it locally."""
    exercise = exercise_or_404(request, slug)
    exercise.files = runner_bundle(exercise)  # type: ignore[attr-defined]
    return exercise


@router.post(
    "/exercises/{slug}/submissions",
    response={202: SubmissionOut, **errors(400, 403, 404, 409, 413, 422)},
    auth=auth.WRITE,
)
def submit_solution(request: ApiRequest, slug: Slug, payload: SubmissionIn) -> Status[Submission]:
    """Send a solution; the server checks it with the hidden cases. Poll the submission for the verdict."""
    exercise = exercise_or_404(request, slug)
    source = Submission.Source.CLI if hasattr(request, "access_token") else Submission.Source.WEB
    try:
        submission = actions.submit(
            user=request.auth, exercise=exercise, code=payload.code, source=source
        )
    except SubmissionRefused as refusal:
        headers = {"Retry-After": str(refusal.retry_after)} if refusal.retry_after else None
        raise ApiError(refusal.status, refusal.code, refusal.message, headers=headers) from None
    return Status(202, submission)


@router.get(
    "/submissions/{submission_id}",
    response={200: SubmissionOut, **errors(404, 422)},
    auth=auth.READ,
)
def get_submission(request: ApiRequest, submission_id: int = Path(..., ge=1)) -> Submission:
    """One of the learner's submissions, with its verdict once the server has checked it."""
    submission = (
        Submission.objects.for_learner(request.auth)
        .select_related("exercise")
        .filter(pk=submission_id)
        .first()
    )
    if submission is None:
        raise not_found(_("You have no submission %(id)s.") % {"id": submission_id})
    return submission
