"""A form's fields as flat view models, written in Python: the HTML of Django's field group
(django/forms/field.html: label, help text, errors, widget) without a template per field, label,
error list and widget, for the Jinja2 pages (templates/_fields.jinja prints them).

Inputs (text, date, time, password, checkbox...), selects, radio buttons, multiple checkboxes
and text areas are written here from the widget's own context (`Widget.get_context`: values,
checked and selected options, attributes), as Django's widget templates would write them; any
other widget is rendered by Django as before.
"""

from collections.abc import Mapping
from dataclasses import dataclass, replace

from django import forms
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from markupsafe import Markup

from lib.widgets import OptionsInPythonSelect, escaped, with_option_chosen

# A select's initial value that no option holds: its field, written once for every learner (per
# language, or per curriculum revision), has no option chosen until chosen_in() chooses theirs.
NO_CHOICE = "\x00"

# A label ending in one of these takes no suffix; Django's own catalogues translate the string
# (BoundField.label_tag), which a variable keeps out of ours.
LABEL_PUNCTUATION = ":?.!"
INPUT = "django/forms/widgets/input.html"
INPUTS = {
    INPUT,
    "django/forms/widgets/text.html",
    "django/forms/widgets/number.html",
    "django/forms/widgets/email.html",
    "django/forms/widgets/url.html",
    "django/forms/widgets/password.html",
    "django/forms/widgets/hidden.html",
    "django/forms/widgets/date.html",
    "django/forms/widgets/time.html",
    "django/forms/widgets/datetime.html",
    "django/forms/widgets/checkbox.html",
    "django/forms/widgets/search.html",
    "django/forms/widgets/tel.html",
    "django/forms/widgets/color.html",
}
MULTIPLE_INPUTS = {"django/forms/widgets/radio.html", "django/forms/widgets/checkbox_select.html"}


@dataclass(frozen=True, slots=True)
class FieldGroup:
    """One field as its group shows it; hidden fields have only their widget."""

    id: str
    label: str  # with the form's suffix ("Day:", "Jour :"), or "" for none
    help: Markup
    errors: tuple[str, ...]
    widget: Markup
    hidden: bool
    # Radio buttons and multiple checkboxes: a <fieldset> whose <legend> is the label.
    fieldset: bool = False
    described_by: str = ""  # the fieldset's aria-describedby
    required: bool = False  # shown beside the label (templates/_form.jinja: required_mark)


def attributes(attrs: Mapping[str, object]) -> str:
    """Attributes in their order, as django/forms/widgets/attrs.html writes them."""
    return "".join(
        format_html(" {}", name) if value is True else format_html(' {}="{}"', name, value)
        for name, value in attrs.items()
        if value is not False and value is not None
    )


def input_html(widget: Mapping) -> str:
    """django/forms/widgets/input.html."""
    value = widget["value"]
    return format_html(
        '<input type="{}" name="{}"{}{}>',
        widget["type"],
        widget["name"],
        format_html(' value="{}"', value) if value is not None else "",
        mark_safe(attributes(widget["attrs"])),
    )


def select_html(widget: Mapping) -> str:
    """django/forms/widgets/select.html and its options."""
    parts: list[str] = [
        format_html('<select name="{}"{}>', widget["name"], mark_safe(attributes(widget["attrs"])))
    ]
    for group_name, options, _index in widget["optgroups"]:
        if group_name:
            parts.append(format_html('\n  <optgroup label="{}">', group_name))
        parts.extend(
            f'\n  <option value="{escaped(option["value"])}"{attributes(option["attrs"])}>'
            f"{escaped(option['label'])}</option>"
            for option in options
        )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


def option_input_html(option: Mapping) -> str:
    """django/forms/widgets/input_option.html: a radio button or a checkbox in its label."""
    if not option["wrap_label"]:
        return input_html(option)
    option_id = option["attrs"].get("id")
    return format_html(
        "<label{}>{} {}</label>",
        format_html(' for="{}"', option_id) if option_id else "",
        mark_safe(input_html(option)),
        option["label"],
    )


