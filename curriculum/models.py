"""The curriculum: the written guide's parts and chapters, what there is to watch, and the path."""

import unicodedata
from dataclasses import dataclass
from functools import cached_property
from urllib.parse import quote_plus

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Prefetch, Q
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.text import Truncator
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from curriculum.youtube import NotAVideo, video_id_of
from lib.urls import url_with


def folded(text: str) -> str:
    """text without case or accents, as the catalogue's search compares words: "Réduction" and
    "reduction" fold alike, in French and in English."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


class PartQuerySet(models.QuerySet):
    def for_guide(self):
        """Parts in order with their chapters and every pairing's resource fetched in fixed queries."""
        pairings = Pairing.objects.select_related("resource__series").order_by(
            "timing", "resource__series__order", "resource__number", "resource__title"
        )
        return self.prefetch_related(
            Prefetch("pairings", queryset=pairings),
            Prefetch(
                "chapters",
                queryset=Chapter.objects.prefetch_related(Prefetch("pairings", queryset=pairings)),
            ),
        )


class Part(models.Model):
    number = models.PositiveSmallIntegerField(_("number"), unique=True)
    title = models.CharField(
        _("title"),
        max_length=200,
        blank=True,
        help_text=_("Leave empty until the guide gives one: pages then show “Part 2”."),
    )

    objects = PartQuerySet.as_manager()

    class Meta:
        ordering = ["number"]
        verbose_name = _("part")
        verbose_name_plural = _("parts")

    def __str__(self):
        return f"{self.label} · {self.title}" if self.title else self.label

    def get_absolute_url(self):
        return reverse("curriculum:guide") + f"#part-{self.number}"

    @property
    def label(self) -> str:
        """The part by its number alone ("Part 2"), whatever its title."""
        return gettext("Part %(number)s") % {"number": self.number}


