"""Reading the Jinja2 pages' view models in tests (the response's context holds "page")."""


def field_errors(response, name):
    """The errors of a field of the page's form, hidden ones included."""
    return list(response.context["page"].form[name].errors)
