"""Ranges of seconds of a video, as [start, end] pairs: merged, they count each second once."""

Ranges = list[list[int]]


def merged(*groups: Ranges) -> Ranges:
    """The union of the groups of ranges, as sorted pairs that neither overlap nor touch."""
    pairs = sorted((start, end) for group in groups for start, end in group if end > start)
    union: Ranges = []
    for start, end in pairs:
        if union and start <= union[-1][1]:
            union[-1][1] = max(union[-1][1], end)
        else:
            union.append([start, end])
    return union


def seconds(ranges: Ranges) -> int:
    """How many seconds merged ranges cover."""
    return sum(end - start for start, end in ranges)


def seconds_beyond(ranges: Ranges, others: Ranges) -> int:
    """How many seconds of ranges the others do not already cover."""
    return seconds(merged(ranges, others)) - seconds(merged(others))
