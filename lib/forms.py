"""The project's forms as the pages print them.

The pages print fields as plain template fields (templates/_form.jinja): plain_field() gives a
bound field's label and Django's own widget context as data, and the macros write the markup of
Django's widget templates from it, without rendering a template per field or per option.

The renderer stays each form's (`default_renderer = renderer`): Django's own form and widget
templates in their Jinja2 version (django/forms/jinja2), for whatever still prints a field or
an error list through Django (`{{ field }}`, str(form.errors)), through the engine the pages use.
The admin's forms keep Django's default, whose widget templates (admin/widgets/*.html) exist only
for Django's engine.
"""

from dataclasses import dataclass

from django import forms
from django.forms import BoundField
from django.forms.renderers import Jinja2
from django.utils.translation import gettext

# One instance for the process: the renderer builds its Jinja2 environment once, on first use
# (a form given the class would build one per form).
renderer = Jinja2()


def day_input() -> forms.DateInput:
    """The browser's date picker, with the value in the ISO form it expects."""
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


# The widget templates of Django that print one <input> (django/forms/widgets/input.html), and the
# others the pages print (templates/_form.jinja's macros). A widget of another template (a file
# input, a date split in selects) has no macro yet: plain_field() refuses it rather than print it
# wrong.
INPUT_TEMPLATES = {
    f"django/forms/widgets/{name}.html"
    for name in (
        "input",
        "text",
        "number",
        "email",
        "url",
        "password",
        "hidden",
        "date",
        "datetime",
        "time",
        "checkbox",
        "search",
        "tel",
        "color",
    )
}
WIDGET_KINDS = {
    **dict.fromkeys(INPUT_TEMPLATES, "input"),
    "django/forms/widgets/select.html": "select",
    "django/forms/widgets/textarea.html": "textarea",
    "django/forms/widgets/radio.html": "choices",
    "django/forms/widgets/checkbox_select.html": "choices",
}


# Django's msgid (django/forms/boundfield.py), translated by Django's catalogue: named here so
# that `make messages` does not copy it into the project's.
LABEL_PUNCTUATION = ":?.!"


@dataclass(frozen=True, slots=True)
class PlainField:
    """What templates/_form.jinja prints of a bound field, as data: no HTML is written here.

    label: the field's label with the form's suffix, as BoundField.label_tag() writes it;
    label_for: the id its <label for> names ("" when the widget has no one control to name, as a
        list of radio buttons, whose group a legend names);
    label_tag: whether the label goes in a tag (Django prints the text alone without an id);
    widget: Django's own widget context (Widget.get_context()["widget"]): name, value, attrs
        (with required, aria-invalid, aria-describedby, id), optgroups with each option's value,
        label and attrs (selected, checked, id), the option's template_name;
    kind: which macro prints the widget: "input", "select", "textarea" or "choices";
    initial: a field that shows its initial value hidden (show_hidden_initial, as a model field
        with a callable default), that hidden input's context; else None.
    """

    label: str
    label_for: str
    label_tag: bool
    widget: dict
    kind: str
    initial: dict | None


def plain_field(field: BoundField) -> PlainField:
    """The bound field's label and widget as Django's own rendering would print them
    (BoundField.label_tag() and str(field)), without rendering a template."""
    widget = field.field.widget
    context = widget_context(field, widget)
    kind = WIDGET_KINDS.get(context["template_name"])
    if kind is None:
        raise ValueError(f"No plain template prints {context['template_name']} ({field.name})")
    label = str(field.label or "")
    suffix = (
        field.field.label_suffix
        if field.field.label_suffix is not None
        else field.form.label_suffix
    )
    # As label_tag(): no suffix after a label that ends in punctuation (a translated list).
    if suffix and label and label[-1] not in gettext(LABEL_PUNCTUATION):
        label += str(suffix)
    id_ = widget.attrs.get("id") or field.auto_id
    return PlainField(
        label=label,
        label_for=(widget.id_for_label(id_) or "") if id_ else "",
        label_tag=bool(id_),
        widget=context,
        kind=kind,
        initial=(
            widget_context(field, field.field.hidden_widget(), only_initial=True)
            if field.field.show_hidden_initial
            else None
        ),
    )


def widget_context(field: BoundField, widget: forms.Widget, only_initial=False) -> dict:
    """Django's context for the widget (BoundField.as_widget() without its render)."""
    if field.field.localize:
        widget.is_localized = True
    attrs = field.build_widget_attrs({}, widget)
    if field.auto_id and "id" not in widget.attrs:
        attrs.setdefault("id", field.html_initial_id if only_initial else field.auto_id)
    if only_initial and field.html_initial_name in field.form.data:
        value = widget.value_from_datadict(
            field.form.data, field.form.files, field.html_initial_name
        )
    else:
        value = field.value()
    name = field.html_initial_name if only_initial else field.html_name
    return widget.get_context(name, value, attrs)["widget"]
