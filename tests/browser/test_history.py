"""A learner who already knows a lecture skips it and sees next up move past it, without a page
load; then opens their history and continues the video they began where its player stopped."""

import re

from playwright.sync_api import expect

from curriculum.models import Path, Resource, Step
from progress import actions
from progress.models import Watch
from tests.browser.conftest import serious_accessibility_violations
from tests.conftest import insert_seed
from tests.factories import CodingSessionFactory, UserFactory


def test_skip_a_step_then_continue_watching_from_the_history(
    page, transactional_db, seed_rows, sign_in
):
    insert_seed(seed_rows)
    page.set_default_timeout(15_000)
    learner = UserFactory(username="hopper")
    path = Path.objects.suggested()
    steps = Step.objects.filter(stage__path=path, resource__isnull=False).order_by(
        "stage__order", "order"
    )
    first, second, third = (step.resource for step in steps[:3])
    assert len({first.pk, second.pk, third.pk}) == 3
    actions.mark_watched(user=learner, resource=first)
    CodingSessionFactory(user=learner, resource=first, minutes=3 * (first.duration_minutes or 60))
    sign_in(learner)

    # Next up is the second step; "I already know this" skips it, and next up moves on.
    card = page.locator(".next-up")
    expect(card.locator(".next-up__title")).to_contain_text(second.title)
    card.get_by_role("button", name=f"Je connais déjà : {second.title}").click()
    expect(card.locator(".next-up__title")).to_contain_text(third.title)
    expect(page.locator("#path-bar")).to_contain_text("regardées : 1, passées : 1")
    watch = Watch.objects.get(user=learner, resource=second)
    assert watch.is_skipped and not watch.is_finished

    # A video begun: the history lists it at the top, and its link resumes the player.
    video = Resource.objects.filter(video_id__gt="").exclude(pk__in=[first.pk, second.pk])[0]
    actions.log_sitting(user=learner, resource=video, minutes=12)
    Watch.objects.filter(user=learner, resource=video).update(resume_seconds=725)
    page.get_by_role("link", name="Historique").first.click()
    expect(page.get_by_role("heading", name="Historique", level=1)).to_be_visible()
    block = page.locator(".continue")
    expect(block).to_contain_text("Continuer à regarder")
    expect(block).to_contain_text("reprend à 12 min 05")
    day = page.locator(".history-day").first
    expect(day).to_contain_text("Passée : déjà connue")
    expect(day).to_contain_text(second.title)
    assert serious_accessibility_violations(page) == []
    block.get_by_role("link", name=str(video)).click()
    expect(page).to_have_url(re.compile(rf"/resources/{video.slug}/\?t=720#player$"))
    expect(page.locator("#player")).to_be_visible()
