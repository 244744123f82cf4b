"""What a learner pastes into ~/.wakatime.cfg so that their editor sends its time to Parcours."""

from django.urls import reverse

BULK_PATH = "/users/current/heartbeats.bulk"


def api_url(request) -> str:
    """The absolute WakaTime-compatible base: wakatime-cli appends /users/current/… to it."""
    bulk = request.build_absolute_uri(reverse("editor:wakatime:heartbeats_bulk"))
    return bulk.removesuffix(BULK_PATH)


def legacy_api_url(request) -> str:
    """The full heartbeats URL, which the legacy `wakatime` 13.x client posts to as it is
    (wakatime-cli strips that path, so it works for both)."""
    return api_url(request) + BULK_PATH


def wakatime_cfg(url: str, key: str) -> str:
    """The [settings] block of ~/.wakatime.cfg, exactly."""
    return f"[settings]\napi_url = {url}\napi_key = {key}\n"
