"""Resources through the API: the catalogue with the learner's state, and one-click watching."""

import pytest

from progress.models import Watch, WatchEvent
from tests.factories import ArchitectureFactory, ResourceFactory, SeriesFactory, WatchFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalogue(db):
    gpu_mode = SeriesFactory(slug="gpu-mode", name="GPU MODE")
    hopper = ArchitectureFactory(slug="hopper", name="Hopper")
    return {
        "tma": ResourceFactory(
            slug="gpu-mode-12",
            title="TMA on Hopper",
            series=gpu_mode,
            keywords="TMA, Hopper",
            architectures=[hopper],
        ),
        "scan": ResourceFactory(slug="gpu-mode-9", title="Scan", series=gpu_mode),
        "course": ResourceFactory(
            slug="freecodecamp", kind="course", title="CUDA course", duration_minutes=720
        ),
        "mlsys": ResourceFactory(
            slug="mlsys", kind="conference", title="MLSys", duration_minutes=None
        ),
    }


def test_the_list_carries_each_resource_and_the_learners_state(api, learner, catalogue):
    WatchFactory(user=learner, resource=catalogue["scan"], logged_minutes=20)
    response = api.get("/resources")
    assert response.status_code == 200
    states = {item["slug"]: item["state"]["status"] for item in response.json()}
    assert states == {
        "gpu-mode-12": "not_started",
        "gpu-mode-9": "in_progress",
        "freecodecamp": "not_started",
        "mlsys": "not_started",
    }


@pytest.mark.parametrize(
    ("query", "slugs"),
    [
        ({"q": "TMA"}, ["gpu-mode-12"]),
        ({"kind": "conference"}, ["mlsys"]),
        ({"series": "gpu-mode"}, ["gpu-mode-12", "gpu-mode-9"]),
        ({"architecture": "hopper"}, ["gpu-mode-12"]),
    ],
)
def test_the_list_takes_the_catalogues_filters(api, catalogue, query, slugs):
    response = api.get("/resources", **query)
    assert sorted(item["slug"] for item in response.json()) == sorted(slugs)


@pytest.mark.parametrize("count", [3, 30])
def test_the_list_takes_the_same_queries_whatever_the_catalogue_size(
    api, learner, count, django_assert_num_queries
):
    api.get("/me")
    for resource in ResourceFactory.create_batch(count, architectures=[ArchitectureFactory()]):
        WatchFactory(user=learner, resource=resource)
    api.get("/resources")  # builds this process's copy of the curriculum (structure.py)
    # the API token and its learner, the curriculum's revision token, the watches
    with django_assert_num_queries(3):
        response = api.get("/resources")
    assert len(response.json()) == count


def test_the_detail_carries_links_state_coding_and_note(api, learner, catalogue):
    from tests.factories import NoteFactory

    NoteFactory(user=learner, resource=catalogue["scan"], text="Stopped at Blelloch.")
    response = api.get("/resources/gpu-mode-9")
    assert response.status_code == 200
    body = response.json()
    assert body["note"] == "Stopped at Blelloch."
    assert body["coding"] == {"watched_minutes": 0, "coded_minutes": 0, "goal_minutes": 180}
    assert body["url"].endswith("/resources/gpu-mode-9/")


def test_an_unknown_resource_is_a_404(api):
    response = api.get("/resources/no-such-thing")
    assert response.status_code == 404
    assert "no-such-thing" in response.json()["message"]


def test_marking_watched_then_not_watched_leaves_no_minutes(api, learner, catalogue):
    response = api.post("/resources/gpu-mode-9/watched")
    assert response.status_code == 200
    assert response.json()["state"]["is_done"] is True
    response = api.post("/resources/gpu-mode-9/not-watched")
    assert response.json()["state"]["status"] == "not_started"
    assert WatchEvent.objects.for_learner(learner).total_minutes() == 0


def test_a_conference_is_followed_not_watched(api, learner, catalogue):
    response = api.post("/resources/mlsys/watched")
    assert response.status_code == 422
    assert not Watch.objects.exists()
    assert api.post("/resources/mlsys/followed").json()["state"]["is_done"] is True
    assert api.post("/resources/mlsys/not-followed").json()["state"]["is_done"] is False


def test_a_sitting_adds_its_minutes(api, learner, catalogue):
    response = api.post("/resources/freecodecamp/sittings", {"minutes": 90})
    assert response.status_code == 200
    assert response.json()["state"]["watched_minutes"] == 90
    assert Watch.objects.get(user=learner).logged_minutes == 90


@pytest.mark.parametrize("minutes", [0, 1441, "lots"])
def test_a_sitting_outside_1_to_1440_minutes_is_refused(api, catalogue, minutes):
    response = api.post("/resources/freecodecamp/sittings", {"minutes": minutes})
    assert response.status_code == 422
    assert "minutes" in response.json()["fields"]
    assert not Watch.objects.exists()


def test_watching_an_unknown_resource_is_a_404(api):
    assert api.post("/resources/nope/watched").status_code == 404
    assert not Watch.objects.exists()
