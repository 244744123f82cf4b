from django import template
from django.utils.translation import gettext

register = template.Library()


@register.filter
def duration(minutes):
    """Minutes as a learner reads them: "45 min", "1 h", "1 h 30", "12 h"; empty when unknown.

    The one way Parcours writes a length of time, on every page and in every sentence.
    """
    if minutes is None or minutes == "":
        return ""
    hours, rest = divmod(max(int(minutes), 0), 60)
    if not hours:
        return gettext("%(minutes)s min") % {"minutes": rest}
    if not rest:
        return gettext("%(hours)s h") % {"hours": hours}
    return gettext("%(hours)s h %(minutes)02d") % {"hours": hours, "minutes": rest}
