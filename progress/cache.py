"""Every change to a learner's own rows bumps their version, so their cached pages are rebuilt.

Receivers rather than calls in each view: admin, account deletion's cascade and loaddata change
these rows too, and all of them send the model signals.
"""

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save

from config import cache_versions
from progress.models import Note, Practice, Profile, Watch, WatchEvent


def learner_rows_changed(sender, instance, **kwargs):
    cache_versions.bump(cache_versions.learner(instance.user_id))


def account_changed(sender, instance, **kwargs):
    """The username and staff flag show on every page."""
    cache_versions.bump(cache_versions.learner(instance.pk))


def connect_signals():
    for signal in (post_save, post_delete):
        for model in (Profile, Watch, WatchEvent, Practice, Note):
            signal.connect(learner_rows_changed, sender=model)
        signal.connect(account_changed, sender=get_user_model())
