"""The curriculum as the learners' pages read it, kept in the shared cache until it changes.

Every learner's path is built on the same stages, steps, resources and guide pairings: they are
read once per version of the curriculum, which any save or delete of a curriculum row bumps
(admin, load_curriculum and the shell alike).
"""

from django.db.models.signals import m2m_changed, post_delete, post_save

from config import cache_versions

TIMEOUT = 24 * 60 * 60


def cached(name, build):
    """build()'s value for the current curriculum, built once per version."""
    return cache_versions.cached(f"curriculum:{name}", [cache_versions.CURRICULUM], build, TIMEOUT)


def curriculum_changed(sender, **kwargs):
    if sender._meta.app_label == "curriculum":
        cache_versions.bump(cache_versions.CURRICULUM)


def connect_signals():
    for signal in (post_save, post_delete, m2m_changed):
        signal.connect(curriculum_changed, dispatch_uid=f"curriculum_changed_{id(signal)}")
