"""Keep the Exercise rows in step with the repository's exercises/ folders.

The repository owns an exercise's text (title, statement, starter) and its chapter: when its
files change (their fingerprint), the row's text is rewritten. Curators own what they set in
admin: whether it is active, its order and the resource it follows; the folder gives them once,
when the exercise is first loaded, and never again. A folder that is gone turns its exercise off
(its submissions stay).
"""

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from django.db import transaction

from curriculum.models import Chapter, Resource
from practice.models import Exercise

# The files whose text the rows copy: a change to any of them rewrites the row.
COPIED_FILES = ("exercise.yaml", "statement.fr.md", "statement.en.md", "starter.py")


class ExerciseError(Exception):
    """A folder that cannot be loaded; the message names it and what is wrong."""


@dataclass
class Report:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)

    def summary(self) -> str:
        total = len(self.added) + len(self.updated) + len(self.unchanged)
        return (
            f"Loaded {total} exercises: {len(self.added)} added, {len(self.updated)} updated, "
            f"{len(self.unchanged)} unchanged, {len(self.retired)} turned off (folder gone)"
        )


@dataclass(frozen=True)
class Folder:
    """What one exercise folder says, read without touching the database."""

    name: str
    slug: str
    title_fr: str
    title_en: str
    statement_fr: str
    statement_en: str
    starter: str
    resource_slug: str
    chapter: tuple[int, int] | None
    order: int
    fingerprint: str


def fingerprint_of(directory: Path) -> str:
    digest = hashlib.sha256()
    for name in COPIED_FILES:
        path = directory / name
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() if path.exists() else b"")
        digest.update(b"\0")
    return digest.hexdigest()


def chapter_number(value: object, folder: str) -> tuple[int, int] | None:
    """The guide's chapter as (part, chapter) from "2.5", {part: 2, chapter: 5} or nothing; a
    part alone ("3", as a pairing that names a part only) is no chapter: nothing."""
    if value in (None, ""):
        return None
    if not isinstance(value, dict) and str(value).strip().isdigit():
        return None
    numbers: list[object] = (
        [value.get("part"), value.get("chapter")]
        if isinstance(value, dict)
        else list(str(value).split("."))
    )
    try:
        part, chapter = (int(str(number)) for number in numbers)
    except (TypeError, ValueError):
        raise ExerciseError(
            f"{folder}: chapter {value!r} is not a chapter of the guide such as 2.5"
        ) from None
    return part, chapter


def read_folder(directory: Path) -> Folder:
    def text(name: str) -> str:
        path = directory / name
        return path.read_text(encoding="utf-8") if path.exists() else ""

    try:
        data = yaml.safe_load(text("exercise.yaml")) or {}
    except yaml.YAMLError as error:
        raise ExerciseError(f"{directory.name}/exercise.yaml is not valid YAML: {error}") from None
    if not isinstance(data, dict):
        raise ExerciseError(f"{directory.name}/exercise.yaml holds no mapping")
    title = data.get("title") or {}
    if isinstance(title, str):
        title = {"fr": title}
    missing = [
        name
        for name, value in (("slug", data.get("slug")), ("title.fr", title.get("fr")))
        if not value
    ] + [name for name in ("resource",) if not data.get(name)]
    if missing:
        raise ExerciseError(f"{directory.name}/exercise.yaml lacks {', '.join(missing)}")
    try:
        order = int(data.get("order") or 0)
    except (TypeError, ValueError):
        raise ExerciseError(
            f"{directory.name}: order {data.get('order')!r} is not a number"
        ) from None
    return Folder(
        name=directory.name,
        slug=str(data["slug"]),
        title_fr=str(title["fr"]),
        title_en=str(title.get("en") or ""),
        statement_fr=text("statement.fr.md"),
        statement_en=text("statement.en.md"),
        starter=text("starter.py"),
        resource_slug=str(data["resource"]),
        chapter=chapter_number(data.get("chapter"), directory.name),
        order=order,
        fingerprint=fingerprint_of(directory),
    )


def exercise_folders(root: Path) -> list[Folder]:
    """Every folder of root that holds an exercise.yaml, read, in name order."""
    if not root.is_dir():
        raise ExerciseError(f"{root} is not a folder")
    folders = [
        read_folder(path) for path in sorted(root.iterdir()) if (path / "exercise.yaml").is_file()
    ]
    slugs = [folder.slug for folder in folders]
    repeated = sorted({slug for slug in slugs if slugs.count(slug) > 1})
    if repeated:
        raise ExerciseError(f"two folders give the slug {', '.join(repeated)}")
    return folders


def repository_text(folder: Folder, chapters: dict[tuple[int, int], Chapter]) -> dict:
    """The fields the repository owns, as the row should hold them."""
    return {
        "title_fr": folder.title_fr,
        "title_en": folder.title_en,
        "statement_fr": folder.statement_fr,
        "statement_en": folder.statement_en,
        "starter": folder.starter,
        "chapter": chapters.get(folder.chapter) if folder.chapter else None,
        "folder": folder.name,
        "fingerprint": folder.fingerprint,
    }


@transaction.atomic
def load_exercises(root: Path) -> Report:
    """Add new folders' exercises, rewrite those whose files changed, turn off those gone."""
    folders = exercise_folders(root)
    resources = Resource.objects.in_bulk(
        [folder.resource_slug for folder in folders], field_name="slug"
    )
    chapters = {
        (chapter.part.number, chapter.number): chapter
        for chapter in Chapter.objects.select_related("part")
    }
    existing = Exercise.objects.in_bulk(field_name="slug")
    report = Report()
    for folder in folders:
        if folder.chapter and folder.chapter not in chapters:
            raise ExerciseError(
                f"{folder.name}: the guide has no chapter {folder.chapter[0]}.{folder.chapter[1]}"
            )
        exercise = existing.pop(folder.slug, None)
        if exercise is None:
            resource = resources.get(folder.resource_slug)
            if resource is None:
                raise ExerciseError(
                    f"{folder.name}: no resource has the slug {folder.resource_slug!r}"
                )
            Exercise.objects.create(
                slug=folder.slug,
                resource=resource,
                order=folder.order,
                **repository_text(folder, chapters),
            )
            report.added.append(folder.slug)
        elif exercise.fingerprint != folder.fingerprint or exercise.folder != folder.name:
            for name, value in repository_text(folder, chapters).items():
                setattr(exercise, name, value)
            exercise.save()
            report.updated.append(folder.slug)
        else:
            report.unchanged.append(folder.slug)
    for exercise in existing.values():
        if exercise.is_active:
            exercise.is_active = False
            exercise.save(update_fields=["is_active"])
            report.retired.append(exercise.slug)
    return report
