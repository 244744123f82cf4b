"""Values kept in the shared cache for as long as what they were built from stays the same.

Each value is stored with the version tokens of what it was built from: a learner's own rows
(learner(12)), the curriculum (CURRICULUM). It is read back in the same round trip as the
current tokens and served only if they still match. A change bumps its subject's token, which
makes every value built before it stale at once, with nothing to find and delete.

A bump happens twice: at once, so that the same transaction reads its own change, and again
once the transaction commits, so that a value built meanwhile from the rows as they were before
the commit never carries the new token.
"""

import uuid

from django.core.cache import cache
from django.db import transaction

CURRICULUM = "curriculum"


def learner(user_pk):
    """The subject of one learner's own rows: progress bumps it whenever one of them changes."""
    return f"learner:{user_pk}"


def cached(key, subjects, build, timeout, *, keep=lambda value: True):
    """The value at key if built under the subjects' current tokens; otherwise build() it anew.

    A new value is stored only if keep(value) says so. Without a shared cache, always build().
    """
    # The tokens are read before build() reads the database, never after: a value is only ever
    # stored under tokens at least as old as the rows it was built from.
    found = cache.get_many([key, *(_token_key(subject) for subject in subjects)])
    tokens = tuple(found.get(_token_key(subject)) or _new_token(subject) for subject in subjects)
    stored = found.get(key)
    if stored is not None and stored[0] == tokens:
        return stored[1]
    value = build()
    if keep(value):
        cache.set(key, (tokens, value), timeout)
    return value


def bump(subject):
    """Give subject a new token now, and again when the current transaction commits."""
    _renew(subject)
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: _renew(subject))


def _token_key(subject):
    return f"version:{subject}"


def _new_token(subject):
    """The subject's first token; if another process set one first, theirs."""
    cache.add(_token_key(subject), uuid.uuid4().hex, timeout=None)
    return cache.get(_token_key(subject)) or uuid.uuid4().hex


def _renew(subject):
    cache.set(_token_key(subject), uuid.uuid4().hex, timeout=None)
