import pytest
from django.core.management import call_command


@pytest.fixture
def seed(db):
    """The whole seed chapter, loaded as make run loads it."""
    call_command("load_curriculum", stdout=__import__("io").StringIO())
