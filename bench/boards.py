"""Boards of chosen sizes cut from the benchmark's study group, for `bench/split.py --board-sizes`:
what a board costs by its number of members."""

import argparse
from contextlib import contextmanager

from django.contrib.sessions.backends.db import SessionStore

from bench import BOARD_MEMBERS, BOARD_SLUG
from groups.models import Membership, StudyGroup


def board_path(size: int) -> str:
    return f"/groups/{BOARD_SLUG}-{size}/"


@contextmanager
def boards_of_sizes(sizes):
    """A study group per size holding the first members of the benchmark's group (its owner first,
    then as they joined, as a board lists them), deleted when the block ends. Yields each board's
    path with its members' user ids."""
    members = list(
        Membership.objects.filter(group__slug=BOARD_SLUG).order_by("-role", "joined_at", "id")
    )
    groups = StudyGroup.objects.bulk_create(
        [StudyGroup(name=f"Board of {size}", slug=board_path(size).split("/")[2]) for size in sizes]
    )
    try:
        Membership.objects.bulk_create(
            [
                Membership(
                    group=group,
                    user_id=member.user_id,
                    role=member.role,
                    display_name=member.display_name,
                    shares=member.shares,
                    joined_at=member.joined_at,
                )
                for group, size in zip(groups, sizes, strict=True)
                for member in members[:size]
            ]
        )
        yield {board_path(size): {member.user_id for member in members[:size]} for size in sizes}
    finally:
        StudyGroup.objects.filter(pk__in=[group.pk for group in groups]).delete()


def user_of(cookie_line: str) -> int | None:
    """The learner a cookie line is signed in as."""
    user = SessionStore(session_key=cookie_line.split()[0]).load().get("_auth_user_id")
    return int(user) if user is not None else None


def board_sizes(text: str) -> list[int]:
    """--board-sizes: numbers of members the benchmark's group can give, 2,10,50."""
    try:
        sizes = [int(size) for size in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or not all(1 <= size <= BOARD_MEMBERS for size in sizes):
        raise argparse.ArgumentTypeError(
            f"{text!r}: give numbers of members from 1 to {BOARD_MEMBERS}, such as 2,10,50"
        )
    return sizes
