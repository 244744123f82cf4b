from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from curriculum.loader import CurriculumError, load_curriculum


class Command(BaseCommand):
    help = (
        "Load the curriculum (parts, series, resources, the suggested path) from a YAML file, "
        "by default fixtures/curriculum.yaml, which is not a Django fixture: use this command, "
        "not loaddata. Running it again duplicates nothing and keeps curators' edits unless "
        "--update is given: it creates only entries it never loaded, so what a curator moved or "
        "deleted in admin is not made again. Text is written in French (title, summary…); its English is given "
        "beside it with _en added to the field's name (title_en, summary_en…). English left out "
        "stays empty and pages show the French; English still empty in the database is filled "
        "in from the file even without --update."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file",
            nargs="?",
            default=settings.BASE_DIR / "fixtures" / "curriculum.yaml",
            help="The YAML file to load (default: fixtures/curriculum.yaml).",
        )
        parser.add_argument(
            "--update",
            action="store_true",
            help=(
                "Overwrite rows that already exist with the file's values and make again what "
                "curators deleted (curators' edits are lost)."
            ),
        )

    def handle(self, *args, file, update, **options):
        try:
            # An operator's tool: its messages, validation errors included, stay in one language.
            with translation.override("en"):
                report = load_curriculum(file, update=update)
        except CurriculumError as error:
            raise CommandError(f"Nothing loaded. {error}") from error
        self.stdout.write(report.summary())
