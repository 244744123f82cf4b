"""What deleting an account removes beyond the rows that cascade from the user.

Sessions, the sign-in log, admin's history and the task queue name a learner without a foreign
key: sessions hold the user's id inside their encoded data, django-axes' tables hold what was
typed in the username box (the username, or the e-mail address a learner often types there),
admin's history names an account a curator changed by its username, and the queue holds the ids
of their digests and nudges.
"""

from importlib import import_module

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth import SESSION_KEY
from django.contrib.contenttypes.models import ContentType
from django.db.models import Q

from accounts.throttling import forget_reset_mails
from groups.actions import leave_every_group
from reminders.tasks import forget_tasks_of


def forget_learner(user):
    """End the learner's sessions everywhere, forget their counts and sign-in log; the user row is the caller's."""
    end_sessions(user)
    forget_reset_mails(user)
    leave_every_group(user)
    forget_tasks_of(user)
    forget_signin_log(user)
    anonymise_admin_history(user)


def forget_signin_log(user):
    """Delete the sign-in log's rows typed with the learner's username or e-mail address, any case."""
    typed = Q(username__iexact=user.get_username())
    if user.email:
        typed |= Q(username__iexact=user.email)
    for model in (AccessAttempt, AccessLog, AccessFailureLog):
        model.objects.filter(typed).delete()


def anonymise_admin_history(user):
    """Admin's history of changes to the account keeps what was done, not whose account it was.

    The rows of a curator's own actions go with the curator's account (a foreign key); these are
    about the account, and name it only in object_repr (change messages list field names).
    """
    about_the_account = LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(user), object_id=str(user.pk)
    )
    about_the_account.update(object_repr=f"deleted account #{user.pk}")


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
