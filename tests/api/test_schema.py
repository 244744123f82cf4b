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


def operations(client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    return {
        (method.upper(), path): operation
        for path, methods in paths.items()
        for method, operation in methods.items()
    }


def test_generated_clients_get_names_that_read_well(client):
    """Operation ids are the views' names (list_resources), not api_views_resource_list."""
    ids = {operation["operationId"] for operation in operations(client).values()}
    assert {"list_resources", "get_resource", "log_sitting", "create_session", "get_note"} <= ids
    assert not [name for name in ids if name.startswith("api_")]


def body_properties(client, name):
    return client.get("/api/v1/openapi.json").json()["components"]["schemas"][name]["properties"]


def test_the_schema_states_the_limits_of_minutes_and_texts(client):
    minutes = {"type": "integer", "minimum": 1, "maximum": 1440}
    assert body_properties(client, "SittingIn")["minutes"].items() >= minutes.items()
    session = body_properties(client, "SessionIn")
    assert session["minutes"].items() >= minutes.items()
    assert (session["built"]["minLength"], session["built"]["maxLength"]) == (1, 300)
    assert session["code_url"]["maxLength"] == 500
    patch = body_properties(client, "SessionPatch")
    assert patch["minutes"]["anyOf"][0].items() >= minutes.items()
    assert body_properties(client, "NoteIn")["text"]["maxLength"] == 10_000


def test_every_error_an_operation_can_answer_is_documented(client):
    for (method, path), operation in operations(client).items():
        statuses = set(operation["responses"])
        assert {"401", "429"} <= statuses, (method, path)
        assert ("403" in statuses) == (method != "GET"), (method, path)
        takes_a_body = "requestBody" in operation
        assert ("400" in statuses) == takes_a_body, (method, path)
        takes_input = takes_a_body or bool(operation.get("parameters"))
        assert ("422" in statuses) == takes_input, (method, path)
        assert ("404" in statuses) == ("{" in path), (method, path)


def test_a_new_session_links_to_the_operations_on_it(client):
    """Generated clients and Schemathesis's stateful phase follow the id a new session gets."""
    created = operations(client)[("POST", "/api/v1/sessions")]["responses"]["201"]
    assert set(created["links"]) == {"get_session", "update_session", "delete_session"}
    assert created["links"]["get_session"]["parameters"] == {"session_id": "$response.body#/id"}
