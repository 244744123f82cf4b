"""Rules on the days a learner enters, set on the model fields so every form applies them."""

from datetime import date

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

FIRST_DAY = date(2000, 1, 1)


def validate_learner_day(day):
    """Refuse a day after today in the site's time zone, or before FIRST_DAY."""
    if day > timezone.localdate():
        raise ValidationError(_("The day cannot be in the future."), code="future")
    if day < FIRST_DAY:
        raise ValidationError(_("The day cannot be before 2000."), code="before_first_day")