def multiple_inputs_html(widget: Mapping) -> str:
    """django/forms/widgets/multiple_input.html: radio buttons or checkboxes, each in a div."""
    widget_id, css_class = widget["attrs"].get("id"), widget["attrs"].get("class")
    parts: list[str] = [
        format_html(
            "<div{}{}>",
            format_html(' id="{}"', widget_id) if widget_id else "",
            format_html(' class="{}"', css_class) if css_class else "",
        )
    ]
    for group, options, _index in widget["optgroups"]:
        if group:
            parts.append(format_html("\n  <div><label>{}</label>", group))
        parts.extend(
            format_html("<div>\n    {}</div>", mark_safe(option_input_html(option)))
            for option in options
        )
        if group:
            parts.append("\n  </div>")
    parts.append("\n</div>")
    return "".join(parts)


def textarea_html(widget: Mapping) -> str:
    """django/forms/widgets/textarea.html."""
    return format_html(
        '<textarea name="{}"{}>\n{}</textarea>',
        widget["name"],
        mark_safe(attributes(widget["attrs"])),
        widget["value"] or "",
    )


WRITERS = {
    **dict.fromkeys(INPUTS, input_html),
    **dict.fromkeys(MULTIPLE_INPUTS, multiple_inputs_html),
    "django/forms/widgets/select.html": select_html,
    "django/forms/widgets/textarea.html": textarea_html,
}


def written(field: forms.BoundField, widget: forms.Widget, only_initial: bool = False) -> str:
    """What BoundField.as_widget() renders, without the widget's templates where it can."""
    write = WRITERS.get(widget.template_name or "")
    if write is None or field.field.localize:
        return field.as_widget(widget, only_initial=only_initial)
    attrs = field.build_widget_attrs({}, widget)
    if field.auto_id and "id" not in widget.attrs:
        attrs["id"] = field.html_initial_id if only_initial else field.auto_id
    name, value = field.html_name, field.value()
    if only_initial:
        name = field.html_initial_name
        if name in field.form.data:
            value = widget.value_from_datadict(field.form.data, field.form.files, name)
    if isinstance(widget, OptionsInPythonSelect):
        return widget.render(name, value, attrs)
    return write(widget.get_context(name, value, attrs)["widget"])


def widget_html(field: forms.BoundField) -> Markup:
    """The field's widget as Django writes it (`str(field)`), with its required, aria and id
    attributes, and the hidden initial value of a field that has one."""
    html = written(field, field.field.widget)
    if field.field.show_hidden_initial:
        html += written(field, field.field.hidden_widget(), only_initial=True)
    return Markup(html)


def field_group(field: forms.BoundField) -> FieldGroup:
    label = ""
    if field.label and not field.is_hidden:
        suffix = (
            field.field.label_suffix
            if field.field.label_suffix is not None
            else field.form.label_suffix
        )
        label = str(field.label)
        if suffix and label[-1] not in gettext(LABEL_PUNCTUATION):
            label += suffix
    return FieldGroup(
        id=field.auto_id,
        label=label,
        help=Markup(field.help_text or ""),
        errors=tuple(str(error) for error in field.errors),
        widget=widget_html(field),
        hidden=field.is_hidden,
        fieldset=field.use_fieldset,
        described_by=(field.aria_describedby or "") if field.use_fieldset else "",
        required=field.field.required and not field.is_hidden,
    )


def field_groups(form: forms.BaseForm) -> tuple[FieldGroup, ...]:
    """Every field of the form, in its order."""
    return tuple(field_group(field) for field in form)


def non_field_errors(form: forms.BaseForm) -> tuple[str, ...]:
    """The errors of the whole form (templates/_fields.jinja lists them above the fields)."""
    return tuple(str(error) for error in form.non_field_errors())


def chosen_in(group: FieldGroup, value) -> FieldGroup:
    """A select's group, written with NO_CHOICE, with the option of this value chosen."""
    return replace(group, widget=Markup(with_option_chosen(str(group.widget), value)))
