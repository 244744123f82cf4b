"""Every secret a learner holds is stored one way: the token models share lib.models.Token."""

from django.apps import apps

from lib.models import Token
from tests.config.test_owners import APPS

# A digest of a file path (editor heartbeats), so that paths are never stored: not a secret.
NOT_SECRETS = {("Heartbeat", "entity_digest")}


def stores_a_digest(model):
    return any(
        ("hash" in field.name or "digest" in field.name)
        and (model.__name__, field.name) not in NOT_SECRETS
        for field in model._meta.concrete_fields
    )


def test_every_model_that_stores_a_digest_is_a_token():
    storing = {
        model
        for model in apps.get_models()
        if model._meta.app_label in APPS and stores_a_digest(model)
    }
    assert {model.__name__ for model in storing if not issubclass(model, Token)} == set()
    assert {model.__name__ for model in storing} == {
        "AccessToken",
        "CalendarFeed",
        "EditorKey",
        "Invitation",
        "ShareLink",
    }
