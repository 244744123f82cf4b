"""How django-axes names the account a failed sign-in was for."""

from django.contrib.auth import get_user_model

USERNAME_MAX_LENGTH = get_user_model()._meta.get_field("username").max_length


def username_for_throttling(request, credentials):
    """The username typed, cut to the longest a user can have.

    Axes stores it in a 255-character column: a longer one (a 10,000-character username posted
    to the admin's sign-in page) would otherwise fail to save on PostgreSQL and answer 500.
    """
    source = credentials if credentials else getattr(request, "data", request.POST)
    username = source.get("username")
    return username[:USERNAME_MAX_LENGTH] if username else username