class Chapter(models.Model):
    part = models.ForeignKey(
        Part, on_delete=models.CASCADE, related_name="chapters", verbose_name=_("part")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    title = models.CharField(
        _("title"),
        max_length=200,
        blank=True,
        help_text=_("Leave empty until the guide gives one: pages then show “Part 2, chapter 5”."),
    )

    class Meta:
        ordering = ["part__number", "number"]
        verbose_name = _("chapter")
        verbose_name_plural = _("chapters")
        constraints = [
            models.UniqueConstraint(fields=["part", "number"], name="chapter_number_unique_in_part")
        ]

    def __str__(self):
        return f"{self.label} · {self.title}" if self.title else self.label

    def get_absolute_url(self):
        return reverse("curriculum:guide") + f"#chapter-{self.part.number}-{self.number}"

    @property
    def label(self) -> str:
        """The chapter by its numbers alone ("Part 2, chapter 5"), whatever its title."""
        return gettext("Part %(part)s, chapter %(number)s") % {
            "part": self.part.number,
            "number": self.number,
        }


def validate_search_url_template(value):
    if not value.startswith("https://") or "{query}" not in value:
        raise ValidationError(
            _("Give an https:// address with {query} where the searched words go.")
        )


class SearchPlace(models.TextChoices):
    CHANNEL = "channel", _("a video channel")
    ARCHIVE = "archive", _("an archive of talks")


@dataclass(frozen=True)
class SearchLink:
    """A search of a series' own site for one resource: never a video address."""

    url: str
    site: str
    place: str

    @property
    def label(self):
        if self.place == SearchPlace.ARCHIVE:
            return gettext("Search the %(site)s archive") % {"site": self.site}
        return gettext("Search the %(site)s channel") % {"site": self.site}


class Series(models.Model):
    slug = models.SlugField(_("slug"), unique=True)
    name = models.CharField(_("name"), max_length=200)
    description = models.TextField(
        _("description"),
        blank=True,
        help_text=_("What makes this source different, as the guide tells it."),
    )
    website_url = models.URLField(_("website"), blank=True)
    channel_url = models.URLField(_("video channel"), blank=True)
    community_url = models.URLField(
        _("community"), blank=True, help_text=_("Where to ask questions, e.g. a Discord server.")
    )
    notes_url = models.URLField(_("written notes"), blank=True)
    code_url = models.URLField(_("code and slides"), blank=True)
    search_url_template = models.CharField(
        _("search address"),
        max_length=500,
        blank=True,
        validators=[validate_search_url_template],
        help_text=_(
            "The series' own search, with {query} where the words go, e.g. "
            "https://www.youtube.com/@GPUMODE/search?query={query}. A resource of this series "
            "with no known video address links to this search for its title, labelled as a search."
        ),
    )
    search_name = models.CharField(
        _("name of the searched site"),
        max_length=100,
        blank=True,
        help_text=_("As in “Search the GPU MODE channel”; empty: the series' name."),
    )
    search_place = models.CharField(
        _("searched place"),
        max_length=10,
        choices=SearchPlace.choices,
        default=SearchPlace.CHANNEL,
        help_text=_("A video channel or an archive of talks: it words the search link."),
    )
    order = models.PositiveSmallIntegerField(
        _("order"), default=0, help_text=_("Series are listed from the smallest number.")
    )

    class Meta:
        ordering = ["order", "name"]
        verbose_name = _("series")
        # One English word, two French ones: the context gives the plural its own msgid.
        verbose_name_plural = pgettext_lazy("plural", "series")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("progress:catalogue") + "?" + urlencode({"series": self.slug})

    def search_link(self, terms):
        """A search of the series' own site for terms, or None when the series has no search."""
        if not self.search_url_template or not terms:
            return None
        return SearchLink(
            url=self.search_url_template.replace("{query}", quote_plus(terms)),
            site=self.search_name or self.name,
            place=self.search_place,
        )

    def links(self):
        """The series' links that are filled in, as (label, url) pairs."""
        candidates = [
            (_("Website"), self.website_url),
            (_("Video channel"), self.channel_url),
            (_("Community"), self.community_url),
            (_("Written notes"), self.notes_url),
            (_("Code and slides"), self.code_url),
        ]
        return [(label, url) for label, url in candidates if url]


class Architecture(models.Model):
    slug = models.SlugField(_("slug"), unique=True)
    name = models.CharField(_("name"), max_length=100)
    vendor = models.CharField(_("vendor"), max_length=100)
    order = models.PositiveSmallIntegerField(
        _("order"), default=0, help_text=_("Generations are listed from the smallest number.")
    )

    class Meta:
        ordering = ["order", "name"]
        verbose_name = _("GPU architecture")
        verbose_name_plural = _("GPU architectures")

    def __str__(self):
        return f"{self.vendor} {self.name}"

    def get_absolute_url(self):
        return reverse("progress:catalogue") + "?" + urlencode({"architecture": self.slug})

    @property
    def runs_cuda(self):
        return self.vendor == CUDA_VENDOR

    def nearest_session(self, sessions):
        """The session to watch for this generation, from sessions ({architecture: session}).

        Its own if there is one; else the nearest generation of the same vendor that has one
        (the newer on a tie); None when no generation of this vendor has a session.
        """
        if self in sessions:
            return SessionAdvice(SessionAdvice.Reason.OWN, self, sessions[self], self)
        kin = [other for other in sessions if other.vendor == self.vendor]
        if not kin:
            return SessionAdvice(SessionAdvice.Reason.NONE_FOR_VENDOR, self, None, None)
        nearest = min(kin, key=lambda other: (abs(other.order - self.order), -other.order))
        reason = (
            SessionAdvice.Reason.NEWER if nearest.order > self.order else SessionAdvice.Reason.OLDER
        )
        return SessionAdvice(reason, self, sessions[nearest], nearest)


CUDA_VENDOR = "NVIDIA"


@dataclass(frozen=True)
class SessionAdvice:
    """Which architecture session a learner should watch for their GPU, and why.

    The template curriculum/_gpu_advice.html words each reason.
    """

    class Reason(models.TextChoices):
        OWN = "own", _("the session of this architecture")
        NEWER = "newer", _("the nearest newer generation's session")
        OLDER = "older", _("the nearest older generation's session")
        NONE_FOR_VENDOR = "none_for_vendor", _("no session for this vendor")
        NOT_CUDA = "not_cuda", _("a card that does not run CUDA, of no known architecture")
        UNKNOWN_ARCHITECTURE = "unknown_architecture", _("a card of no known architecture")
        NO_GPU = "no_gpu", _("no GPU given")

    reason: str
    architecture: "Architecture | None"
    session: "Resource | None"
    session_architecture: "Architecture | None"
    card: "GpuCard | None" = None
    pointers: tuple = ()

    @property
    def runs_cuda(self):
        if self.architecture is not None:
            return self.architecture.runs_cuda
        return self.card is None or self.card.maker == CUDA_VENDOR


class GpuCard(models.Model):
    """A graphics card a learner can name, and the architecture (generation) it belongs to."""

    slug = models.SlugField(_("slug"), unique=True)
    name = models.CharField(_("name"), max_length=100, unique=True, help_text=_("e.g. RTX 4090."))
    maker = models.CharField(
        _("maker"),
        max_length=100,
        help_text=_("Cards are grouped by maker in the settings, e.g. NVIDIA, AMD, Apple."),
    )
    architecture = models.ForeignKey(
        Architecture,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="cards",
        verbose_name=_("architecture"),
        help_text=_(
            "Leave empty when no architecture of the catalogue fits (e.g. Apple's GPUs): "
            "learners are then told so honestly."
        ),
    )
    order = models.PositiveSmallIntegerField(
        _("order"), default=0, help_text=_("Cards are listed from the smallest number.")
    )

    class Meta:
        ordering = ["order", "name"]
        verbose_name = _("GPU card")
        verbose_name_plural = _("GPU cards")

    def __str__(self):
        return self.name


class ResourceQuerySet(models.QuerySet):
    def watchable(self):
        """Resources one watches: they can have a duration and be marked watched."""
        return self.exclude(kind__in=Resource.FOLLOWED_KINDS)

    def followed(self):
        """Resources one follows over time (conferences, channels, session collections)."""
        return self.filter(kind__in=Resource.FOLLOWED_KINDS)

    def start_here(self):
        """The one resource the guide says to watch if you watch only one."""
        return self.filter(is_start_here=True).first()

    def with_related(self):
        """Resources with their series, architectures and pairings fetched in fixed queries."""
        return self.select_related("series").prefetch_related(
            "architectures",
            Prefetch("pairings", queryset=Pairing.objects.select_related("part", "chapter__part")),
        )

    def for_guide(self, part=None, chapter=None):
        """Resources paired with a part (or one of its chapters), or with one chapter."""
        if chapter is not None:
            return self.filter(pairings__chapter=chapter).distinct()
        if part is not None:
            return self.filter(Q(pairings__part=part) | Q(pairings__chapter__part=part)).distinct()
        return self

    def architecture_sessions(self):
        """The sessions that present a GPU generation, with their architectures."""
        return self.filter(presents_architecture=True).prefetch_related("architectures")

    def architecture_session(self, architecture):
        """The talk that presents this GPU generation, or None (also for an unknown GPU)."""
        if architecture is None:
            return None
        return (
            self.filter(presents_architecture=True, architectures=architecture)
            .order_by("title")
            .first()
        )


class Resource(models.Model):
    class Kind(models.TextChoices):
        LECTURE = "lecture", _("lecture")
        TALK = "talk", _("talk")
        COURSE = "course", _("course")
        TUTORIAL_SERIES = "tutorial_series", _("tutorial series")
        UNIVERSITY_COURSE = "university_course", _("university course")
        SESSION_COLLECTION = "session_collection", _("session collection")
        CONFERENCE = "conference", _("conference")
        CHANNEL = "channel", _("channel")

    # Followed over time rather than watched once: no duration, "followed" instead of "watched".
    FOLLOWED_KINDS = (Kind.SESSION_COLLECTION, Kind.CONFERENCE, Kind.CHANNEL)

    kind = models.CharField(
        _("kind"),
        max_length=20,
        choices=Kind.choices,
        help_text=_(
            "Session collections, conferences and channels are followed, not watched: they have no duration."
        ),
    )
    slug = models.SlugField(
        _("slug"),
        max_length=100,
        unique=True,
        help_text=_("Learners' progress is kept under this name: do not change it once published."),
    )
    title = models.CharField(_("title"), max_length=300)
    number = models.PositiveSmallIntegerField(
        _("number"),
        null=True,
        blank=True,
        help_text=_("The lecture number in its series, e.g. GPU MODE #15."),
    )
    speaker = models.CharField(_("speaker"), max_length=200, blank=True)
    series = models.ForeignKey(
        Series,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="resources",
        verbose_name=_("series"),
    )
    watch_url = models.URLField(
        _("watch"),
        max_length=500,
        blank=True,
        help_text=_(
            "Any YouTube address of the video (watch?v=, youtu.be/, embed/, with or without t=) "
            "makes it play on the resource page."
        ),
    )
    video_id = models.CharField(
        _("YouTube video id"),
        max_length=11,
        blank=True,
        editable=False,
        help_text=_("Read from the watch address when it is a YouTube video; empty otherwise."),
    )
    notes_url = models.URLField(_("notes"), max_length=500, blank=True)
    code_url = models.URLField(_("code"), max_length=500, blank=True)
    slides_url = models.URLField(_("slides"), max_length=500, blank=True)
    other_url = models.URLField(
        _("website"),
        max_length=500,
        blank=True,
        help_text=_("A course or conference site, an article: any other useful link."),
    )
    search_terms = models.CharField(
        _("search words"),
        max_length=200,
        blank=True,
        help_text=_(
            "What the series' search looks for while no video address is known; empty: the title."
        ),
    )
    duration_minutes = models.PositiveIntegerField(
        _("duration (minutes)"),
        null=True,
        blank=True,
        help_text=_("Leave empty when unknown. For a long course, the planned total."),
    )
    summary = models.TextField(_("summary"), blank=True)
    keywords = models.CharField(
        _("keywords"),
        max_length=300,
        blank=True,
        help_text=_("Comma-separated words learners search for, e.g. CUTLASS, Hopper, TMA."),
    )
    architectures = models.ManyToManyField(
        Architecture,
        blank=True,
        related_name="resources",
        verbose_name=_("architectures covered"),
    )
    presents_architecture = models.BooleanField(
        _("presents an architecture"),
        default=False,
        help_text=_(
            "Tick for the session that presents a GPU generation (tag it with that architecture): "
            "the path's “architecture session of your card” step leads there."
        ),
    )
    is_start_here = models.BooleanField(
        _("start here"),
        default=False,
        help_text=_(
            "The one video to watch if a learner watches only one. Only one resource may have it."
        ),
    )
    start_here_reason = models.TextField(_("why start here"), blank=True)
    is_advanced = models.BooleanField(
        _("advanced topic"),
        default=False,
        help_text=_("Watched as needed, once the basics are in place."),
    )
    topic = models.CharField(
        _("topic"),
        max_length=100,
        blank=True,
        help_text=_("Groups advanced lectures, e.g. CUTLASS and CuTe."),
    )

    objects = ResourceQuerySet.as_manager()

    class Meta:
        ordering = [
            F("series__order").asc(nulls_last=True),
            F("number").asc(nulls_last=True),
            "title",
        ]
        verbose_name = _("resource")
        verbose_name_plural = _("resources")
        constraints = [
            models.CheckConstraint(
                condition=Q(duration_minutes__isnull=True) | Q(duration_minutes__gt=0),
                name="resource_duration_positive",
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=["session_collection", "conference", "channel"])
                | Q(duration_minutes__isnull=True),
                name="resource_followed_kind_has_no_duration",
            ),
            models.UniqueConstraint(
                fields=["is_start_here"],
                condition=Q(is_start_here=True),
                name="resource_one_start_here",
            ),
            models.UniqueConstraint(
                fields=["series", "number"],
                condition=Q(number__isnull=False),
                name="resource_number_unique_in_series",
            ),
        ]

    def __str__(self):
        if self.number is not None and self.series_id:
            return f"{self.series.name} #{self.number} · {self.title}"
        return self.title

    def save(self, *args, **kwargs):
        self.video_id = self.youtube_id_or_empty()
        if kwargs.get("update_fields") is not None and "watch_url" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "video_id"}
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return url_with("progress:resource_detail", self.slug)

    @property
    def is_followed(self):
        return self.kind in self.FOLLOWED_KINDS

    @property
    def keyword_list(self):
        return [word.strip() for word in self.keywords.split(",") if word.strip()]

    @property
    def summary_excerpt(self):
        """The summary's first 30 words in the active language, as the catalogue's cards show it."""
        return Truncator(self.summary).words(30)

    @cached_property
    def search_text(self):
        """The text the catalogue's search looks in, French and English, folded (see folded())."""
        texts = [self.title_fr, self.title_en, self.speaker, self.keywords]
        texts += [self.summary_fr, self.summary_en]
        return folded("\n".join(text or "" for text in texts))

    @cached_property
    def watch_link(self):
        """The known address of the video, or "" (a series' home page is not a video address)."""
        if not self.watch_url:
            return ""
        if self.series_id and self.watch_url == self.series.website_url:
            return ""
        return self.watch_url

    @cached_property
    def search_link(self):
        """While no video address is known, a search of the series' own site (or None)."""
        if self.watch_link or not self.series_id:
            return None
        # The title as given in the guide, whatever the language of the page: the cached link
        # is shared by every request.
        return self.series.search_link(self.search_terms or self.title_fr)

    def links(self):
        """The resource's links that are filled in, as (label, url) pairs."""
        candidates = [
            (_("Watch"), self.watch_link),
            (_("Notes"), self.notes_url),
            (_("Code"), self.code_url),
            (_("Slides"), self.slides_url),
            (_("Website"), self.other_url),
        ]
        return [(label, url) for label, url in candidates if url]

    def youtube_id_or_empty(self):
        """The YouTube video id of the watch address, or "" (clean() refuses a malformed one)."""
        try:
            return video_id_of(self.watch_url)
        except NotAVideo:
            return ""

    @property
    def has_video(self):
        """A YouTube video that plays on the resource page and records what is played."""
        return bool(self.video_id) and not self.is_followed

    def clean(self):
        try:
            video_id_of(self.watch_url)
        except NotAVideo:
            raise ValidationError(
                {
                    "watch_url": _(
                        "This YouTube address does not name a video: paste the video's own "
                        "address (watch?v=…, youtu.be/… or embed/…) with its 11-character id."
                    )
                }
            ) from None
        if self.is_followed and self.duration_minutes is not None:
            raise ValidationError(
                {
                    "duration_minutes": _(
                        "A followed resource (conference, channel…) has no duration."
                    )
                }
            )


