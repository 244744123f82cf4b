"""The exercise page, /practice/<slug>/: the statement, the starter, the form that sends a
solution, and the learner's submissions, which the page polls with htmx while one is checked."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from lib.http import AuthenticatedHttpRequest
from practice import actions
from practice.actions import SubmissionRefused, too_large
from practice.models import MAX_CODE_BYTES, Exercise, Submission
from practice.pages import exercise_page, submissions_block


def active_exercise(slug: str) -> Exercise:
    return get_object_or_404(
        Exercise.objects.active().select_related("resource__series"), slug=slug
    )


def posted_solution(request: AuthenticatedHttpRequest) -> str:
    """The pasted code, or the chosen file's text when there is one."""
    upload = request.FILES.get("file")
    if upload is None:
        return request.POST.get("code", "")
    if upload.size is None or upload.size > MAX_CODE_BYTES:
        raise too_large()
    try:
        return upload.read().decode("utf-8")
    except UnicodeDecodeError:
        raise SubmissionRefused(
            422, "not_text", _("The file is not UTF-8 text: send a Python file.")
        ) from None


@login_required
@require_GET
def exercise(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    page = exercise_page(request.user, active_exercise(slug))
    return render(request, "practice/exercise.jinja", {"page": page}, using="jinja2")


@login_required
@require_POST
def submit(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    found = active_exercise(slug)
    code = ""
    try:
        code = posted_solution(request)
        actions.submit(user=request.user, exercise=found, code=code, source=Submission.Source.WEB)
    except SubmissionRefused as refusal:
        kept = code if len(code) <= MAX_CODE_BYTES else ""
        page = exercise_page(request.user, found, code=kept, error=refusal.message)
        response = render(
            request,
            "practice/exercise.jinja",
            {"page": page},
            status=refusal.status,
            using="jinja2",
        )
        if refusal.retry_after:
            response["Retry-After"] = str(refusal.retry_after)
        return response
    return redirect(found.get_absolute_url() + "#submissions", permanent=False)


@login_required
@require_GET
def submissions(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The submissions block alone: what the page's htmx polls while a check is pending."""
    block = submissions_block(request.user, active_exercise(slug))
    return render(request, "practice/submissions.jinja", {"block": block}, using="jinja2")
