"""View models of the practice pages (templates/practice/*.jinja): every label, URL and value they
print, built by the views in a fixed number of queries; the templates compute nothing."""

import re
from dataclasses import dataclass

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext, gettext_noop

from practice.models import MAX_CODE_BYTES, Exercise, Submission

# A learner sees this many of their submissions of an exercise, newest first.
SHOWN_SUBMISSIONS = 20
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph of a statement, or a block of code (fenced with ``` in its Markdown)."""

    is_code: bool
    text: str


@dataclass(frozen=True, slots=True)
class CaseLine:
    label: str
    value: str


@dataclass(frozen=True, slots=True)
class SubmissionRow:
    number: int
    verdict: str
    verdict_label: str
    is_pending: bool
    passed: bool
    sent: str
    source_label: str
    message: str
    hidden_case_failed: bool
    case: tuple[CaseLine, ...]
    seconds: str


@dataclass(frozen=True, slots=True)
class Submissions:
    """The learner's submissions of one exercise: the block the page polls while one is pending."""

    slug: str
    url: str
    rows: tuple[SubmissionRow, ...]
    pending: bool


@dataclass(frozen=True, slots=True)
class SubmitForm:
    action: str
    code: str
    error: str
    max_kb: int


@dataclass(frozen=True, slots=True)
class ExercisePage:
    slug: str
    title: str
    statement: tuple[Block, ...]
    starter: str
    resource_title: str
    resource_url: str
    cli_command: str
    passed: bool
    form: SubmitForm
    submissions: Submissions


@dataclass(frozen=True, slots=True)
class ResourceExercise:
    """An exercise that follows a resource, as the resource page's block shows it."""

    title: str
    url: str
    passed: bool


def statement_blocks(markdown: str) -> tuple[Block, ...]:
    """The statement's paragraphs and code blocks, in order, as text the template escapes."""
    blocks: list[Block] = []
    position = 0
    for fence in FENCE.finditer(markdown):
        blocks += paragraphs(markdown[position : fence.start()])
        blocks.append(Block(is_code=True, text=fence.group(1).rstrip("\n")))
        position = fence.end()
    blocks += paragraphs(markdown[position:])
    return tuple(blocks)


def paragraphs(text: str) -> list[Block]:
    return [
        Block(is_code=False, text=" ".join(part.split()))
        for part in re.split(r"\n\s*\n", text)
        if part.strip()
    ]


CASE_LABELS = {
    "name": gettext_noop("case"),
    "size": gettext_noop("size"),
    "index": gettext_noop("first wrong index"),
    "expected": gettext_noop("expected"),
    "got": gettext_noop("got"),
    "max_error": gettext_noop("largest error"),
}


def case_lines(case: object) -> tuple[CaseLine, ...]:
    """What the runner said of the failing public case, one line per thing it named."""
    if not isinstance(case, dict) or case.get("hidden"):
        return ()
    return tuple(
        CaseLine(label=gettext(CASE_LABELS.get(str(key)) or str(key)), value=str(value)[:200])
        for key, value in case.items()
        if value is not None
    )


def submission_row(submission: Submission, number: int) -> SubmissionRow:
    return SubmissionRow(
        number=number,
        verdict=submission.verdict,
        verdict_label=submission.get_verdict_display(),
        is_pending=submission.is_pending,
        passed=submission.verdict == Submission.Verdict.PASSED,
        sent=date_format(localtime(submission.created), "DATETIME_FORMAT"),
        source_label=submission.get_source_display(),
        message=gettext(submission.message) if submission.message else "",
        hidden_case_failed=submission.hidden_case_failed,
        case=case_lines(submission.case),
        seconds=f"{submission.seconds:.1f}" if submission.seconds is not None else "",
    )


def submissions_block(user, exercise: Exercise) -> Submissions:
    """The learner's latest submissions of the exercise: one query."""
    latest = list(
        Submission.objects.for_learner(user).filter(exercise=exercise)[:SHOWN_SUBMISSIONS]
    )
    total = len(latest)
    rows = tuple(submission_row(submission, total - i) for i, submission in enumerate(latest))
    return Submissions(
        slug=exercise.slug,
        url=reverse("practice:submissions", args=[exercise.slug]),
        rows=rows,
        pending=any(row.is_pending for row in rows),
    )


def exercise_page(user, exercise: Exercise, *, code: str = "", error: str = "") -> ExercisePage:
    """The exercise (fetched with its resource) and the learner's submissions: two queries."""
    submissions = submissions_block(user, exercise)
    passed = Submission.objects.for_learner(user).filter(exercise=exercise).passed().exists()
    return ExercisePage(
        slug=exercise.slug,
        title=exercise.title,
        statement=statement_blocks(exercise.statement),
        starter=exercise.starter,
        resource_title=str(exercise.resource),
        resource_url=exercise.resource.get_absolute_url(),
        cli_command=f"parcours practice {exercise.slug}",
        passed=passed,
        form=SubmitForm(
            action=reverse("practice:submit", args=[exercise.slug]),
            code=code,
            error=error,
            max_kb=MAX_CODE_BYTES // 1024,
        ),
        submissions=submissions,
    )


def resource_exercises(user, resource_id: int) -> tuple[ResourceExercise, ...]:
    """The active exercises after a resource, each passed or not by the learner: one query; none
    for a visitor, who must sign in to practise (the visitor's page stays at one query)."""
    if not user.is_authenticated:
        return ()
    return tuple(
        ResourceExercise(
            title=exercise.title, url=exercise.get_absolute_url(), passed=exercise.passed
        )
        for exercise in Exercise.objects.for_resource(resource_id).with_passed(user)
    )
