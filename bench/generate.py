"""Fill the benchmark database: thousands of learners with watching, sittings, coding sessions,
notes and study groups.

Run by bench/run.py after `migrate` and `load_curriculum`; writes the session cookies of a
sample of learners, one "sessionid csrftoken editor-key" line each, for the load generator, and
those of the benchmark's study group (bench.BOARD_SLUG, all of them in the sample) beside them.
"""

import argparse
import base64
import datetime
import os
import random
import secrets
import string
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY  # noqa: E402
from django.contrib.auth.hashers import make_password  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.db import transaction  # noqa: E402
from django.test import override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench import BOARD_MEMBERS, BOARD_PATH, BOARD_SLUG, COOKIE_FILES  # noqa: E402
from curriculum.models import Chapter  # noqa: E402
from curriculum.models import Path as LearningPath  # noqa: E402
from editor.models import EditorKey  # noqa: E402
from groups.models import Membership, StudyGroup  # noqa: E402
from progress.models import CodingSession, Note, Profile, Watch, WatchEvent  # noqa: E402
from tests.factories import PASSWORD, UserFactory  # noqa: E402

BATCH = 5_000


def path_resources():
    """The suggested path's resources in order (the architecture step resolves per learner)."""
    path = LearningPath.objects.suggested()
    return [
        step.resource for stage in path.stages.all() for step in stage.steps.all() if step.resource
    ]


def create_learners(count, rng):
    password = make_password(PASSWORD)
    # The factory sets a password on each user it builds: hash those with a fast hasher, then
    # give every learner the one real hash computed above.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        users = UserFactory.build_batch(count)
    for user in users:
        user.password = password
        user.date_joined = timezone.now() - datetime.timedelta(days=rng.randint(0, 365))
    model = type(users[0])
    model.objects.bulk_create(users, batch_size=BATCH)
    users = list(model.objects.order_by("pk"))
    Profile.objects.bulk_create(
        [Profile(user=user, started_on=user.date_joined.date()) for user in users], batch_size=BATCH
    )
    return users


def watching_of(user, resources, rng, now):
    """A learner who went some way along the path: finished steps, then one in progress."""
    done = rng.randint(0, len(resources))
    watches, events = [], []
    for index, resource in enumerate(resources[: done + 1]):
        duration = resource.duration_minutes or 0
        at = now - datetime.timedelta(days=rng.randint(0, 120), minutes=rng.randint(0, 1440))
        if index < done:
            watches.append(Watch(user=user, resource=resource, logged_minutes=0, finished_at=at))
            events.append(
                WatchEvent(user=user, resource=resource, kind="finished", minutes=duration, at=at)
            )
        elif not resource.is_followed:
            minutes = rng.randint(1, max(1, duration - 1))
            watches.append(Watch(user=user, resource=resource, logged_minutes=minutes))
            events.append(
                WatchEvent(
                    user=user,
                    resource=resource,
                    kind="sitting",
                    minutes=minutes,
                    logged_minutes=minutes,
                    at=at,
                )
            )
    return watches, events


def coding_sessions_of(user, resources, chapters, rng, today, sessions):
    return [
        CodingSession(
            user=user,
            day=today - datetime.timedelta(days=rng.randint(0, 180)),
            minutes=rng.randint(15, 240),
            built=f"Kernel attempt #{number}",
            code_url="https://github.com/example/kernels" if number % 3 == 0 else "",
            resource=rng.choice(resources) if number % 4 else None,
            chapter=rng.choice(chapters) if number % 4 == 0 else None,
            idempotency_key=uuid.UUID(int=rng.getrandbits(128)),
        )
        for number in range(sessions)
    ]


# One study group per this many learners, each of 20 to 50 members (a learner may be in several).
LEARNERS_PER_GROUP = 100
GROUP_SIZES = (20, 50)


