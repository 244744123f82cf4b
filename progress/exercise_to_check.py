"""The exercise the dashboard's next-up card asks the learner to check: after a lecture and the
code time spent on it, "check your reduction" (issue 41)."""

from dataclasses import dataclass

from curriculum import structure
from lib.durations import duration
from practice.models import Exercise, Submission
from progress.path import PathProgress


@dataclass(frozen=True, slots=True)
class ExerciseToCheck:
    title: str
    url: str
    lecture: str  # the title of the resource it follows
    coded: str  # the minutes coded on that resource, written out


def exercise_to_check(
    user, progress: PathProgress, curriculum: structure.Curriculum
) -> ExerciseToCheck | None:
    """Of the lectures the learner finished and coded on, the exercise not passed yet whose lecture
    they coded on last; None when there is none. Which lectures, and the code time on them, come
    from what the learner's progress read; one query for their exercises, none without any."""
    lectures = {pk: coded for pk, coded in progress.coded_on.items() if pk in progress.finished}
    if not lectures:
        return None
    passed = Submission.objects.for_learner(user).passed().values("exercise")
    exercises = (
        Exercise.objects.active()
        .filter(resource__in=lectures)
        .exclude(pk__in=passed)
        .only("slug", "title_fr", "title_en", "resource_id", "order")
    )
    exercise = min(
        exercises,
        key=lambda e: (-lectures[e.resource_id].last.timestamp(), e.order, e.slug),
        default=None,
    )
    if exercise is None:
        return None
    lecture = curriculum.by_pk.get(exercise.resource_id)
    return ExerciseToCheck(
        title=exercise.title,
        url=exercise.get_absolute_url(),
        lecture=str(lecture) if lecture is not None else "",
        coded=duration(lectures[exercise.resource_id].minutes),
    )
