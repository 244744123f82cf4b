"""Every admin page, whatever app registered it, is for staff only."""

import pytest
from django.contrib import admin
from django.urls import reverse

from curriculum.models import Resource, Series
from tests.factories import ResourceFactory

pytestmark = pytest.mark.django_db


def admin_page_urls():
    """Changelist, add, change and delete pages of every registered model (object 1: the
    refusal comes before the object is looked up)."""
    urls = [reverse("admin:index")]
    for model in admin.site._registry:
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        urls += [
            reverse(f"{name}_changelist"),
            reverse(f"{name}_add"),
            reverse(f"{name}_change", args=[1]),
            reverse(f"{name}_delete", args=[1]),
        ]
    return urls


def test_the_registry_covers_every_app_with_models_in_admin():
    """The list below is built from the registry, so a newly registered model is checked too."""
    labels = {model._meta.app_label for model in admin.site._registry}
    assert {"auth", "axes", "curriculum"} <= labels


@pytest.mark.parametrize("url", admin_page_urls())
def test_anonymous_visitors_are_sent_to_the_admin_sign_in(client, url):
    """Signed out: a redirect to the admin's sign-in page, never the page."""
    response = client.get(url)
    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


@pytest.mark.parametrize("url", admin_page_urls())
def test_learners_who_are_not_staff_are_sent_to_the_admin_sign_in(learner_client, url):
    """Signed in without staff status: the same redirect, no page."""
    response = learner_client.get(url)
    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


def test_a_learners_post_to_the_admin_changes_nothing(learner_client):
    """Posting an admin delete or add form as a learner deletes and adds nothing."""
    resource = ResourceFactory()
    delete = learner_client.post(
        reverse("admin:curriculum_resource_delete", args=[resource.pk]), {"post": "yes"}
    )
    add = learner_client.post(
        reverse("admin:curriculum_series_add"), {"name": "Mine", "slug": "mine"}
    )
    assert (delete.status_code, add.status_code) == (302, 302)
    assert Resource.objects.filter(pk=resource.pk).exists()
    assert not Series.objects.filter(slug="mine").exists()
