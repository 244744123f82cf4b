from django import template
from django.utils.translation import gettext

register = template.Library()

# Between a number and its unit, so that "1 h 30" never breaks across two lines.
NBSP = "\N{NO-BREAK SPACE}"


@register.filter
def duration(minutes):
    """Minutes as a learner reads them: "45 min", "1 h", "1 h 30", "12 h"; empty when unknown.

    The one way Parcours writes a length of time, on every page and in every sentence; its
    spaces are non-breaking, whatever the translation says.
    """
    if minutes is None or minutes == "":
        return ""
    hours, rest = divmod(max(int(minutes), 0), 60)
    if not hours:
        text = gettext("%(minutes)s min") % {"minutes": rest}
    elif not rest:
        text = gettext("%(hours)s h") % {"hours": hours}
    else:
        text = gettext("%(hours)s h %(minutes)02d") % {"hours": hours, "minutes": rest}
    return text.replace(" ", NBSP)
