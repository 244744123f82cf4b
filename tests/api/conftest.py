import pytest

from api.models import AccessToken
from tests.practice.conftest import exercises_dir  # noqa: F401  (shared)
from tests.progress.conftest import seed_path, seed_path_rows  # noqa: F401  (shared)


def bearer(clear):
    return {"Authorization": f"Bearer {clear}"}


@pytest.fixture
def write_token(learner):
    """A read-and-write token of the learner, in clear."""
    _token, clear = AccessToken.objects.create_for(user=learner, name="laptop", scope="write")
    return clear


@pytest.fixture
def read_token(learner):
    """A read-only token of the learner, in clear."""
    _token, clear = AccessToken.objects.create_for(user=learner, name="dashboard", scope="read")
    return clear


@pytest.fixture
def api(client, write_token):
    """The test client calling the API with the learner's read-and-write token."""

    class Api:
        headers = bearer(write_token)

        def get(self, path, **query):
            return client.get(f"/api/v1{path}", query, headers=self.headers)

        def send(self, method, path, body=None):
            return getattr(client, method)(
                f"/api/v1{path}", body, content_type="application/json", headers=self.headers
            )

        def post(self, path, body=None):
            return self.send("post", path, body)

        def patch(self, path, body=None):
            return self.send("patch", path, body)

        def put(self, path, body=None):
            return self.send("put", path, body)

        def delete(self, path):
            return client.delete(f"/api/v1{path}", headers=self.headers)

    return Api()
