"""Reading the Jinja2 pages' view models in tests (the response's context holds "page")."""


def field_errors(response, name, prefix="coding"):
    """The errors of a form field of the page (lib.form_fields.FieldGroup), hidden ones included."""
    groups = {group.id: group for group in response.context["page"].fields}
    return list(groups[f"{prefix}_{name}"].errors)
