from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from practice.loader import ExerciseError, load_exercises


class Command(BaseCommand):
    help = (
        "Keep the exercises in step with the repository's exercises/ folders: new folders are "
        "added, a changed statement, title or starter is rewritten, a folder gone turns its "
        "exercise off. What curators set in admin (active, order, resource) is kept."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "folder",
            nargs="?",
            default=settings.PRACTICE_EXERCISES_DIR,
            help="The folder of exercises (default: PRACTICE_EXERCISES_DIR, exercises/).",
        )

    def handle(self, *args, folder, **options):
        if not Path(folder).is_dir():
            # A checkout without exercises (or before they land) still runs `make run`.
            self.stdout.write(f"No folder {folder}: no exercise loaded")
            return
        try:
            report = load_exercises(Path(folder))
        except ExerciseError as error:
            raise CommandError(f"Nothing loaded. {error}") from error
        self.stdout.write(report.summary())
