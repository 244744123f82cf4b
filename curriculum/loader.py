"""Load the curriculum from a readable YAML document into the database, idempotently.

Every entry of the file has a key (`resource gpu-mode-9`, `pairing gpu-mode-9 2.5`, `step
parcours 1.3`), and the loader records in LoadedEntry each key it has met in the database. Without
--update it creates only entries whose key it never recorded: an entry it loaded once and a
curator then moved (a pairing to another chapter, a step to another place), renumbered or deleted
in admin stays as the curator left it, and so do the rows it still finds (their text, order,
pairings). Two things are filled in on rows it finds, because empty there means "not written
yet": English text still empty, and the title of a part or chapter still empty (pages show
"Part 2, chapter 5 · title to come"). With --update the file wins: rows are overwritten and what
curators deleted is made again.
"""

import contextlib
import functools
from dataclasses import dataclass
from pathlib import Path as FilePath

import yaml
from django.core.exceptions import ValidationError
from django.db import transaction
from modeltranslation.translator import translator

from curriculum.models import (
    Architecture,
    Chapter,
    GpuCard,
    LoadedEntry,
    Pairing,
    Part,
    Path,
    Resource,
    Series,
    Stage,
    Step,
)

SECTIONS = ("parts", "chapters", "architectures", "gpu_cards", "series", "resources", "paths")
RESOURCE_FIELDS = {
    "slug", "kind", "title", "number", "speaker", "series", "watch_url", "notes_url", "code_url",
    "slides_url", "other_url", "search_terms", "duration_minutes", "summary", "keywords", "architectures",
    "presents_architecture", "is_start_here", "start_here_reason", "is_advanced", "topic", "pairings",
}  # fmt: skip
SERIES_FIELDS = {
    "slug", "name", "description", "website_url", "channel_url", "community_url", "notes_url",
    "code_url", "search_url_template", "search_name", "search_place", "order",
}  # fmt: skip


class CurriculumError(Exception):
    """Bad data in the curriculum file; the message names the entry and the field."""


class Removed(Exception):
    """The entry names a row the loader loaded once and a curator has since deleted."""


def unless_removed(load_entry):
    """Leave out an entry naming a row a curator deleted: the database's cascade took it too."""

    @functools.wraps(load_entry)
    def load(self, *args):
        try:
            load_entry(self, *args)
        except Removed:
            self.report.left_out += 1

    return load


def row_key(row):
    """The key of the file's entry that row was loaded from (rows of historical models too)."""
    match row._meta.model_name:
        case "part":
            return f"part {row.number}"
        case "chapter":
            return f"chapter {row.part.number}.{row.number}"
        case "pairing":
            place = (
                f"{row.chapter.part.number}.{row.chapter.number}"
                if row.chapter_id is not None
                else f"{row.part.number}"
            )
            return f"pairing {row.resource.slug} {place}"
        case "stage":
            return f"stage {row.path.slug} {row.order}"
        case "step":
            return f"step {row.stage.path.slug} {row.stage.order}.{row.order}"
        case name:
            return f"{name} {row.slug}"


@dataclass
class LoadReport:
    created: int = 0
    updated: int = 0
    left_out: int = 0

    def summary(self):
        """One line: what the database now holds, and what this run changed."""
        left_out = (
            f", {self.left_out} left out as curators moved or deleted them" if self.left_out else ""
        )
        return (
            f"Curriculum: {Resource.objects.count()} resources, {Series.objects.count()} series, "
            f"{GpuCard.objects.count()} GPU cards, "
            f"{Stage.objects.count()} stages, {Step.objects.count()} steps; "
            f"{self.created} created, {self.updated} updated{left_out}."
        )


