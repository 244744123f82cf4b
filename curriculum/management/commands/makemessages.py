"""Django's makemessages, which also reads the Jinja2 templates (*.jinja) of the learner pages.

Django's own command reads only its template language. Here each .jinja file is turned, before
xgettext reads it, into the Python calls its strings stand for (`gettext('…')`, `ngettext('…',
'…', n)`, `pgettext('…', '…')`), found by Jinja2's own extractor (the i18n extension's
`extract_translations`: `_()`, `gettext()` and `{% trans %}` blocks with their plurals), each
on its template line. The msgids are those the pages ask Django's gettext for at run time, and
they land in the same catalogues as every other string.
"""

from django.core.management.commands import makemessages
from django.template import engines

JINJA_SUFFIX = ".jinja"
GETTEXT_FUNCTIONS = ("_", "gettext", "ngettext", "pgettext", "npgettext")


def extractor():
    """The site's own Jinja2 environment, so that every tag a template uses ({% cache %} too)
    parses here as it does on a page."""
    return engines["jinja2"].env


def python_call(function, message):
    """The Python call xgettext reads for one string (or tuple of strings) of a template."""
    strings = message if isinstance(message, tuple) else (message,)
    literals = [repr(string) for string in strings if string is not None]
    if function == "_":
        function = "gettext"
    if function in ("ngettext", "npgettext"):
        literals.append("n")
    return f"{function}({', '.join(literals)})"


def jinja_as_python(source):
    """The template's translatable strings as Python calls, each on its line of the template."""
    lines = [""] * (source.count("\n") + 1)
    for lineno, function, message in extractor().extract_translations(source, GETTEXT_FUNCTIONS):
        lines[lineno - 1] += python_call(function, message) + "; "
    return "\n".join(lines) + "\n"


class BuildFile(makemessages.BuildFile):
    def preprocess(self):
        if not self.path.endswith(JINJA_SUFFIX):
            return super().preprocess()
        with open(self.path, encoding="utf-8") as template:
            content = jinja_as_python(template.read())
        with open(self.work_path, "w", encoding="utf-8") as work_file:
            work_file.write(content)


class Command(makemessages.Command):
    build_file_class = BuildFile

    def handle(self, *args, **options):
        if options["domain"] == "django" and not options["extensions"]:
            options["extensions"] = ["html", "txt", "py", JINJA_SUFFIX.removeprefix(".")]
        return super().handle(*args, **options)
