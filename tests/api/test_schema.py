"""The OpenAPI schema is valid, and the docs page works offline under the site's CSP."""

import re

import pytest
from openapi_spec_validator import validate

pytestmark = pytest.mark.django_db


def test_the_openapi_schema_is_valid(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    schema = response.json()
    validate(schema)
    assert "/api/v1/sessions" in schema["paths"]
    assert schema["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"


def test_every_endpoint_is_in_the_schema(client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert set(paths) >= {
        "/api/v1/me",
        "/api/v1/summary",
        "/api/v1/export",
        "/api/v1/resources",
        "/api/v1/resources/{slug}",
        "/api/v1/resources/{slug}/watched",
        "/api/v1/resources/{slug}/not-watched",
        "/api/v1/resources/{slug}/followed",
        "/api/v1/resources/{slug}/not-followed",
        "/api/v1/resources/{slug}/sittings",
        "/api/v1/resources/{slug}/note",
        "/api/v1/sessions",
        "/api/v1/sessions/{session_id}",
    }


def test_the_docs_page_loads_only_the_sites_own_files(client):
    """No CDN and no inline script: the page works offline and under script-src 'self'."""
    response = client.get("/api/v1/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html
    assert not re.search(r"""(src|href)=["']https?://""", html)
    assert not re.search(r"<script(?![^>]*(src=|application/json))", html)
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_docs_files_are_static_files_of_the_site():
    """collectstatic gathers them with the site's own, for whitenoise to serve."""
    from django.contrib.staticfiles import finders

    for name in ("swagger-ui-bundle.js", "swagger-ui-init.js", "swagger-ui.css"):
        assert finders.find(f"ninja/{name}")
