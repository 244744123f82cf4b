import uuid

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

PASSWORD = "correct horse battery staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"learner{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


# Curriculum


class PartFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "curriculum.Part"
        django_get_or_create = ("number",)

    number = factory.Sequence(lambda n: n + 100)


class ChapterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "curriculum.Chapter"
        django_get_or_create = ("part", "number")

    part = factory.SubFactory(PartFactory)
    number = factory.Sequence(lambda n: n + 1)


class SeriesFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "curriculum.Series"
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"series-{n}")
    name = factory.Sequence(lambda n: f"Series {n}")


class ArchitectureFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "curriculum.Architecture"
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"arch-{n}")
    name = factory.Sequence(lambda n: f"Arch {n}")
    vendor = "NVIDIA"


class ResourceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "curriculum.Resource"
        django_get_or_create = ("slug",)
        skip_postgeneration_save = True

    kind = "lecture"
    slug = factory.Sequence(lambda n: f"resource-{n}")
    title = factory.Sequence(lambda n: f"Resource {n}")
    series = factory.SubFactory(SeriesFactory)
    duration_minutes = 60
    summary = "A lecture about kernels."

    @factory.post_generation
    def architectures(obj, create, extracted, **kwargs):
        if create and extracted:
            obj.architectures.set(extracted)


class FollowedResourceFactory(ResourceFactory):
    kind = "channel"
    duration_minutes = None


class PairingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "curriculum.Pairing"

    resource = factory.SubFactory(ResourceFactory)
    part = factory.SubFactory(PartFactory)
    timing = "with"


class PathFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "curriculum.Path"
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"path-{n}")
    title = factory.Sequence(lambda n: f"Path {n}")


class StageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "curriculum.Stage"

    path = factory.SubFactory(PathFactory)
    title = factory.Sequence(lambda n: f"Week {n}")
    order = factory.Sequence(lambda n: n)


class StepFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "curriculum.Step"

    stage = factory.SubFactory(StageFactory)
    order = factory.Sequence(lambda n: n)
    kind = "resource"
    resource = factory.SubFactory(ResourceFactory)


class ArchitectureStepFactory(StepFactory):
    kind = "architecture_talk"
    resource = None
    title = "GTC: the architecture session of your GPU"


# Progress


class ProfileFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "progress.Profile"
        django_get_or_create = ("user",)

    user = factory.SubFactory(UserFactory)


class WatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "progress.Watch"

    user = factory.SubFactory(UserFactory)
    resource = factory.SubFactory(ResourceFactory)


class ViewingFactory(factory.django.DjangoModelFactory):
    """A viewing session of a video played on its page: its first minute."""

    class Meta:
        model = "progress.Viewing"

    user = factory.SubFactory(UserFactory)
    resource = factory.SubFactory(ResourceFactory)
    key = factory.LazyFunction(uuid.uuid4)
    ranges = factory.LazyFunction(lambda: [[0, 60]])
    played_seconds = 60
    duration_seconds = 3600


class WatchEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "progress.WatchEvent"

    user = factory.SubFactory(UserFactory)
    resource = factory.SubFactory(ResourceFactory)
    kind = "sitting"
    minutes = 60
    logged_minutes = factory.LazyAttribute(
        lambda event: max(event.minutes, 0) if event.kind == "sitting" else 0
    )


class CodingSessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "progress.CodingSession"

    user = factory.SubFactory(UserFactory)
    day = factory.LazyFunction(timezone.localdate)
    minutes = 90
    built = factory.Sequence(lambda n: f"A kernel, take {n}")
    resource = factory.SubFactory(ResourceFactory)
    idempotency_key = factory.LazyFunction(uuid.uuid4)


class NoteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "progress.Note"

    user = factory.SubFactory(UserFactory)
    resource = factory.SubFactory(ResourceFactory)
    text = "Stopped at the tiling part."


# Practice


class ExerciseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "practice.Exercise"
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"exercise-{n}")
    title_fr = factory.Sequence(lambda n: f"Exercice {n}")
    title_en = factory.Sequence(lambda n: f"Exercise {n}")
    statement_fr = "Additionnez deux vecteurs.\n\n```python\nc[i] = a[i] + b[i]\n```"
    statement_en = "Add two vectors.\n\n```python\nc[i] = a[i] + b[i]\n```"
    starter = "from numba import cuda\n\n@cuda.jit\ndef add(a, b, c):\n    pass\n"
    resource = factory.SubFactory(ResourceFactory)
    folder = factory.LazyAttribute(lambda exercise: exercise.slug)


class SubmissionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "practice.Submission"

    learner = factory.SubFactory(UserFactory)
    exercise = factory.SubFactory(ExerciseFactory)
    code = "def add(a, b, c):\n    pass\n"
    verdict = "failed"
