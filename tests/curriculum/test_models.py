import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import translation

from curriculum.models import Chapter, Pairing, Part, Resource, Step
from tests.factories import (
    ArchitectureFactory,
    ArchitectureStepFactory,
    ChapterFactory,
    FollowedResourceFactory,
    PartFactory,
    ResourceFactory,
    SeriesFactory,
    StepFactory,
)

pytestmark = pytest.mark.django_db


def test_a_chapter_without_title_reads_as_its_part_and_number():
    """A chapter the guide gives no title is named by its numbers, in the interface language."""
    chapter = Chapter.objects.create(part=Part.objects.create(number=2), number=5)
    with translation.override("en"):
        assert str(chapter) == "Part 2, chapter 5"
        assert str(chapter.part) == "Part 2"


def test_a_chapter_with_a_title_appends_it():
    """A curator's title follows the numbers."""
    chapter = ChapterFactory(part=PartFactory(number=7, title="Attention"), number=3, title="Flash")
    with translation.override("en"):
        assert str(chapter) == "Part 7, chapter 3 · Flash"
        assert str(chapter.part) == "Part 7 · Attention"


def test_two_chapters_cannot_share_a_number_in_one_part():
    """The database refuses a second chapter 5 in part 2."""
    chapter = ChapterFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Chapter.objects.create(part=chapter.part, number=chapter.number)


def test_a_negative_or_zero_duration_is_refused():
    """Durations are positive minutes or unknown."""
    with pytest.raises(IntegrityError), transaction.atomic():
        ResourceFactory(duration_minutes=0)
    assert not Resource.objects.exists()


def test_a_followed_resource_carries_no_duration():
    """A conference or channel with minutes is refused by the database and by clean()."""
    with pytest.raises(IntegrityError), transaction.atomic():
        FollowedResourceFactory(duration_minutes=30)
    channel = FollowedResourceFactory.build(duration_minutes=30, series=None)
    with pytest.raises(ValidationError):
        channel.clean()


def test_watchable_and_followed_split_resources_by_kind():
    """Lectures are watched; channels and conferences are followed."""
    lecture = ResourceFactory()
    channel = FollowedResourceFactory()
    assert list(Resource.objects.watchable()) == [lecture]
    assert list(Resource.objects.followed()) == [channel]
    assert channel.is_followed and not lecture.is_followed


def test_only_one_resource_is_the_start_here_video():
    """A second "start here" mark is refused."""
    first = ResourceFactory(is_start_here=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        ResourceFactory(is_start_here=True)
    assert Resource.objects.start_here() == first


def test_a_lecture_number_is_unique_in_its_series():
    """GPU MODE #15 exists once."""
    series = SeriesFactory()
    ResourceFactory(series=series, number=15)
    with pytest.raises(IntegrityError), transaction.atomic():
        ResourceFactory(series=series, number=15)


def test_a_pairing_names_a_part_or_a_chapter_not_both():
    """Naming both or neither is refused by the database and by clean()."""
    chapter = ChapterFactory()
    resource = ResourceFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Pairing.objects.create(resource=resource, part=chapter.part, chapter=chapter)
    with pytest.raises(IntegrityError), transaction.atomic():
        Pairing.objects.create(resource=resource)
    with pytest.raises(ValidationError):
        Pairing(resource=resource).clean()
    pairing = Pairing.objects.create(resource=resource, chapter=chapter)
    assert pairing.guide_part == chapter.part
    assert pairing.place == chapter


def test_a_resource_step_must_name_a_resource():
    """A resource step without a resource, or an architecture step with one, is refused."""
    with pytest.raises(IntegrityError), transaction.atomic():
        StepFactory(resource=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        ArchitectureStepFactory(resource=ResourceFactory())
    with pytest.raises(ValidationError):
        Step(kind="resource").clean()
    with pytest.raises(ValidationError):
        Step(kind="architecture_talk", resource=ResourceFactory()).clean()
    with pytest.raises(ValidationError):
        Step(kind="architecture_talk").clean()


def test_the_architecture_step_resolves_to_the_session_of_the_learners_gpu():
    """Hopper gets the Hopper session, an unknown GPU or one without a session gets None."""
    hopper, blackwell, ampere = ArchitectureFactory.create_batch(3)
    hopper_talk = ResourceFactory(kind="talk", presents_architecture=True, architectures=[hopper])
    ResourceFactory(kind="talk", presents_architecture=True, architectures=[blackwell])
    ResourceFactory(kind="talk", architectures=[ampere])
    step = ArchitectureStepFactory()
    assert step.resolve(hopper) == hopper_talk
    assert step.resolve(ampere) is None
    assert step.resolve(None) is None
    assert step.display_title == step.title


def test_a_resource_step_resolves_to_its_resource_whatever_the_gpu():
    """A plain step is the same for every learner."""
    step = StepFactory()
    assert step.resolve(ArchitectureFactory()) == step.resource
    assert step.display_title == str(step.resource)


def test_keywords_are_a_list_without_blanks():
    cutlass = ResourceFactory(title="CUTLASS", keywords="CuTe, Hopper, ,")
    assert cutlass.keyword_list == ["CuTe", "Hopper"]


def test_for_guide_finds_resources_paired_with_a_part_or_its_chapters():
    """A part's resources include those paired with one of its chapters."""
    chapter = ChapterFactory()
    with_part = ResourceFactory()
    with_chapter = ResourceFactory()
    ResourceFactory()
    Pairing.objects.create(resource=with_part, part=chapter.part)
    Pairing.objects.create(resource=with_chapter, chapter=chapter)
    assert set(Resource.objects.for_guide(part=chapter.part)) == {with_part, with_chapter}
    assert list(Resource.objects.for_guide(chapter=chapter)) == [with_chapter]
    assert Resource.objects.for_guide().count() == 3


def test_links_list_only_the_filled_in_urls():
    """Empty links are left out, in a fixed order."""
    resource = ResourceFactory.build(
        watch_url="https://example.com/w", code_url="https://example.com/c"
    )
    assert [url for _label, url in resource.links()] == [
        "https://example.com/w",
        "https://example.com/c",
    ]
    series = SeriesFactory.build(community_url="https://discord.gg/x")
    assert [url for _label, url in series.links()] == ["https://discord.gg/x"]
    assert str(series) == series.name


def test_a_numbered_lecture_reads_with_its_series_and_number():
    """GPU MODE #15 · CUTLASS."""
    lecture = ResourceFactory(series=SeriesFactory(name="GPU MODE"), number=15, title="CUTLASS")
    assert str(lecture) == "GPU MODE #15 · CUTLASS"
    assert str(ArchitectureFactory(name="Hopper", vendor="NVIDIA")) == "NVIDIA Hopper"
