"""Admin lists study groups with their members and invitations, for curators only."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_groups_page_in_admin_lists_members_and_invitations(client, curator, group):
    client.force_login(curator)
    listing = client.get(reverse("admin:groups_studygroup_changelist"), {"q": "kernel"})
    page = client.get(reverse("admin:groups_studygroup_change", args=[group.pk]))
    html = page.content.decode()
    assert listing.status_code == page.status_code == 200
    assert "Kernel club" in listing.content.decode()
    assert "Ada L." in html and "Grace H." in html
    assert "invitations-0-max_uses" in html
    assert group.invitations.get().token_hash not in html


def test_learners_cannot_open_it(learner_client, group):
    response = learner_client.get(reverse("admin:groups_studygroup_change", args=[group.pk]))
    assert response.status_code == 302
    assert group.memberships.count() == 2
