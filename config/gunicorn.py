"""gunicorn's access log without the secrets some requests carry (the deploy kit's --logger-class).

- The user (%(u)s) is the decoded Basic credential: for the editor clients, the learner's whole
  editor key. It is never written.
- Secret links carry their token in the path: a share page, a calendar feed, an invitation link,
  an unsubscribe link, a password-reset link; `?api_key=` carries a key in the query. The request
  line, path, query and referrer are written with those parts replaced by `[token]`.
- Header atoms (`%({authorization}i)s`, cookies), and the same headers as environ atoms
  (`%({http_authorization}e)s`), are written as `-`; the other environ atoms are masked.
"""

import re

from gunicorn.glogging import Logger

MASK = "[token]"
# A secret link's path, at the start of a path, of a request line's target or of a full URL.
START = r"(?P<before>(?:^|\s|://[^/\s]*)"
SECRET_PATHS = [
    re.compile(
        START + r"/(?:share|calendar|groups/join|digest/unsubscribe|nudge/unsubscribe)/)[^/?#\s.]+"
    ),
    re.compile(START + r"/accounts/reset/)[^/?#\s]+/[^/?#\s]+"),  # the account's id, the token
]
SECRET_QUERY = re.compile(r"((?:^|[?&])(?:api_key|token|key)=)[^&#\s]*", re.IGNORECASE)
SECRET_HEADERS = ("{authorization}i", "{cookie}i", "{proxy-authorization}i", "{x-api-key}i")
# The same headers as WSGI environ atoms (`%({http_authorization}e)s`), which a format may name too.
SECRET_ENVIRON = tuple("{http_" + name[1:-2].replace("-", "_") + "}e" for name in SECRET_HEADERS)


def masked(text: str) -> str:
    """The text with the tokens of secret links and key parameters replaced by [token]."""
    if not text or text == "-":
        return text
    for secret_path in SECRET_PATHS:
        text = secret_path.sub(lambda match: match["before"] + MASK, text)
    return SECRET_QUERY.sub(lambda match: match[1] + MASK, text)


class AccessLog(Logger):
    """gunicorn's logger, its access lines without credentials or secret tokens."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        atoms["u"] = "-"
        for name in ("r", "U", "q", "f"):
            atoms[name] = masked(atoms[name])
        for name, value in atoms.items():
            if name.endswith("}e") and isinstance(value, str):  # raw_uri, query_string, referer
                atoms[name] = masked(value)
        for name in SECRET_HEADERS + SECRET_ENVIRON:
            if name in atoms:
                atoms[name] = "-"
        return atoms
