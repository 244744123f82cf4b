from django import template
from django.utils.translation import gettext

register = template.Library()


@register.filter
def duration(minutes):
    """Minutes as a readable length: "45 min", "2 h", "12 h 30 min"."""
    if minutes is None or minutes == "":
        return ""
    hours, rest = divmod(int(minutes), 60)
    if not hours:
        return gettext("%(minutes)s min") % {"minutes": rest}
    if not rest:
        return gettext("%(hours)s h") % {"hours": hours}
    return gettext("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": rest}
