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

# The editor's bulk of 25 heartbeats, as wakatime-cli sends it every few minutes: two minutes apart
# in the hour before the run, so each learner's first bulk inserts them and the others (a resent
# bulk) insert nothing and count the day again. Sent with the learner's editor key, not a cookie.
EDITOR_PATH = "/editor/v1/users/current/heartbeats.bulk"
_START = time.time() - 3600
BODIES[EDITOR_PATH] = json.dumps(
    [
        {
            "entity": f"/home/learner/kernels/kernel_{n % 5}.cu",
            "type": "file",
            "category": "coding",
            "time": _START + 120 * n,
            "project": "kernels",
            "branch": "main",
            "language": "CUDA",
            "is_write": n % 3 == 0,
            "lines": 120,
            "lineno": 40 + n,
            "cursorpos": 7,
            "user_agent": "wakatime/v1.102.1 (linux) go1.22.1 vscode/1.95.3 vscode-wakatime/24.6.2",
        }
        for n in range(25)
    ]
)
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
STATUS = {EDITOR_PATH: 201}
