"""What deleting an account removes beyond the rows that cascade from the user.

Sessions, the sign-in log and the task queue name a learner without a foreign key: sessions hold
the user's id inside their encoded data, django-axes' tables hold the username as typed, and the
queue holds the ids of their digests and nudges.
"""

from importlib import import_module

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth import SESSION_KEY

from accounts.throttling import forget_reset_mails
from groups.actions import leave_every_group
from reminders.tasks import forget_tasks_of


def forget_learner(user):
    """End the learner's sessions everywhere, forget their counts and sign-in log; the user row is the caller's."""
    end_sessions(user)
    forget_reset_mails(user)
    leave_every_group(user)
    forget_tasks_of(user)
    for model in (AccessAttempt, AccessLog, AccessFailureLog):
        model.objects.filter(username__iexact=user.get_username()).delete()


def session_keys_of(user):
    """Keys of every stored session signed in as user, expired or not.

    Each session is decoded once: an account is deleted rarely, and reading the sessions at that
    moment cannot miss one, where an index of keys kept at sign-in would have to follow every
    key rotation (sign-in, password change) to stay true.
    """
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if not hasattr(store, "get_model_class"):
        return []  # sessions kept in cookies: nothing stored on our side
    user_id, decoder = str(user.pk), store()
    sessions = store.get_model_class().objects.only("session_key", "session_data")
    return [
        session.session_key
        for session in sessions.iterator()
        if str(decoder.decode(session.session_data).get(SESSION_KEY)) == user_id
    ]


def end_sessions(user):
    """Delete the learner's sessions from the database and from the cache that fronts it."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in session_keys_of(user):
        store(session_key=key).delete()
