"""View models of the curriculum's pages: every label, URL and number their templates print.

A view model is built by its view in one pass and printed by one flat Jinja2 template that
computes nothing. The guide holds curriculum only, so it is built once per curriculum revision
and language (`Curriculum.built`) and shared by every request.
"""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GuidePairing:
    """A resource to watch before or while reading a part or chapter."""

    timing: str
    title: str
    url: str


@dataclass(frozen=True, slots=True)
class GuideChapter:
    anchor: str
    label: str
    title: str
    pairings: tuple[GuidePairing, ...]


@dataclass(frozen=True, slots=True)
class GuidePart:
    """A part by its number, and its title (empty until the guide gives one: "title to come")."""

    number: int
    label: str
    title: str
    pairings: tuple[GuidePairing, ...]
    chapters: tuple[GuideChapter, ...]


@dataclass(frozen=True, slots=True)
class GuidePage:
    parts: tuple[GuidePart, ...]


def guide_pairings(pairings) -> tuple[GuidePairing, ...]:
    return tuple(
        GuidePairing(
            timing=pairing.timing,
            title=str(pairing.resource),
            url=pairing.resource.get_absolute_url(),
        )
        for pairing in pairings
    )


def guide_page(curriculum) -> GuidePage:
    """The guide's parts and chapters, each with its paired resources."""
    return GuidePage(
        parts=tuple(
            GuidePart(
                number=part.number,
                label=part.label,
                title=part.title,
                pairings=guide_pairings(part.pairings.all()),
                chapters=tuple(
                    GuideChapter(
                        anchor=f"chapter-{part.number}-{chapter.number}",
                        label=chapter.label,
                        title=chapter.title,
                        pairings=guide_pairings(chapter.pairings.all()),
                    )
                    for chapter in part.chapters.all()
                ),
            )
            for part in curriculum.parts
        )
    )
