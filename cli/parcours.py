#!/usr/bin/env python3
"""parcours: log coding sessions and watching to a Parcours site from the terminal.

Standard library only. `parcours login` stores the site and a personal access token in
$XDG_CONFIG_HOME/parcours/config.json (mode 0600); PARCOURS_URL and PARCOURS_TOKEN override it.
"""

import argparse
import getpass
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

# Exit codes, the same for every command.
OK, FAILED, INVALID, UNAUTHORIZED, NOT_FOUND, UNREACHABLE = 0, 1, 2, 3, 4, 5
RETRIES = 3
TIMEOUT = 15

FRENCH = {
    "Log coding sessions and watching to a Parcours site.": "Noter ses séances de code et ses visionnages sur un site Parcours.",
    "Store the site's address and a personal access token.": "Enregistrer l'adresse du site et un jeton d'accès personnel.",
    "Log a coding session.": "Noter une séance de code.",
    "The balance, the minutes of code owed, and what is next.": "L'équilibre, les minutes de code dues et la suite.",
    "Mark a resource watched.": "Marquer une ressource comme regardée.",
    "Site address (e.g. https://parcours.example): ": "Adresse du site (par ex. https://parcours.example) : ",
    "Personal access token (from /settings/tokens/): ": "Jeton d'accès personnel (depuis /settings/tokens/) : ",
    "Logged in to {url} as {username} with the token “{name}” ({scope}). Saved in {path}.": "Connecté à {url} en tant que {username} avec le jeton « {name} » ({scope}). Enregistré dans {path}.",
    "Not logged in: run `parcours login` first.": "Pas de connexion : lancez d'abord `parcours login`.",
    "The site address must start with http:// or https://.": "L'adresse du site doit commencer par http:// ou https://.",
    "No token given.": "Aucun jeton donné.",
    "Cannot reach {url}: {reason}": "Impossible de joindre {url} : {reason}",
    "The site answered {status} without an explanation.": "Le site a répondu {status} sans explication.",
    "Logged {minutes} min on {day} (session {id}).": "{minutes} min notées le {day} (séance {id}).",
    "Already logged: session {id}.": "Déjà notée : séance {id}.",
    "This week": "Cette semaine",
    "Overall": "En tout",
    "{watched} min watched, {coded} min coded, {owed} min of code owed.": "{watched} min regardées, {coded} min codées, {owed} min de code dues.",
    "Next up: {title}": "Ensuite : {title}",
    "Next up: nothing, the path is done.": "Ensuite : rien, le parcours est terminé.",
    "Path: {done} of {total} steps done.": "Parcours : {done} étapes faites sur {total}.",
    "“{title}” marked watched.": "« {title} » marquée comme regardée.",
    "minutes of code, 1 to 1440": "minutes de code, de 1 à 1440",
    "what you built": "ce que vous avez construit",
    "the slug of the resource practised, e.g. gpu-mode-9": "le slug de la ressource pratiquée, par ex. gpu-mode-9",
    "or a chapter of the guide, e.g. 2.5": "ou un chapitre du guide, par ex. 2.5",
    "the day, YYYY-MM-DD (default: today)": "le jour, AAAA-MM-JJ (par défaut : aujourd'hui)",
    "a link to the code (http or https)": "un lien vers le code (http ou https)",
    "the slug of the resource, e.g. gpu-mode-12": "le slug de la ressource, par ex. gpu-mode-12",
    "the site's address": "l'adresse du site",
}


def language():
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


def tr(text):
    return FRENCH.get(text, text) if language() == "fr" else text


class Failure(Exception):
    """Stops the command with a message and an exit code."""

    def __init__(self, message, code=FAILED):
        super().__init__(message)
        self.code = code


# Configuration


def config_path():
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "parcours" / "config.json"


def read_config():
    path = config_path()
    config = json.loads(path.read_text()) if path.exists() else {}
    url = os.environ.get("PARCOURS_URL") or config.get("url")
    token = os.environ.get("PARCOURS_TOKEN") or config.get("token")
    if not url or not token:
        raise Failure(tr("Not logged in: run `parcours login` first."), UNAUTHORIZED)
    return url, token


def write_config(url, token):
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    # Created 0600 from the start: the token is never readable by others, not even briefly.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        json.dump({"url": url, "token": token}, file)
    os.chmod(path, 0o600)
    return path


# HTTP


