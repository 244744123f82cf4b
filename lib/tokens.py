"""The secrets a learner holds in an address or a header: calendar feeds, share and invitation
links, API tokens, editor keys. The database stores only their digest."""

import hashlib
import secrets


def new_token() -> str:
    """A single-purpose, unguessable token (256 random bits)."""
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """What is stored of a token: the database never holds one that works.

    Rows are looked up by this digest, so comparing what a visitor sent with what is stored
    leaks nothing useful by its timing: one cannot steer a SHA-256 digest byte by byte.
    """
    return hashlib.sha256(token.encode()).hexdigest()
