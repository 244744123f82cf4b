"""View models of the practice pages (templates/practice/*.jinja): every label, URL and value they
print, built by the views in a fixed number of queries; the templates compute nothing."""

import re
from dataclasses import dataclass

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext, gettext_noop

from practice.models import MAX_CODE_BYTES, Exercise, Submission
from practice.tasks import CHECKER_FAILED, HIDDEN_CASE_FAILED, NO_CHECKER

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
    summary: str
    detail: str
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


# What the runner stores of a failing public case beyond its number and size (runner/check.py's
# compare): where the answer first went wrong, or what is wrong with the whole output.
FAILURE_LABELS = {
    "first_wrong_index": gettext_noop("first wrong index"),
    "expected": gettext_noop("expected"),
    "got": gettext_noop("got"),
    "max_error": gettext_noop("largest error"),
    "problem": gettext_noop("what is wrong"),
}
CASE_SUMMARIES: dict[str, str] = {
    Submission.Verdict.FAILED: gettext_noop(
        "Case %(number)s (size %(size)s) gives a wrong answer."
    ),
    Submission.Verdict.TIMED_OUT: gettext_noop(
        "Case %(number)s (size %(size)s) took longer than the time limit."
    ),
    Submission.Verdict.CRASHED: gettext_noop("Case %(number)s (size %(size)s) crashed."),
}
# The messages the server writes itself, translated when shown; the runner's own (an exception,
# the sandbox's reason for refusing) stay as written, shown apart as the checker's words.
SERVER_MESSAGES = {NO_CHECKER, CHECKER_FAILED, HIDDEN_CASE_FAILED}


def public_case(case: object) -> dict | None:
    """The failing public case as the runner stored it; None without one, or for a hidden one."""
    if isinstance(case, dict) and not case.get("hidden") and isinstance(case.get("index"), int):
        return case
    return None


def case_lines(case: dict | None) -> tuple[CaseLine, ...]:
    """Where the failing public case went wrong, one line per thing the runner named."""
    if case is None:
        return ()
    return tuple(
        CaseLine(label=gettext(label), value=str(case[key])[:200])
        for key, label in FAILURE_LABELS.items()
        if case.get(key) is not None
    )


def verdict_words(submission: Submission, case: dict | None) -> tuple[str, str]:
    """What the check found, in the learner's language, and the checker's own words where they
    say more than that (an exception, the reason a check was refused)."""
    message = submission.message
    if submission.verdict == Submission.Verdict.PASSED:
        return gettext("Every case passed, the hidden ones too."), ""
    if message in SERVER_MESSAGES:
        return gettext(message), ""
    if case is not None and submission.verdict in CASE_SUMMARIES:
        summary = gettext(CASE_SUMMARIES[submission.verdict]) % {
            "number": case["index"] + 1,
            "size": case.get("size"),
        }
        return summary, message if submission.verdict == Submission.Verdict.CRASHED else ""
    if submission.verdict == Submission.Verdict.CRASHED:
        return gettext("Your solution stopped before the first case was checked."), message
    if submission.verdict == Submission.Verdict.REFUSED:
        return gettext("The server did not check this solution."), message
    return "", message


def submission_row(submission: Submission, number: int) -> SubmissionRow:
    case = public_case(submission.case)
    summary, detail = verdict_words(submission, case)
    return SubmissionRow(
        number=number,
        verdict=submission.verdict,
        verdict_label=submission.get_verdict_display(),
        is_pending=submission.is_pending,
        passed=submission.verdict == Submission.Verdict.PASSED,
        sent=date_format(localtime(submission.created), "DATETIME_FORMAT"),
        source_label=submission.get_source_display(),
        summary=summary,
        detail=detail,
        hidden_case_failed=submission.hidden_case_failed,
        case=case_lines(case) if submission.verdict == Submission.Verdict.FAILED else (),
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
