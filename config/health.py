"""Probes for load balancers and process managers: no session, no template."""

import time

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.redis_cache import UNAVAILABLE

# A dependency that answers more slowly than this is reported as slow, and the server as not ready.
SLOW_MS = 500


@never_cache
@require_GET
def healthz(request):
    """Liveness: the process answers; touches nothing else."""
    return HttpResponse("ok", content_type="text/plain")


def database_answers():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def redis_answers():
    cache.ping()


def dependencies():
    """What this server needs to answer: the database always, Redis when REDIS_URL is set."""
    checks = [("database", database_answers, DatabaseError)]
    if settings.REDIS_URL:
        checks.append(("redis", redis_answers, UNAVAILABLE))
    return checks


def check(probe, errors):
    """("ok" | "slow" | "down", milliseconds) for one dependency."""
    started = time.perf_counter()
    try:
        probe()
    except errors:
        return "down", (time.perf_counter() - started) * 1000
    elapsed = (time.perf_counter() - started) * 1000
    return ("slow" if elapsed > SLOW_MS else "ok"), elapsed


@never_cache
@require_GET
def readyz(request):
    """Readiness: each dependency on its own line; 503 if one is down or slow."""
    lines = []
    ready = True
    for name, probe, errors in dependencies():
        status, elapsed = check(probe, errors)
        ready = ready and status == "ok"
        lines.append(f"{name}: {status} ({elapsed:.0f} ms)")
    body = "\n".join(["ok" if ready else "not ready", *lines]) + "\n"
    return HttpResponse(body, status=200 if ready else 503, content_type="text/plain")