def call(url, token, method, path, body=None):
    """The JSON answer of one API call, retried on network errors, 429 and 5xx."""
    address = url.rstrip("/") + "/api/v1" + path
    data = json.dumps(body).encode() if body is not None else None
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json",
        "Accept-Language": language(),
    }
    if data is not None:
        headers["Content-Type"] = "application/json"
    for attempt in range(1, RETRIES + 1):
        request = urllib.request.Request(address, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            wait = retry_delay(error, attempt)
            if wait is None:
                raise refusal(error) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
            if attempt == RETRIES:
                reason = getattr(error, "reason", error)
                raise Failure(
                    tr("Cannot reach {url}: {reason}").format(url=url, reason=reason), UNREACHABLE
                ) from None
            wait = attempt
        time.sleep(wait)
    raise AssertionError("unreachable")


def retry_delay(error, attempt):
    """Seconds to wait before trying again, or None when the answer is final."""
    if attempt == RETRIES or not (error.code == 429 or error.code >= 500):
        return None
    try:
        return min(float(error.headers.get("Retry-After", attempt)), 30)
    except ValueError:
        return attempt


def refusal(error):
    """The site's own words for an error answer, with the matching exit code."""
    try:
        message = json.loads(error.read()).get("message")
    except (ValueError, AttributeError):
        message = None
    message = message or tr("The site answered {status} without an explanation.").format(
        status=error.code
    )
    code = {401: UNAUTHORIZED, 403: UNAUTHORIZED, 404: NOT_FOUND, 400: INVALID, 422: INVALID}
    return Failure(message, code.get(error.code, FAILED))


# Commands


def login(arguments):
    url = arguments.url or input(tr("Site address (e.g. https://parcours.example): ")).strip()
    url = url.rstrip("/")
    if url.endswith("/api/v1"):
        url = url[: -len("/api/v1")]
    if urllib.parse.urlsplit(url).scheme not in {"http", "https"}:
        raise Failure(tr("The site address must start with http:// or https://."), INVALID)
    if sys.stdin.isatty():
        token = getpass.getpass(tr("Personal access token (from /settings/tokens/): "))
    else:
        token = sys.stdin.readline()
    token = token.strip()
    if not token:
        raise Failure(tr("No token given."), INVALID)
    me = call(url, token, "GET", "/me")
    path = write_config(url, token)
    print(
        tr(
            "Logged in to {url} as {username} with the token “{name}” ({scope}). Saved in {path}."
        ).format(
            url=url,
            username=me["username"],
            name=me["token"]["name"],
            scope=me["token"]["scope"],
            path=path,
        )
    )


def log(arguments):
    url, token = read_config()
    # One key per invocation: a retry after a lost answer returns the same session, not a copy.
    body = {
        "minutes": arguments.minutes,
        "built": arguments.built,
        "idempotency_key": str(uuid.uuid4()),
    }
    for name in ("resource", "chapter", "day", "code_url"):
        if getattr(arguments, name):
            body[name] = getattr(arguments, name)
    session = call(url, token, "POST", "/sessions", body)
    print(tr("Logged {minutes} min on {day} (session {id}).").format(**session))


def status(arguments):
    url, token = read_config()
    summary = call(url, token, "GET", "/summary")
    for label, balance in (
        (tr("This week"), summary["this_week"]),
        (tr("Overall"), summary["overall"]),
    ):
        print(
            f"{label}: "
            + tr("{watched} min watched, {coded} min coded, {owed} min of code owed.").format(
                watched=balance["watched_minutes"],
                coded=balance["coded_minutes"],
                owed=balance["owed_minutes"],
            )
        )
    next_up = summary["next_up"]
    if next_up:
        slug = f" ({next_up['resource']['slug']})" if next_up["resource"] else ""
        print(tr("Next up: {title}").format(title=next_up["title"] + slug))
    elif summary["path"]:
        print(tr("Next up: nothing, the path is done."))
    if summary["path"]:
        path = summary["path"]
        print(
            tr("Path: {done} of {total} steps done.").format(
                done=path["steps_done"], total=path["steps_total"]
            )
        )


def watched(arguments):
    url, token = read_config()
    resource = call(url, token, "POST", f"/resources/{urllib.parse.quote(arguments.slug)}/watched")
    print(tr("“{title}” marked watched.").format(title=resource["title"]))


def parser():
    top = argparse.ArgumentParser(
        prog="parcours", description=tr("Log coding sessions and watching to a Parcours site.")
    )
    commands = top.add_subparsers(dest="command", required=True)
    command = commands.add_parser(
        "login", help=tr("Store the site's address and a personal access token.")
    )
    command.add_argument("--url", help=tr("the site's address"))
    command.set_defaults(run=login)
    command = commands.add_parser("log", help=tr("Log a coding session."))
    command.add_argument("minutes", type=int, help=tr("minutes of code, 1 to 1440"))
    command.add_argument("built", help=tr("what you built"))
    command.add_argument(
        "--resource", help=tr("the slug of the resource practised, e.g. gpu-mode-9")
    )
    command.add_argument("--chapter", help=tr("or a chapter of the guide, e.g. 2.5"))
    command.add_argument("--day", help=tr("the day, YYYY-MM-DD (default: today)"))
    command.add_argument("--link", dest="code_url", help=tr("a link to the code (http or https)"))
    command.set_defaults(run=log)
    command = commands.add_parser(
        "status", help=tr("The balance, the minutes of code owed, and what is next.")
    )
    command.set_defaults(run=status)
    command = commands.add_parser("watched", help=tr("Mark a resource watched."))
    command.add_argument("slug", help=tr("the slug of the resource, e.g. gpu-mode-12"))
    command.set_defaults(run=watched)
    return top


def main(argv=None):
    arguments = parser().parse_args(argv)
    try:
        arguments.run(arguments)
    except Failure as failure:
        print(f"parcours: {failure}", file=sys.stderr)
        return failure.code
    except KeyboardInterrupt:
        return FAILED
    return OK


if __name__ == "__main__":
    sys.exit(main())