class Timing(models.TextChoices):
    BEFORE = "before", _("before")
    WITH = "with", _("with")


class Pairing(models.Model):
    """A resource belongs with one part of the guide, or with one chapter (hence its part)."""

    resource = models.ForeignKey(
        Resource, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("resource")
    )
    part = models.ForeignKey(
        Part,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="pairings",
        verbose_name=_("part"),
        help_text=_("Fill in either a whole part or one chapter, not both."),
    )
    chapter = models.ForeignKey(
        Chapter,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="pairings",
        verbose_name=_("chapter"),
    )
    timing = models.CharField(
        _("timing"),
        max_length=10,
        choices=Timing.choices,
        default=Timing.WITH,
        help_text=_("Watch it before reading, or alongside."),
    )

    class Meta:
        ordering = ["resource", "pk"]
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        constraints = [
            # Naming the part through the chapter keeps the two from ever disagreeing.
            models.CheckConstraint(
                condition=Q(part__isnull=False, chapter__isnull=True)
                | Q(part__isnull=True, chapter__isnull=False),
                name="pairing_names_a_part_or_a_chapter",
            ),
            models.UniqueConstraint(fields=["resource", "part"], name="pairing_unique_part"),
            models.UniqueConstraint(fields=["resource", "chapter"], name="pairing_unique_chapter"),
        ]

    def __str__(self):
        return f"{self.resource} · {self.get_timing_display()} {self.place}"

    def get_absolute_url(self):
        return self.place.get_absolute_url()

    @property
    def place(self):
        """The chapter if there is one, otherwise the part."""
        return self.chapter or self.part

    @property
    def guide_part(self):
        return self.chapter.part if self.chapter_id else self.part

    def clean(self):
        if (self.part_id is None) == (self.chapter_id is None):
            raise ValidationError(_("Pair the resource with either a part or a chapter, not both."))