def create_groups(users, signed_in, rng):
    """Study groups among the learners, and the benchmark's own group: BOARD_MEMBERS of the
    signed-in learners (all of them when fewer), the first its owner, every other one sharing
    what they coded. Returns the benchmark group's members."""
    board_members = signed_in[:BOARD_MEMBERS]
    groups = [(StudyGroup(name="Benchmark study group", slug=BOARD_SLUG), board_members)]
    for number in range(len(users) // LEARNERS_PER_GROUP):
        size = min(rng.randint(*GROUP_SIZES), len(users))
        name = f"Kernels study group {number + 1}"
        groups.append(
            (StudyGroup(name=name, slug=f"kernels-{number + 1}"), rng.sample(users, size))
        )
    StudyGroup.objects.bulk_create([group for group, _members in groups])
    joined = timezone.now() - datetime.timedelta(days=30)
    memberships = [
        Membership(
            group=group,
            user=user,
            role=Membership.Role.OWNER if index == 0 else Membership.Role.MEMBER,
            display_name=f"Learner {user.pk}",
            shares=Membership.Shares.CODING if index % 2 else Membership.Shares.PROGRESS,
            joined_at=joined + datetime.timedelta(minutes=index),
        )
        for group, members in groups
        for index, user in enumerate(members)
    ]
    Membership.objects.bulk_create(memberships, batch_size=BATCH)
    return board_members


def write_sessions(users, cookie_file, board_members=()):
    """The cookie lines of these learners, and those of the benchmark group's members in their
    own file (bench.COOKIE_FILES) beside it."""
    alphabet = string.ascii_letters + string.digits
    lines = []
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "accounts.backends.CaseInsensitiveModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        csrf = "".join(secrets.choice(alphabet) for _ in range(32))
        # The Authorization of the learner's editor key, as WakaTime's clients send it.
        editor = base64.b64encode(EditorKey.objects.issue(user=user).encode()).decode()
        lines.append(f"{session.session_key} {csrf} {editor}\n")
    Path(cookie_file).write_text("".join(lines))
    by_user = dict(zip((user.pk for user in users), lines, strict=True))
    board_lines = "".join(by_user[user.pk] for user in board_members)
    (Path(cookie_file).parent / COOKIE_FILES[BOARD_PATH]).write_text(board_lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--learners", type=int, default=5_000)
    parser.add_argument("--max-coding-sessions", type=int, default=200)
    parser.add_argument("--signed-in", type=int, default=500)
    parser.add_argument("--cookies", required=True)
    parser.add_argument("--seed", type=int, default=20261202)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    now, today = timezone.now(), timezone.localdate()

    resources = path_resources()
    chapters = list(Chapter.objects.all())
    with transaction.atomic():
        users = create_learners(args.learners, rng)
    counts = {"watch": 0, "event": 0, "coding_session": 0, "note": 0}
    for start in range(0, len(users), 250):
        watches, events, coding_sessions, notes = [], [], [], []
        for user in users[start : start + 250]:
            user_watches, user_events = watching_of(user, resources, rng, now)
            watches += user_watches
            events += user_events
            coding_sessions += coding_sessions_of(
                user, resources, chapters, rng, today, rng.randint(0, args.max_coding_sessions)
            )
            notes += [
                Note(user=user, resource=watch.resource, text="Where I stopped: shared memory.")
                for watch in user_watches[: rng.randint(0, 3)]
            ]
        with transaction.atomic():
            Watch.objects.bulk_create(watches, batch_size=BATCH)
            WatchEvent.objects.bulk_create(events, batch_size=BATCH)
            CodingSession.objects.bulk_create(coding_sessions, batch_size=BATCH)
            Note.objects.bulk_create(notes, batch_size=BATCH)
        for name, rows in zip(counts, (watches, events, coding_sessions, notes), strict=True):
            counts[name] += len(rows)
    signed_in = rng.sample(users, min(args.signed_in, len(users)))
    with transaction.atomic():
        board_members = create_groups(users, signed_in, rng)
    write_sessions(signed_in, args.cookies, board_members)
    print(
        f"Generated {len(users)} learners, {counts['watch']} watch states, {counts['event']} "
        f"watch events, {counts['coding_session']} coding sessions, {counts['note']} notes, "
        f"{StudyGroup.objects.count()} study groups."
    )


if __name__ == "__main__":
    main()
