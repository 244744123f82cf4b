from django import template
from django.contrib.auth import get_user_model
from django.urls import reverse

from reminders.forms import DigestForm

register = template.Library()


@register.inclusion_tag("reminders/_settings_section.html", takes_context=True)
def reminders_settings(context):
    """The settings page's section on the calendar feed and the digest, in one query."""
    request = context["request"]
    state = (
        get_user_model()
        .objects.filter(pk=request.user.pk)
        .values("calendar_feed__token", "digest_subscription__weekday")
        .first()
    ) or {}
    token = state.get("calendar_feed__token")
    feed_url = request.build_absolute_uri(reverse("reminders:feed", args=[token])) if token else ""
    weekday = state.get("digest_subscription__weekday")
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "feed_url": feed_url,
        "webcal_url": feed_url.replace("https://", "webcal://", 1).replace(
            "http://", "webcal://", 1
        ),
        "digest_form": DigestForm(initial={"weekday": "" if weekday is None else weekday}),
    }