class PathQuerySet(models.QuerySet):
    def with_steps(self):
        """Paths with their stages, steps and steps' resources fetched in fixed queries."""
        steps = Step.objects.select_related("resource__series").prefetch_related(
            "resource__architectures"
        )
        return self.prefetch_related(
            Prefetch(
                "stages", queryset=Stage.objects.prefetch_related(Prefetch("steps", queryset=steps))
            )
        )

    def suggested(self):
        """The suggested path with its stages and steps, or None when none is loaded."""
        return self.with_steps().first()


class Path(models.Model):
    slug = models.SlugField(_("slug"), unique=True)
    title = models.CharField(_("title"), max_length=200)
    introduction = models.TextField(_("introduction"), blank=True)
    rule = models.TextField(
        _("rule"),
        blank=True,
        help_text=_("The advice that closes the path: one hour of video for three of code."),
    )
    order = models.PositiveSmallIntegerField(
        _("order"), default=0, help_text=_("The first path is the one suggested to learners.")
    )

    objects = PathQuerySet.as_manager()

    class Meta:
        ordering = ["order", "pk"]
        verbose_name = _("path")
        verbose_name_plural = _("paths")

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("progress:path")


class Stage(models.Model):
    path = models.ForeignKey(
        Path, on_delete=models.CASCADE, related_name="stages", verbose_name=_("path")
    )
    title = models.CharField(_("title"), max_length=200, help_text=_("e.g. “Week 2-3”."))
    first_week = models.PositiveSmallIntegerField(
        _("first week"), null=True, blank=True, help_text=_("Empty for “then, as needed”.")
    )
    last_week = models.PositiveSmallIntegerField(_("last week"), null=True, blank=True)
    order = models.PositiveSmallIntegerField(_("order"))

    class Meta:
        ordering = ["path", "order"]
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        constraints = [
            models.UniqueConstraint(fields=["path", "order"], name="stage_order_unique_in_path"),
            models.CheckConstraint(
                condition=Q(first_week__isnull=True)
                | Q(last_week__isnull=True)
                | Q(last_week__gte=F("first_week")),
                name="stage_weeks_in_order",
            ),
        ]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("progress:path") + f"#stage-{self.pk}"


