import pytest

from curriculum.models import Resource
from progress import actions
from tests.browser.conftest import serious_accessibility_violations
from tests.conftest import insert_seed
from tests.factories import CodingSessionFactory, NoteFactory, UserFactory

COURSE = "freecodecamp-cuda-course"

# (address, signed in): the main pages, each as the person who normally opens it.
PAGES = [
    ("/", False),
    ("/accounts/login/", False),
    ("/accounts/signup/", False),
    ("/accounts/password_reset/", False),
    ("/", True),
    ("/path/", True),
    ("/resources/", True),
    (f"/resources/{COURSE}/", True),
    ("/guide/", True),
    ("/coding/", True),
    ("/settings/", True),
    ("/stats/", True),
    ("/history/", True),
]


def a_learner_halfway(seed_rows):
    """The seed's curriculum and a learner who watched, logged a sitting, coded and took a note."""
    insert_seed(seed_rows)
    learner = UserFactory(username="hamilton")
    talk = Resource.objects.get(slug="how-gpu-computing-works")
    course = Resource.objects.get(slug=COURSE)
    actions.mark_watched(user=learner, resource=talk)
    actions.log_sitting(user=learner, resource=course, minutes=90)
    CodingSessionFactory(user=learner, resource=talk, minutes=120)
    NoteFactory(user=learner, resource=course, text="Stopped at 1:30:00")
    return learner


@pytest.mark.parametrize(("address", "signed_in"), PAGES)
def test_main_pages_have_no_serious_accessibility_violation(
    page, sign_in, transactional_db, seed_rows, address, signed_in
):
    """axe-core finds nothing serious or critical on the main pages, with real data on them."""
    learner = a_learner_halfway(seed_rows)
    if signed_in:
        sign_in(learner)
    page.goto(address)
    assert page.url.endswith(address), "the page answered where it was asked"
    assert serious_accessibility_violations(page) == []
