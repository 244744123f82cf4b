"""Sign-in by username in any case: usernames are unique whatever their case (accounts/forms.py)."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

User = get_user_model()


class CaseInsensitiveModelBackend(ModelBackend):
    """Django's ModelBackend, finding the account by its username typed in any case."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = find_user(username)
        if user is None:
            # Hash anyway, so an unknown username takes as long to refuse as a wrong password.
            User().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None


def find_user(username):
    """The account with this username in any case; the exact one if old data holds several."""
    matches = list(User._default_manager.filter(username__iexact=username)[:2])
    if len(matches) == 1:
        return matches[0]
    return next((user for user in matches if user.get_username() == username), None)
