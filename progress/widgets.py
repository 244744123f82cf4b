"""Form widgets shared by the learner's forms."""

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html
from django.utils.safestring import mark_safe


def day_input():
    """The browser's date picker, with the value in the ISO form it expects."""
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class OptionsInPythonSelect(forms.Select):
    """A select that writes its options itself: the stock one renders a template per option."""

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        parts = [format_html('<select name="{}"{}>', name, flatatt(widget["attrs"]))]
        for group_name, options, _index in widget["optgroups"]:
            if group_name:
                parts.append(format_html('<optgroup label="{}">', group_name))
            parts.extend(
                format_html(
                    '<option value="{}"{}>{}</option>',
                    option["value"],
                    mark_safe(" selected") if option["selected"] else "",
                    option["label"],
                )
                for option in options
            )
            if group_name:
                parts.append(mark_safe("</optgroup>"))
        parts.append(mark_safe("</select>"))
        return mark_safe("".join(parts))
