"""The renderer of the project's forms: Django's own form and widget templates, in their Jinja2
version (django/forms/jinja2), so that a field prints the same way on every page, through the
engine the pages use.

Each form of the project names it (`default_renderer = renderer`); the admin's forms keep
Django's default, whose widget templates (admin/widgets/*.html) exist only for Django's engine.
"""

from django import forms
from django.forms.renderers import Jinja2

# One instance for the process: the renderer builds its Jinja2 environment once, on first use
# (a form given the class would build one per form).
renderer = Jinja2()


def day_input() -> forms.DateInput:
    """The browser's date picker, with the value in the ISO form it expects."""
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
