"""Form widgets shared by the learner's forms (progress, accounts)."""

import html
from functools import cache

from django import forms
from django.forms.utils import flatatt
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from lib.time_zone import time_zone_names


def day_input():
    """The browser's date picker, with the value in the ISO form it expects."""
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def escaped(value) -> str:
    """conditional_escape(value) without its lazy wrappers, for the many options of a select."""
    if isinstance(value, Promise):
        value = str(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


class OptionsInPythonSelect(forms.Select):
    """A select that writes its options itself: the stock one renders a template per option."""

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        parts = [format_html('<select name="{}"{}>', name, flatatt(widget["attrs"]))]
        for group_name, options, _index in widget["optgroups"]:
            if group_name:
                parts.append(format_html('<optgroup label="{}">', group_name))
            parts.extend(
                f'<option value="{escaped(option["value"])}"'
                f"{' selected' if option['selected'] else ''}>{escaped(option['label'])}</option>"
                for option in options
            )
            if group_name:
                parts.append(mark_safe("</optgroup>"))
        parts.append(mark_safe("</select>"))
        return mark_safe("".join(parts))


def with_option_chosen(html: str, value) -> str:
    """A select's options, written with none chosen, with the option of this value chosen as
    Django chooses it (the first of that value; None is the empty choice's "")."""
    option = format_html('<option value="{}">', "" if value is None else value)
    return html.replace(option, option[:-1] + " selected>", 1)


@cache
def time_zone_options() -> str:
    """The options of every time zone, none selected: the same for every page of the process."""
    return "".join(
        format_html('<option value="{}">{}</option>', name, name) for name in time_zone_names()
    )


class TimeZoneSelect(OptionsInPythonSelect):
    """The select of every time zone (about 600): its options are written once per process and
    each rendering marks the chosen one, as OptionsInPythonSelect writes them."""

    def render(self, name, value, attrs=None, renderer=None):
        options = with_option_chosen(time_zone_options(), value) if value else time_zone_options()
        select = format_html(
            '<select name="{}"{}>', name, flatatt(self.build_attrs(self.attrs, attrs))
        )
        return mark_safe(select + options + "</select>")
