"""The benchmark: `make bench` runs bench/run.py; its settings and URLconf serve the site plus a floor."""

import json
import time

# Where bench/urls.py serves the floor view, and only there: the site has no such page.
FLOOR_PATH = "/bench/floor/"

# A request body for the targets that take one: the player's beat, the same for every learner (the
# first one each learner sends starts their viewing session; the others count nothing twice).
VIEWING_PATH = "/resources/gpu-mode-8/viewing/"
BODIES = {
    VIEWING_PATH: (
        '{"viewing": "6f1c1d52-2a55-4c64-9a39-5a7c7d1f0b11", "duration": 3600, "ranges": [[0, 30]]}'
    ),
}

# The editor's heartbeats, sent with each learner's editor key, not a cookie: a bulk of 25, as
# wakatime-cli sends its offline queue, and one heartbeat, as the plugins send while online. Each
# request carries new heartbeats: load.lua writes each @TIME@ as the learner's next minute (from six
# hours before the run), and @RUN@ as the run's start, so that no run resends another's.
EDITOR_PATH = "/editor/v1/users/current/heartbeats.bulk"
EDITOR_ONE_PATH = "/editor/v1/users/current/heartbeats"
EDITOR_PATHS = (EDITOR_PATH, EDITOR_ONE_PATH)


def _heartbeat(n):
    """A heartbeat as wakatime-cli sends it, its time and run written by load.lua."""
    beat = json.dumps(
        {
            "entity": f"/home/learner/kernels/@RUN@/kernel_{n % 5}.cu",
            "type": "file",
            "category": "coding",
            "time": "@TIME@",
            "project": "kernels",
            "branch": "main",
            "language": "CUDA",
            "is_write": n % 3 == 0,
            "lines": 120,
            "lineno": 40 + n,
            "cursorpos": 7,
            "user_agent": "wakatime/v1.102.1 (linux) go1.22.1 vscode/1.95.3 vscode-wakatime/24.6.2",
        }
    )
    return beat.replace('"@TIME@"', "@TIME@")


BODIES[EDITOR_PATH] = "[" + ", ".join(_heartbeat(n) for n in range(25)) + "]"
BODIES[EDITOR_ONE_PATH] = _heartbeat(0)


def concrete(body: str, start: float | None = None) -> str:
    """A body with its @TIME@ (each the next minute from start, an hour ago by default) and
    @RUN@ written, as load.lua writes them: what a single request outside wrk sends."""
    start = time.time() - 3600 if start is None else start
    parts = body.split("@TIME@")
    written = parts[0] + "".join(f"{start + 60 * n:.0f}{part}" for n, part in enumerate(parts[1:]))
    return written.replace("@RUN@", f"{start:.0f}")


# The group board of the benchmark's study group: bench/generate.py makes it, its members all
# signed-in learners. Any other learner gets a 404 there (a group is private), so its requests are
# sent as its members only, whose cookie lines are in their own file.
BOARD_SLUG = "bench-board"
BOARD_PATH = f"/groups/{BOARD_SLUG}/"
BOARD_MEMBERS = 50  # the most a group may have (groups.models.MAX_MEMBERS): the largest board
COOKIE_FILES = {BOARD_PATH: "board-cookies.txt"}
DEFAULT_COOKIE_FILE = "cookies.txt"


def cookie_file(results, path):
    """The cookie file of the learners a target's requests are sent as."""
    return results / COOKIE_FILES.get(path, DEFAULT_COOKIE_FILE)


# What each target answers when all is well.
STATUS = {EDITOR_PATH: 201, EDITOR_ONE_PATH: 201}
