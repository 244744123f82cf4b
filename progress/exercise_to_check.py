"""The exercise the dashboard's next-up card asks the learner to check: after a lecture and the
code time spent on it, "check your reduction" (issue 41)."""

from dataclasses import dataclass

from django.db.models import Exists, Max, OuterRef, Subquery, Sum

from curriculum import structure
from lib.durations import duration
from practice.models import Exercise, Submission
from progress.models import CodingSession, Watch


@dataclass(frozen=True, slots=True)
class ExerciseToCheck:
    title: str
    url: str
    lecture: str  # the title of the resource it follows
    coded: str  # the minutes coded on that resource, written out


def exercise_to_check(user, curriculum: structure.Curriculum) -> ExerciseToCheck | None:
    """Of the lectures the learner finished and coded on, the exercise not passed yet whose lecture
    they coded on last; None when there is none: one query. The lecture's title is the
    curriculum's the page read."""
    sessions = CodingSession.objects.for_learner(user).filter(resource=OuterRef("resource"))
    per_resource = sessions.order_by().values("resource")
    finished = Watch.objects.for_learner(user).filter(
        resource=OuterRef("resource"), finished_at__isnull=False
    )
    passed = Submission.objects.for_learner(user).passed().filter(exercise=OuterRef("pk"))
    exercise = (
        Exercise.objects.active()
        .filter(Exists(finished))
        .exclude(Exists(passed))
        .annotate(
            coded=Subquery(per_resource.annotate(total=Sum("minutes")).values("total")),
            last_coded=Subquery(per_resource.annotate(last=Max("created_at")).values("last")),
        )
        .filter(coded__gt=0)
        .only("slug", "title_fr", "title_en", "resource_id")
        .order_by("-last_coded", "order", "slug")
        .first()
    )
    if exercise is None:
        return None
    lecture = curriculum.by_pk.get(exercise.resource_id)
    return ExerciseToCheck(
        title=exercise.title,
        url=exercise.get_absolute_url(),
        lecture=str(lecture) if lecture is not None else "",
        coded=duration(exercise.coded),
    )
