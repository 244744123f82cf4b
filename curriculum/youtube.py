"""YouTube addresses: the video id a curator's pasted address names, in whichever form it comes."""

import re
from urllib.parse import parse_qs, urlsplit

VIDEO_ID = re.compile(r"^[A-Za-z0-9_-]{11}$")
YOUTUBE_HOSTS = {"youtube.com", "m.youtube.com", "music.youtube.com", "youtube-nocookie.com"}
SHORT_HOST = "youtu.be"
# Paths whose next segment is the video id: /embed/ID, /shorts/ID, /live/ID, /v/ID.
ID_PATHS = {"embed", "shorts", "live", "v"}


class NotAVideo(ValueError):
    """A YouTube address in a video's form (watch?v=, youtu.be/, embed/…) whose id is not valid."""


def video_id_of(url: str) -> str:
    """The 11-character id of the YouTube video at url; "" for any other address (a channel, a
    playlist, another site). Raises NotAVideo for a video address with a malformed id."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").removeprefix("www.")
    segments = [segment for segment in parts.path.split("/") if segment]
    if host == SHORT_HOST:
        candidate = segments[0] if segments else ""
    elif host in YOUTUBE_HOSTS and segments[:1] == ["watch"]:
        candidate = parse_qs(parts.query).get("v", [""])[0]
    elif host in YOUTUBE_HOSTS and segments[:1] and segments[0] in ID_PATHS:
        candidate = segments[1] if len(segments) > 1 else ""
    else:
        return ""
    if not VIDEO_ID.match(candidate):
        raise NotAVideo(candidate)
    return candidate