class Step(models.Model):
    class Kind(models.TextChoices):
        RESOURCE = "resource", _("a resource")
        ARCHITECTURE_TALK = "architecture_talk", _("the architecture session of the learner's GPU")

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="steps", verbose_name=_("stage")
    )
    order = models.PositiveSmallIntegerField(_("order"))
    kind = models.CharField(
        _("kind"),
        max_length=20,
        choices=Kind.choices,
        default=Kind.RESOURCE,
        help_text=_(
            "An architecture step names no resource: each learner gets the session that presents their GPU."
        ),
    )
    resource = models.ForeignKey(
        Resource,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="steps",
        verbose_name=_("resource"),
    )
    title = models.CharField(
        _("title"),
        max_length=200,
        blank=True,
        help_text=_("Shown instead of the resource's title; required for an architecture step."),
    )
    note = models.CharField(
        _("note"), max_length=200, blank=True, help_text=_("e.g. “12 h, in several sittings”.")
    )

    class Meta:
        ordering = ["stage", "order"]
        verbose_name = _("step")
        verbose_name_plural = _("steps")
        constraints = [
            models.UniqueConstraint(fields=["stage", "order"], name="step_order_unique_in_stage"),
            models.CheckConstraint(
                condition=Q(kind="resource", resource__isnull=False)
                | Q(kind="architecture_talk", resource__isnull=True),
                name="step_resource_matches_kind",
            ),
        ]

    def __str__(self):
        return self.display_title

    def get_absolute_url(self):
        return reverse("progress:path") + f"#step-{self.pk}"

    @property
    def display_title(self):
        if self.title:
            return self.title
        return str(self.resource) if self.resource_id else ""

    @property
    def is_architecture_talk(self):
        return self.kind == self.Kind.ARCHITECTURE_TALK

    def resolve(self, architecture=None):
        """The resource this step stands for; for an architecture step, the talk for that GPU."""
        if self.is_architecture_talk:
            return Resource.objects.architecture_session(architecture)
        return self.resource

    def clean(self):
        if self.kind == self.Kind.RESOURCE and self.resource_id is None:
            raise ValidationError({"resource": _("A resource step names a resource.")})
        if self.is_architecture_talk and self.resource_id is not None:
            raise ValidationError({"resource": _("An architecture step names no resource.")})
        if self.is_architecture_talk and not self.title:
            raise ValidationError({"title": _("Give the architecture step a title.")})


