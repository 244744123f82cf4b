from django import template

from reminders.views import section_context

register = template.Library()


@register.inclusion_tag("reminders/_settings_section.html", takes_context=True)
def reminders_settings(context):
    """The settings page's section on the calendar feed and the digest, in one query."""
    return {**section_context(context["request"]), "csrf_token": context.get("csrf_token")}