def read_curriculum(path):
    """The parsed document at path, or a CurriculumError saying why it cannot be read."""
    try:
        data = yaml.safe_load(FilePath(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise CurriculumError(f"Cannot read {path}: {error.strerror}.") from error
    except yaml.YAMLError as error:
        raise CurriculumError(f"{path} is not valid YAML: {error}") from error
    if not isinstance(data, dict):
        raise CurriculumError(f"{path} must hold a mapping with sections {', '.join(SECTIONS)}.")
    unknown = set(data) - set(SECTIONS)
    if unknown:
        raise CurriculumError(f"Unknown section(s): {', '.join(sorted(unknown))}.")
    return data


def load_curriculum(path, *, update=False):
    """Load the file at path in one transaction; existing rows change only with update=True."""
    data = read_curriculum(path)
    loader = Loader(update=update)
    with transaction.atomic():
        loader.load(data)
    return loader.report


class Loader:
    def __init__(self, *, update):
        self.update = update
        self.report = LoadReport()
        self.loaded = set(LoadedEntry.objects.values_list("key", flat=True))
        self.met = set()

    def load(self, data):
        self.load_entries(data)
        LoadedEntry.objects.bulk_create(
            [LoadedEntry(key=key) for key in sorted(self.met - self.loaded)],
            ignore_conflicts=True,
        )

    def load_entries(self, data):
        for index, entry in enumerate(data.get("parts") or []):
            self.load_part(entry, f"parts[{index}]")
        for index, entry in enumerate(data.get("chapters") or []):
            self.load_chapter(entry, f"chapters[{index}]")
        for index, entry in enumerate(data.get("architectures") or []):
            self.load_architecture(entry, f"architectures[{index}]")
        self.load_keyed(data.get("gpu_cards") or [], "gpu_cards", self.load_gpu_card)
        self.load_keyed(data.get("series") or [], "series", self.load_series)
        self.load_keyed(data.get("resources") or [], "resources", self.load_resource)
        self.load_keyed(data.get("paths") or [], "paths", self.load_path)

    def load_keyed(self, entries, section, load_entry):
        """Load entries keyed on their slug, refusing a slug that appears twice."""
        seen = set()
        for index, entry in enumerate(entries):
            where = f"{section}[{index}]"
            slug = required(entry, "slug", where)
            where = f"{section}[{index}] '{slug}'"
            if slug in seen:
                raise CurriculumError(f"{where}: field 'slug': duplicate slug '{slug}'.")
            seen.add(slug)
            load_entry(entry, where)

    # Entries

    def load_part(self, entry, where):
        check_fields(entry, {"number", "title"}, where, Part)
        number = required(entry, "number", where)
        self.upsert(Part, {"number": number}, {"title": entry.get("title")}, where, entry)

    @unless_removed
    def load_chapter(self, entry, where):
        check_fields(entry, {"part", "number", "title"}, where, Chapter)
        part = self.find_part(required(entry, "part", where), where, "part")
        lookup = {"part": part, "number": required(entry, "number", where)}
        self.upsert(Chapter, lookup, {"title": entry.get("title")}, where, entry)

    def load_architecture(self, entry, where):
        check_fields(entry, {"slug", "name", "vendor", "order"}, where)
        fields = {key: entry[key] for key in ("name", "vendor", "order") if key in entry}
        self.upsert(Architecture, {"slug": required(entry, "slug", where)}, fields, where)

    @unless_removed
    def load_gpu_card(self, entry, where):
        check_fields(entry, {"slug", "name", "maker", "architecture", "order"}, where)
        fields = {key: entry[key] for key in ("name", "maker", "order") if key in entry}
        slug = entry.get("architecture")
        fields["architecture"] = (
            None if slug is None else self.find(Architecture, slug, where, "architecture")
        )
        self.upsert(GpuCard, {"slug": entry["slug"]}, fields, where)

    def load_series(self, entry, where):
        check_fields(entry, SERIES_FIELDS, where, Series)
        fields = {key: value for key, value in entry.items() if key in SERIES_FIELDS - {"slug"}}
        self.upsert(Series, {"slug": entry["slug"]}, with_blanks(fields), where, entry)

    @unless_removed
    def load_resource(self, entry, where):
        check_fields(entry, RESOURCE_FIELDS, where, Resource)
        fields = {
            key: value
            for key, value in entry.items()
            if key in RESOURCE_FIELDS - {"slug", "series", "architectures", "pairings"}
        }
        if "series" in entry:
            fields["series"] = self.find(Series, entry["series"], where, "series")
        architectures = []
        for slug in entry.get("architectures") or []:
            with contextlib.suppress(Removed):  # a curator deleted it: the resource goes without
                architectures.append(self.find(Architecture, slug, where, "architectures"))
        check_duration(fields.get("duration_minutes"), where)
        resource, written = self.upsert(
            Resource, {"slug": entry["slug"]}, with_blanks(fields), where, entry
        )
        if resource is None:
            return
        if written:
            resource.architectures.set(architectures)
        for index, pairing in enumerate(entry.get("pairings") or []):
            self.load_pairing(resource, pairing, f"{where} pairings[{index}]")

    @unless_removed
    def load_pairing(self, resource, entry, where):
        check_fields(entry, {"part", "chapter", "timing"}, where)
        part = self.find_part(required(entry, "part", where), where, "part")
        if entry.get("chapter") is not None:
            chapter = self.find_chapter(part, entry["chapter"], where)
            lookup = {"resource": resource, "chapter": chapter}
        else:
            lookup = {"resource": resource, "part": part}
        fields = {"timing": entry.get("timing", Pairing._meta.get_field("timing").default)}
        self.upsert(Pairing, lookup, fields, where)

    def load_path(self, entry, where):
        check_fields(
            entry, {"slug", "title", "introduction", "rule", "order", "stages"}, where, Path
        )
        fields = {
            key: entry[key] for key in ("title", "introduction", "rule", "order") if key in entry
        }
        path, _written = self.upsert(
            Path, {"slug": entry["slug"]}, with_blanks(fields), where, entry
        )
        if path is None:
            return
        for index, stage in enumerate(entry.get("stages") or []):
            self.load_stage(path, stage, index + 1, f"{where} stages[{index}]")

    def load_stage(self, path, entry, order, where):
        check_fields(entry, {"title", "first_week", "last_week", "steps"}, where, Stage)
        fields = {
            "title": required(entry, "title", where),
            "first_week": entry.get("first_week"),
            "last_week": entry.get("last_week"),
        }
        stage, _written = self.upsert(Stage, {"path": path, "order": order}, fields, where, entry)
        if stage is None:
            return
        for index, step in enumerate(entry.get("steps") or []):
            self.load_step(stage, step, index + 1, f"{where} steps[{index}]")

    @unless_removed
    def load_step(self, stage, entry, order, where):
        check_fields(entry, {"kind", "resource", "title", "note"}, where, Step)
        resource = None
        if entry.get("resource") is not None:
            resource = self.find(Resource, entry["resource"], where, "resource")
        fields = {
            "kind": entry.get("kind", Step.Kind.RESOURCE),
            "resource": resource,
            "title": entry.get("title", ""),
            "note": entry.get("note", ""),
        }
        self.upsert(Step, {"stage": stage, "order": order}, fields, where, entry)

    # Lookups and writes

    def find(self, model, slug, where, field):
        try:
            return model.objects.get(slug=slug)
        except model.DoesNotExist:
            self.check_not_removed(model(slug=slug))
            name = model._meta.verbose_name
            raise CurriculumError(f"{where}: field '{field}': unknown {name} '{slug}'.") from None

    def find_part(self, number, where, field):
        try:
            return Part.objects.get(number=number)
        except Part.DoesNotExist:
            self.check_not_removed(Part(number=number))
            raise CurriculumError(f"{where}: field '{field}': unknown part {number!r}.") from None
        except (ValueError, TypeError):
            raise CurriculumError(f"{where}: field '{field}': unknown part {number!r}.") from None

    def find_chapter(self, part, number, where):
        try:
            return Chapter.objects.get(part=part, number=number)
        except Chapter.DoesNotExist:
            self.check_not_removed(Chapter(part=part, number=number))
            raise CurriculumError(
                f"{where}: field 'chapter': unknown chapter {number!r} of part {part.number}."
            ) from None
        except (ValueError, TypeError):
            raise CurriculumError(
                f"{where}: field 'chapter': unknown chapter {number!r} of part {part.number}."
            ) from None

    def check_not_removed(self, row):
        """Raise Removed if the file's entry for this missing row was loaded once (a curator
        deleted or moved the row since)."""
        if row_key(row) in self.loaded and not self.update:
            raise Removed

    def upsert(self, model, lookup, fields, where, entry=None):
        """Create the row if its entry was never loaded, or overwrite it from the file when
        updating; curator edits win otherwise, but text still to be written is filled in.

        Returns the row (None when a curator moved or deleted it) and whether this run wrote it
        from the file (filling in text only does not count).
        """
        fields = in_both_languages(model, fields, entry or {})
        instance = model.objects.filter(**lookup).first()
        key = row_key(instance or model(**lookup))
        if instance is None and key in self.loaded and not self.update:
            self.report.left_out += 1
            return None, False
        self.met.add(key)
        if instance is None:
            instance = model(**lookup, **fields)
            self.report.created += 1
        elif self.update and any(getattr(instance, key) != value for key, value in fields.items()):
            for key, value in fields.items():
                setattr(instance, key, value)
            self.report.updated += 1
        elif unwritten := missing_text(instance, fields):
            for name, value in unwritten.items():
                setattr(instance, name, value)
            self.report.updated += 1
            save_validated(instance, where)
            return instance, False
        else:
            return instance, False
        save_validated(instance, where)
        return instance, True


def save_validated(instance, where):
    """Save after full validation, turning a validation error into one naming entry and field."""
    try:
        instance.full_clean()
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        field_text = "entry" if field == "__all__" else f"field '{field}'"
        raise CurriculumError(f"{where}: {field_text}: {' '.join(messages)}") from None
    instance.save()


def check_duration(minutes, where):
    if minutes is not None and (
        isinstance(minutes, bool) or not isinstance(minutes, int) or minutes <= 0
    ):
        raise CurriculumError(
            f"{where}: field 'duration_minutes': must be a positive whole number of minutes, "
            f"or left out when unknown (got {minutes!r})."
        )


def required(entry, key, where):
    if not isinstance(entry, dict):
        raise CurriculumError(f"{where}: must be a mapping of fields.")
    if entry.get(key) in (None, ""):
        raise CurriculumError(f"{where}: field '{key}' is required.")
    return entry[key]


def check_fields(entry, allowed, where, model=None):
    """Refuse misspelt fields rather than silently ignore them."""
    if not isinstance(entry, dict):
        raise CurriculumError(f"{where}: must be a mapping of fields.")
    english = {f"{name}_en" for name in translated_fields(model) if name in allowed}
    unknown = set(entry) - allowed - english
    if unknown:
        raise CurriculumError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}.")


NULLABLE_FIELDS = {"number", "duration_minutes", "series"}


def with_blanks(fields):
    """Text fields the file sets to null are stored empty, as Django stores blank text."""
    return {
        key: "" if value is None and key not in NULLABLE_FIELDS else value
        for key, value in fields.items()
    }


def translated_fields(model):
    """The names of the model's text fields written in French and in English."""
    if model not in translator.get_registered_models():
        return ()
    return translator.get_options_for_model(model).all_fields.keys()


def in_both_languages(model, fields, entry):
    """fields with each translated text given as its French and its English column.

    The file gives the French as `summary` and the English as `summary_en`; an English left out
    is stored empty, and pages show the French in its place.
    """
    fields = dict(fields)
    for name in translated_fields(model):
        if name in fields:
            fields[f"{name}_fr"] = fields.pop(name) or ""
            fields[f"{name}_en"] = entry.get(f"{name}_en") or ""
    return fields


def missing_text(instance, fields):
    """The file's text for the row's columns still to be written: English still empty, and a
    part's or chapter's title still empty (they stay so until the guide gives one)."""
    english = {f"{name}_en" for name in translated_fields(type(instance))}
    if isinstance(instance, Part | Chapter):
        english |= {"title_fr"}
    return {
        key: value
        for key, value in fields.items()
        if key in english and value and not getattr(instance, key)
    }