class Revision(models.Model):
    """One row whose token database triggers renew on every write to a curriculum table.

    The triggers (migration 0002) see every change, admin, load_curriculum, QuerySet.update(),
    raw SQL and restores alike; curriculum.structure compares the token to know when to rebuild.
    A new curriculum table needs its trigger in a new migration; on SQLite, a migration that
    rebuilds a curriculum table (most AddField/AlterField) drops its triggers and must make them
    again (see migration 0003).
    """

    token = models.CharField(max_length=36)

    class Meta:
        db_table = "curriculum_revision"

    def __str__(self):
        return self.token


class LoadedEntry(models.Model):
    """An entry of the curriculum file that load_curriculum has written once, by its key.

    Without --update the loader creates only entries it never loaded: one it loaded and a curator
    later moved, renumbered or deleted in admin stays as the curator left it (curriculum/loader.py).
    """

    key = models.CharField(
        _("key"),
        max_length=300,
        unique=True,
        help_text=_("The entry's key in the file, e.g. “pairing gpu-mode-9 2.5”."),
    )
    loaded_at = models.DateTimeField(_("loaded at"), auto_now_add=True)

    class Meta:
        ordering = ["key"]
        verbose_name = _("loaded entry")
        verbose_name_plural = _("loaded entries")

    def __str__(self):
        return self.key
