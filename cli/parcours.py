#!/usr/bin/env python3
"""parcours: log coding sessions and watching to a Parcours site from the terminal.

Standard library only, Python 3.9 or newer: install it with `pipx install ./cli` (the
`parcours-cli` distribution) or run this file as it is. `parcours login` stores the site and a
personal access token in $XDG_CONFIG_HOME/parcours/config.json (mode 0600); PARCOURS_TOKEN (and
PARCOURS_URL) take their place. The token is only ever sent to the site it was saved for.
"""

import argparse
import getpass
import html
import http.client
import ipaddress
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from datetime import date, timedelta
from pathlib import Path

__version__ = "0.2.0"

# Exit codes, the same for the same failure in every command (EXIT_CODES says what each means).
OK, FAILED, INVALID, UNAUTHORIZED, NOT_FOUND, UNREACHABLE, NOT_THE_API, BAD_CONFIG, NOT_PASSED = (
    range(9)
)
EXIT_CODES = (
    (OK, "done"),
    (FAILED, "the site failed (an error 5xx, or still busy after retrying)"),
    (INVALID, "bad command line or input the site refused, or a site address that is not allowed"),
    (UNAUTHORIZED, "not logged in, or the token is unknown, revoked, expired or read-only"),
    (NOT_FOUND, "no such resource or session"),
    (UNREACHABLE, "the site cannot be reached: refused, unknown host, TLS error or timeout"),
    (
        NOT_THE_API,
        "the answer is not the Parcours API's: not JSON, a redirect elsewhere, a redirected write",
    ),
    (BAD_CONFIG, "a local file cannot be read: the saved configuration or ~/.wakatime.cfg"),
    (NOT_PASSED, "the solution did not pass (check or submit), or it could not be checked"),
)
DEFAULT_TIMEOUT = 10  # seconds for a whole request, retries included
RETRIES = 2
MAX_REDIRECTS = 5
RETRIED_STATUSES = {429, 502, 503, 504}
# What `parcours practice` writes from the site's answer: these names only, never a path.
EXERCISE_FILES = ("starter.py", "check.py", "cases.py", "exercise.json")
SOLUTION = "solution.py"
POLL_SECONDS = 2
REDIRECT_STATUSES = {301, 302, 303, 307, 308}
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}

FRENCH = {
    "Log coding sessions and watching to a Parcours site.": "Noter ses séances de code et ses visionnages sur un site Parcours.",
    "exit codes:": "codes de sortie :",
    "done": "fait",
    "the site failed (an error 5xx, or still busy after retrying)": "le site a échoué (une erreur 5xx, ou encore occupé après de nouveaux essais)",
    "bad command line or input the site refused, or a site address that is not allowed": "ligne de commande incorrecte, saisie refusée par le site, ou adresse de site non permise",
    "not logged in, or the token is unknown, revoked, expired or read-only": "pas de connexion, ou jeton inconnu, révoqué, expiré ou en lecture seule",
    "no such resource or session": "pas de telle ressource ni séance",
    "the site cannot be reached: refused, unknown host, TLS error or timeout": "site injoignable : refus, hôte inconnu, erreur TLS ou délai dépassé",
    "the answer is not the Parcours API's: not JSON, a redirect elsewhere, a redirected write": "la réponse n'est pas celle de l'API Parcours : pas du JSON, une redirection ailleurs, une écriture redirigée",
    "a local file cannot be read: the saved configuration or ~/.wakatime.cfg": "un fichier local est illisible : la configuration enregistrée ou ~/.wakatime.cfg",
    "Store the site's address and a personal access token.": "Enregistrer l'adresse du site et un jeton d'accès personnel.",
    "Forget the saved token.": "Oublier le jeton enregistré.",
    "Find resources and their slugs.": "Trouver des ressources et leurs slugs.",
    "Log a coding session.": "Noter une séance de code.",
    "Your coding sessions, newest first.": "Vos séances de code, les plus récentes d'abord.",
    "The balance, the code owed, and what is next.": "L'équilibre, le code dû et la suite.",
    "Mark a resource watched.": "Marquer une ressource comme regardée.",
    "Mark a resource not watched.": "Marquer une ressource comme non regardée.",
    "Point WakaTime editor plugins at the site (~/.wakatime.cfg).": "Diriger les extensions WakaTime des éditeurs vers le site (~/.wakatime.cfg).",
    'A shell completion script: eval "$(parcours completion bash)".': 'Un script de complétion : eval "$(parcours completion bash)".',
    "words to find in titles, speakers and keywords, e.g. cuda": "des mots à chercher dans les titres, intervenants et mots-clés, par ex. cuda",
    "only this kind: lecture, talk, course, conference, channel…": "seulement ce type : lecture, talk, course, conference, channel…",
    "print the site's answer as JSON": "afficher la réponse du site en JSON",
    "seconds before giving up on the site (default 10)": "secondes avant d'abandonner (10 par défaut)",
    "the first day, YYYY-MM-DD or e.g. 7d for the last 7 days": "le premier jour, AAAA-MM-JJ ou par ex. 7d pour les 7 derniers jours",
    "at most this many (default 20)": "au plus autant (20 par défaut)",
    "write the block into ~/.wakatime.cfg, keeping its other settings": "écrire le bloc dans ~/.wakatime.cfg en gardant ses autres réglages",
    "Site address (e.g. https://parcours.example): ": "Adresse du site (par ex. https://parcours.example) : ",
    "Personal access token (from /settings/tokens/): ": "Jeton d'accès personnel (depuis /settings/tokens/) : ",
    "Logged in to {url} as {username} with the token “{name}” ({scope}). Saved in {path}.": "Connecté à {url} en tant que {username} avec le jeton « {name} » ({scope}). Enregistré dans {path}.",
    "Logged out: {path} is removed. The token still works until you revoke it on {url}/settings/tokens/.": "Déconnecté : {path} est supprimé. Le jeton reste valable jusqu'à sa révocation sur {url}/settings/tokens/.",
    "Not logged in: nothing to forget.": "Pas de connexion : rien à oublier.",
    "PARCOURS_TOKEN is still set in this shell.": "PARCOURS_TOKEN est toujours défini dans ce shell.",
    "Not logged in: run `parcours login` first.": "Pas de connexion : lancez d'abord `parcours login`.",
    "Cannot read {path} ({reason}): run `parcours login` again.": "Impossible de lire {path} ({reason}) : relancez `parcours login`.",
    "{path} can be read by others: run `chmod 600 {path}`.": "{path} est lisible par d'autres : lancez `chmod 600 {path}`.",
    "The saved token belongs to {saved}, not {url}: set PARCOURS_TOKEN too, or run `parcours login --url {url}`.": "Le jeton enregistré appartient à {saved}, pas à {url} : définissez aussi PARCOURS_TOKEN, ou lancez `parcours login --url {url}`.",
    "The site address must start with https://, e.g. https://parcours.example (got “{url}”).": "L'adresse du site doit commencer par https://, par ex. https://parcours.example (reçu « {url} »).",
    "http:// would send the token in clear: use https://{rest} (http:// is only for this machine: localhost, 127.0.0.1, ::1).": "http:// enverrait le jeton en clair : utilisez https://{rest} (http:// est réservé à cette machine : localhost, 127.0.0.1, ::1).",
    "No token given.": "Aucun jeton donné.",
    "Cannot reach {url}: {reason}": "Impossible de joindre {url} : {reason}",
    "no answer within {seconds} s (--timeout)": "pas de réponse en {seconds} s (--timeout)",
    "The site answered {status} without an explanation.": "Le site a répondu {status} sans explication.",
    "{url} answered {status} with something that is not the Parcours API ({kind}): check the address with `parcours login --url`.": "{url} a répondu {status} par autre chose que l'API Parcours ({kind}) : vérifiez l'adresse avec `parcours login --url`.",
    "{url} has no Parcours API at this address (404): check it with `parcours login --url`.": "{url} n'a pas d'API Parcours à cette adresse (404) : vérifiez-la avec `parcours login --url`.",
    "{url} redirects to {target}, another site: the token was not sent there. If the site moved, run `parcours login --url` with its new address.": "{url} redirige vers {target}, un autre site : le jeton n'y a pas été envoyé. Si le site a déménagé, lancez `parcours login --url` avec sa nouvelle adresse.",
    "{url} redirects this change to {target}; it was not sent again, so nothing was saved. Run `parcours login --url {site}`, then try again.": "{url} redirige cette modification vers {target} ; elle n'a pas été renvoyée, donc rien n'est enregistré. Lancez `parcours login --url {site}`, puis réessayez.",
    "note: {url} redirects to {site}: run `parcours login --url {site}` to go there directly.": "note : {url} redirige vers {site} : lancez `parcours login --url {site}` pour y aller directement.",
    "{url} redirects too many times.": "{url} redirige trop de fois.",
    "The site's answer lacks “{field}”: is this a Parcours site of this version?": "Il manque « {field} » dans la réponse du site : est-ce un site Parcours de cette version ?",
    "Cannot read {path} ({reason}).": "Impossible de lire {path} ({reason}).",
    "Logged {duration} on {day} (session {id}).": "{duration} notées le {day} (séance {id}).",
    "This week": "Cette semaine",
    "Overall": "En tout",
    "Next up: {title}": "Ensuite : {title}",
    "Next up: nothing, the path is done.": "Ensuite : rien, le parcours est terminé.",
    "Path: {done} of {total} steps done.": "Parcours : {done} étapes faites sur {total}.",
    "“{title}” marked watched.": "« {title} » marquée comme regardée.",
    "“{title}” marked not watched.": "« {title} » marquée comme non regardée.",
    "No resource matches “{query}”.": "Aucune ressource ne correspond à « {query} ».",
    "No coding session.": "Aucune séance de code.",
    "--since takes a day (YYYY-MM-DD) or a number of days (e.g. 7d), not “{value}”.": "--since attend un jour (AAAA-MM-JJ) ou un nombre de jours (par ex. 7d), pas « {value} ».",
    "Wrote api_url and api_key in the [settings] of {path}: your editor plugins now report to {url}. A key issued before no longer works.": "api_url et api_key écrits dans [settings] de {path} : vos extensions d'éditeur écrivent maintenant à {url}. Une clé émise auparavant ne fonctionne plus.",
    "{h} h": "{h} h",
    "{h} h {m:02d}": "{h} h {m:02d}",
    "{m} min": "{m} min",
    "minutes of code, 1 to 1440": "minutes de code, de 1 à 1440",
    "what you built": "ce que vous avez construit",
    "the slug of the resource practised, e.g. gpu-mode-9": "le slug de la ressource pratiquée, par ex. gpu-mode-9",
    "or a chapter of the guide, e.g. 2.5": "ou un chapitre du guide, par ex. 2.5",
    "the day, YYYY-MM-DD (default: today)": "le jour, AAAA-MM-JJ (par défaut : aujourd'hui)",
    "a link to the code (http or https)": "un lien vers le code (http ou https)",
    "the slug of the resource, e.g. gpu-mode-12": "le slug de la ressource, par ex. gpu-mode-12",
    "the site's address": "l'adresse du site",
    "the shell": "le shell",
    "the solution did not pass (check or submit), or it could not be checked": "la solution n'a pas réussi (check ou submit), ou n'a pas pu être vérifiée",
    "Write an exercise's starter and local checker into a folder.": "Écrire le code de départ d'un exercice et son vérificateur local dans un dossier.",
    "Check your solution on this machine with the public cases.": "Vérifier votre solution sur cette machine avec les cas publics.",
    "Send your solution; the site checks it with hidden cases too.": "Envoyer votre solution ; le site la vérifie aussi avec des cas cachés.",
    "the exercise's slug, e.g. vector-add": "le slug de l'exercice, par ex. vector-add",
    "the folder to write into (default: the exercise's slug)": "le dossier où écrire (par défaut : le slug de l'exercice)",
    "the exercise's folder (default: this one)": "le dossier de l'exercice (par défaut : celui-ci)",
    "the Python that has numba-cuda (default: this one)": "le Python qui a numba-cuda (par défaut : celui-ci)",
    "seconds to wait for the verdict (default 120)": "secondes d'attente du verdict (120 par défaut)",
    "Wrote {files} into {folder}. Write your kernel in {solution}, then run `parcours check {folder}` and `parcours submit {folder}`.": "{files} écrits dans {folder}. Écrivez votre noyau dans {solution}, puis lancez `parcours check {folder}` et `parcours submit {folder}`.",
    "{path} is kept: it holds your solution.": "{path} est gardé : il contient votre solution.",
    "No exercise in {folder}: run `parcours practice <slug>` first.": "Pas d'exercice dans {folder} : lancez d'abord `parcours practice <slug>`.",
    "No {path}: write your solution there (the starter is starter.py).": "Pas de {path} : écrivez-y votre solution (le code de départ est starter.py).",
    "The site has no local checker for this exercise yet: `parcours check` cannot run; `parcours submit` still works.": "Le site n'a pas encore de vérificateur local pour cet exercice : `parcours check` ne peut pas tourner ; `parcours submit` marche toujours.",
    "numba-cuda is not installed for {python}. Install it with `{python} -m pip install numba-cuda numpy` (no GPU needed: its simulator runs kernels on the CPU), or give another Python with --python.": "numba-cuda n'est pas installé pour {python}. Installez-le avec `{python} -m pip install numba-cuda numpy` (pas besoin de GPU : son simulateur exécute les noyaux sur le CPU), ou donnez un autre Python avec --python.",
    "The checker gave no verdict ({reason}).": "Le vérificateur n'a pas donné de verdict ({reason}).",
    "passed": "réussi",
    "failed": "échoué",
    "timed out": "temps dépassé",
    "crashed": "planté",
    "refused": "refusé",
    "being checked": "en cours de vérification",
    "{verdict}: {cases} cases in {seconds} s": "{verdict} : {cases} cas en {seconds} s",
    "A hidden case failed: your kernel passes the public cases, not every size.": "Un cas caché a échoué : votre noyau passe les cas publics, pas toutes les tailles.",
    "Sent (submission {id}); waiting for the verdict…": "Envoyée (soumission {id}) ; attente du verdict…",
    "Still being checked after {seconds} s: see {url}": "Toujours en vérification après {seconds} s : voir {url}",
    "Case {number} (size {size}) gives a wrong answer.": "Le cas {number} (taille {size}) donne une mauvaise réponse.",
    "Case {number} (size {size}) took longer than the time limit.": "Le cas {number} (taille {size}) a dépassé le temps imparti.",
    "Case {number} (size {size}) crashed.": "Le cas {number} (taille {size}) a planté.",
    "first wrong index": "premier indice faux",
    "expected": "attendu",
    "got": "obtenu",
    "largest error": "plus grande erreur",
    "what is wrong": "ce qui ne va pas",
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
    """Stops the command with a one-line message and an exit code from EXIT_CODES."""

    def __init__(self, message, code=FAILED, fields=None):
        super().__init__(message)
        self.code = code
        self.fields = fields or {}


# Output


def colour(stream):
    """Colours only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return (
        not os.environ.get("NO_COLOR")
        and os.environ.get("TERM") != "dumb"
        and hasattr(stream, "isatty")
        and stream.isatty()
    )


def paint(text, code, stream=None):
    return f"\033[{code}m{text}\033[0m" if colour(stream or sys.stdout) else text


def duration(minutes):
    """Minutes as the site writes them: "45 min", "1 h", "1 h 30", "12 h"."""
    hours, rest = divmod(max(int(minutes or 0), 0), 60)
    if not hours:
        return tr("{m} min").format(m=rest)
    if not rest:
        return tr("{h} h").format(h=hours)
    return tr("{h} h {m:02d}").format(h=hours, m=rest)


def print_json(data):
    print(json.dumps(data, ensure_ascii=False, indent=2))


def plain(sentence):
    """The site's sentence for a terminal: its HTML escapes undone, its no-break spaces plain."""
    return html.unescape(sentence).replace("\N{NO-BREAK SPACE}", " ").strip()


# The site's address


def is_loopback(host):
    if host.lower() in LOOPBACK_NAMES or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def site_address(url):
    """The site's base address, checked: https, or http for this machine only."""
    url = url.strip().rstrip("/")
    if url.endswith("/api/v1"):
        url = url[: -len("/api/v1")].rstrip("/")
    parts = urllib.parse.urlsplit(url)
    try:
        parts.port  # noqa: B018 - a port that is not a number raises here
        host = parts.hostname
    except ValueError:
        host = None
    if parts.scheme not in {"http", "https"} or not host or parts.query or parts.fragment:
        raise Failure(
            tr(
                "The site address must start with https://, e.g. https://parcours.example (got “{url}”)."
            ).format(url=url),
            INVALID,
        )
    if parts.username or parts.password:
        raise Failure(
            tr(
                "The site address must start with https://, e.g. https://parcours.example (got “{url}”)."
            ).format(url=f"{parts.scheme}://…@{parts.netloc.rpartition('@')[2]}"),
            INVALID,
        )
    if parts.scheme == "http" and not is_loopback(host):
        raise Failure(
            tr(
                "http:// would send the token in clear: use https://{rest} (http:// is only for this machine: localhost, 127.0.0.1, ::1)."
            ).format(rest=url[len("http://") :]),
            INVALID,
        )
    return url


def origin(url):
    parts = urllib.parse.urlsplit(url)
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return (parts.scheme, (parts.hostname or "").lower(), parts.port or default)


# Configuration


def config_path():
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "parcours" / "config.json"


def saved_config():
    """The saved {"url", "token"}, or {} when there is none; a damaged file is a Failure."""
    path = config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise Failure(
            tr("Cannot read {path} ({reason}): run `parcours login` again.").format(
                path=path, reason=getattr(error, "strerror", None) or error
            ),
            BAD_CONFIG,
        ) from None
    try:
        config = json.loads(text)
    except ValueError:
        config = None
    if not (
        isinstance(config, dict)
        and isinstance(config.get("url"), str)
        and isinstance(config.get("token"), str)
    ):
        raise Failure(
            tr("Cannot read {path} ({reason}): run `parcours login` again.").format(
                path=path, reason="not the JSON `parcours login` writes"
            ),
            BAD_CONFIG,
        )
    if path.stat().st_mode & 0o077:
        print(
            tr("{path} can be read by others: run `chmod 600 {path}`.").format(path=path),
            file=sys.stderr,
        )
    return config


def credentials():
    """The site and the token to call it with: the token only ever goes to its own site."""
    config = saved_config()
    url = os.environ.get("PARCOURS_URL") or config.get("url")
    token = os.environ.get("PARCOURS_TOKEN")
    if not url or not (token or config.get("token")):
        raise Failure(tr("Not logged in: run `parcours login` first."), UNAUTHORIZED)
    url = site_address(url)
    if not token:
        saved = site_address(config["url"])
        if origin(saved) != origin(url):
            raise Failure(
                tr(
                    "The saved token belongs to {saved}, not {url}: set PARCOURS_TOKEN too, or run `parcours login --url {url}`."
                ).format(saved=saved, url=url),
                UNAUTHORIZED,
            )
        token = config["token"]
    return url, token


def write_config(url, token):
    """Saved 0600 from the first byte, then moved into place: never readable by others."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".config.")
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump({"url": url, "token": token}, file)
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)
    return path


# HTTP


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """Redirects come back as answers: `Site.call` decides, so the token never follows blindly."""

    def redirect_request(self, *arguments, **keywords):
        return None


OPENER = urllib.request.build_opener(NoRedirects)


class Site:
    """One Parcours site's API, called with the learner's token."""

    def __init__(self, url, token, timeout=DEFAULT_TIMEOUT):
        self.url, self.token, self.timeout = url, token, timeout

    def call(self, method, path, body=None, query=None):
        """The JSON answer of one API call, within `timeout` seconds, retries included."""
        address = self.url + "/api/v1" + path
        if query:
            address += "?" + urllib.parse.urlencode(query)
        data = json.dumps(body).encode() if body is not None else None
        deadline = time.monotonic() + self.timeout
        attempt = redirects = 0
        while True:
            status, headers, content = self.exchange(method, address, data, deadline)
            if status in REDIRECT_STATUSES:
                redirects += 1
                address = self.redirected(method, address, headers.get("Location"), redirects)
                continue
            wait = self.retry_delay(status, headers, attempt, deadline)
            if wait is None:
                return self.answer(status, headers, content)
            attempt += 1
            time.sleep(wait)

    def exchange(self, method, address, data, deadline):
        """Status, headers and body of one request; network failures retried while time is left."""
        headers = {
            "Authorization": f"Bearer {self.token}",
            "Accept": "application/json",
            "Accept-Language": language(),
            "User-Agent": f"parcours-cli/{__version__}",
        }
        if data is not None:
            headers["Content-Type"] = "application/json"
        attempt = 0
        while True:
            request = urllib.request.Request(address, data=data, headers=headers, method=method)
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise socket.timeout()
                with OPENER.open(request, timeout=left) as response:
                    return response.status, response.headers, response.read()
            except urllib.error.HTTPError as error:
                with error:
                    return error.code, error.headers, error.read()
            except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as error:
                reason = getattr(error, "reason", error)
                timed_out = isinstance(reason, socket.timeout)
                attempt += 1
                if timed_out or attempt > RETRIES or deadline - time.monotonic() < 1:
                    raise self.unreachable(address, reason, timed_out) from None
                time.sleep(1)

    def unreachable(self, address, reason, timed_out):
        """Names the address tried: after a redirect it is not the saved one."""
        scheme, host, port = origin(address)
        url = self.url if origin(self.url) == (scheme, host, port) else f"{scheme}://{host}:{port}"
        if timed_out:
            reason = tr("no answer within {seconds} s (--timeout)").format(seconds=self.timeout)
        return Failure(
            tr("Cannot reach {url}: {reason}").format(url=url, reason=reason), UNREACHABLE
        )

    def redirected(self, method, address, location, redirects):
        """Where to go next, or a Failure: the token only follows within its own site.

        The same origin is the same site, and so is https:// on the same host as an http:// site
        (an upgrade). A GET follows either; a change is never sent twice (a 301 would turn it into
        a GET, and a lost change is worse than an error), so it is reported instead.
        """
        target = urllib.parse.urljoin(address, location or "")
        here, there = origin(address), origin(target)
        upgrade = here[0] == "http" and there[0] == "https" and here[1] == there[1]
        if not location or (here != there and not upgrade):
            raise Failure(
                tr(
                    "{url} redirects to {target}, another site: the token was not sent there. If the site moved, run `parcours login --url` with its new address."
                ).format(url=self.url, target=f"{there[0]}://{there[1]}"),
                NOT_THE_API,
            )
        new_site = target.split("/api/v1", 1)[0] if "/api/v1" in target else target
        if method != "GET":
            raise Failure(
                tr(
                    "{url} redirects this change to {target}; it was not sent again, so nothing was saved. Run `parcours login --url {site}`, then try again."
                ).format(url=self.url, target=target, site=new_site),
                NOT_THE_API,
            )
        if redirects > MAX_REDIRECTS:
            raise Failure(tr("{url} redirects too many times.").format(url=self.url), NOT_THE_API)
        if upgrade:
            print(
                tr(
                    "note: {url} redirects to {site}: run `parcours login --url {site}` to go there directly."
                ).format(url=self.url, site=new_site),
                file=sys.stderr,
            )
        return target

    @staticmethod
    def retry_delay(status, headers, attempt, deadline):
        """Seconds to wait before trying again, or None when this answer is final."""
        if status not in RETRIED_STATUSES or attempt >= RETRIES:
            return None
        try:
            wait = max(float(headers.get("Retry-After", attempt + 1)), 0)
        except ValueError:
            wait = attempt + 1
        return wait if time.monotonic() + wait < deadline - 1 else None

    def answer(self, status, headers, content):
        """The decoded JSON of a success, or the Failure that an error answer means."""
        if status == 204 or (200 <= status < 300 and not content):
            return None
        kind = (headers.get("Content-Type") or "?").split(";")[0].strip()
        try:
            data = json.loads(content) if kind == "application/json" else None
        except ValueError:
            data = None
        if 200 <= status < 300:
            if data is None:
                raise self.not_the_api(status, kind)
            return data
        message = data.get("message") if isinstance(data, dict) and "error" in data else None
        if message:
            codes = {400: INVALID, 422: INVALID, 401: UNAUTHORIZED, 403: UNAUTHORIZED}
            code = codes.get(status, NOT_FOUND if status == 404 else FAILED)
            raise Failure(message, code, data.get("fields") if status == 422 else None)
        if status == 404:
            raise Failure(
                tr(
                    "{url} has no Parcours API at this address (404): check it with `parcours login --url`."
                ).format(url=self.url),
                NOT_THE_API,
            )
        if status >= 500 or status == 429:
            raise Failure(
                tr("The site answered {status} without an explanation.").format(status=status)
            )
        raise self.not_the_api(status, kind)

    def not_the_api(self, status, kind):
        return Failure(
            tr(
                "{url} answered {status} with something that is not the Parcours API ({kind}): check the address with `parcours login --url`."
            ).format(url=self.url, status=status, kind=kind),
            NOT_THE_API,
        )


def connect(arguments):
    url, token = credentials()
    return Site(url, token, arguments.timeout)


def field(data, *names):
    """data[name][…], or a Failure naming what an unexpected answer lacks."""
    for name in names:
        if not isinstance(data, dict) or name not in data:
            raise Failure(
                tr(
                    "The site's answer lacks “{field}”: is this a Parcours site of this version?"
                ).format(field=name),
                NOT_THE_API,
            )
        data = data[name]
    return data


# Commands


def login(arguments):
    url = arguments.url or input(tr("Site address (e.g. https://parcours.example): "))
    url = site_address(url)
    if sys.stdin.isatty():
        token = getpass.getpass(tr("Personal access token (from /settings/tokens/): "))
    else:
        token = sys.stdin.readline()
    token = token.strip()
    if not token:
        raise Failure(tr("No token given."), INVALID)
    me = Site(url, token, arguments.timeout).call("GET", "/me")
    path = write_config(url, token)
    print(
        tr(
            "Logged in to {url} as {username} with the token “{name}” ({scope}). Saved in {path}."
        ).format(
            url=url,
            username=field(me, "username"),
            name=field(me, "token", "name"),
            scope=field(me, "token", "scope"),
            path=path,
        )
    )


def logout(arguments):
    try:
        url = saved_config().get("url")
    except Failure:
        url = "…"  # a damaged file is removed all the same
    if config_path().exists():
        config_path().unlink()
        print(
            tr(
                "Logged out: {path} is removed. The token still works until you revoke it on {url}/settings/tokens/."
            ).format(path=config_path(), url=url)
        )
    else:
        print(tr("Not logged in: nothing to forget."))
    if os.environ.get("PARCOURS_TOKEN"):
        print(tr("PARCOURS_TOKEN is still set in this shell."), file=sys.stderr)


def resources(arguments):
    query = {"q": " ".join(arguments.query)} if arguments.query else {}
    if arguments.kind:
        query["kind"] = arguments.kind
    found = connect(arguments).call("GET", "/resources", query=query)
    if arguments.json:
        return print_json(found)
    if not found:
        print(
            tr("No resource matches “{query}”.").format(query=query.get("q", "")), file=sys.stderr
        )
        return
    width = max(len(field(resource, "slug")) for resource in found)
    for resource in found:
        done = field(resource, "state", "is_done")
        mark = paint("✓", "32") if done else " "
        length = duration(resource["duration_minutes"]) if resource.get("duration_minutes") else ""
        print(f"{mark} {resource['slug']:<{width}}  {length:>7}  {field(resource, 'title')}")


def log(arguments):
    # One key per invocation: a retry after a lost answer returns the same session, not a copy.
    body = {
        "minutes": arguments.minutes,
        "built": arguments.built,
        "idempotency_key": str(uuid.uuid4()),
    }
    for name in ("resource", "chapter", "day", "code_url"):
        if getattr(arguments, name):
            body[name] = getattr(arguments, name)
    site = connect(arguments)
    try:
        session = site.call("POST", "/sessions", body)
    except Failure as failure:
        if arguments.resource and "resource" in failure.fields:
            # An unknown slug exits 4 here as in every command: the resource's own 404 says so.
            site.call("GET", "/resources/" + urllib.parse.quote(arguments.resource, safe=""))
        raise
    if arguments.json:
        return print_json(session)
    print(
        tr("Logged {duration} on {day} (session {id}).").format(
            duration=duration(field(session, "minutes")),
            day=field(session, "day"),
            id=field(session, "id"),
        )
    )


def since(value):
    """--since: a day, or a number of days back from today ("7d")."""
    try:
        if value.lower().endswith("d") and value[:-1].isdigit():
            return (date.today() - timedelta(days=int(value[:-1]))).isoformat()
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(
            tr(
                "--since takes a day (YYYY-MM-DD) or a number of days (e.g. 7d), not “{value}”."
            ).format(value=value)
        ) from None


def sessions(arguments):
    query = {"limit": arguments.limit}
    if arguments.since:
        query["from"] = arguments.since
    found = connect(arguments).call("GET", "/sessions", query=query)
    if arguments.json:
        return print_json(found)
    if not found:
        print(tr("No coding session."), file=sys.stderr)
        return
    for session in found:
        tied = session.get("resource") or session.get("chapter") or ""
        print(
            f"{field(session, 'id'):>5}  {field(session, 'day')}  "
            f"{duration(field(session, 'minutes')):>7}  {tied:<14} {field(session, 'built')}"
        )


def status(arguments):
    summary = connect(arguments).call("GET", "/summary")
    if arguments.json:
        return print_json(summary)
    for label, balance in ((tr("This week"), "this_week"), (tr("Overall"), "overall")):
        print(f"{paint(label, '1')}: {plain(field(summary, balance, 'sentence'))}")
    next_up = summary.get("next_up")
    if next_up:
        slug = f" ({next_up['resource']['slug']})" if next_up.get("resource") else ""
        print(tr("Next up: {title}").format(title=field(next_up, "title") + slug))
    elif summary.get("path"):
        print(tr("Next up: nothing, the path is done."))
    if summary.get("path"):
        path = summary["path"]
        print(
            tr("Path: {done} of {total} steps done.").format(
                done=field(path, "steps_done"), total=field(path, "steps_total")
            )
        )


def change_watched(arguments, action, sentence):
    slug = urllib.parse.quote(arguments.slug, safe="")
    resource = connect(arguments).call("POST", f"/resources/{slug}/{action}")
    if arguments.json:
        return print_json(resource)
    print(tr(sentence).format(title=field(resource, "title")))


def watched(arguments):
    change_watched(arguments, "watched", "“{title}” marked watched.")


def unwatched(arguments):
    change_watched(arguments, "not-watched", "“{title}” marked not watched.")


def wakatime_path():
    return Path(os.environ.get("WAKATIME_HOME") or Path.home()) / ".wakatime.cfg"


def with_settings(text, values):
    """An INI text with `values` set in its [settings] section, every other line kept as it was."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().lower() == "[settings]"), None)
    if start is None:
        lines += ([""] if lines and lines[-1].strip() else []) + ["[settings]"]
        start = len(lines) - 1
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].strip().startswith("[")), len(lines)
    )
    kept = []
    for line in lines[start + 1 : end]:
        key = line.split("=", 1)[0].split(":", 1)[0].strip().lower()
        if not line.lstrip().startswith(("#", ";")) and key in values:
            continue
        kept.append(line)
    written = [f"{key} = {value}" for key, value in values.items()]
    return "\n".join([*lines[: start + 1], *written, *kept, *lines[end:]]) + "\n"


def editor(arguments):
    site = connect(arguments)
    answer = site.call("POST", "/editor-key")
    if arguments.json:
        print_json(answer)
    if arguments.write:
        values = {"api_url": field(answer, "api_url"), "api_key": field(answer, "api_key")}
        path = wakatime_path()
        try:
            text = path.read_text(encoding="utf-8") if path.exists() else ""
        except (OSError, UnicodeDecodeError) as error:
            raise Failure(
                tr("Cannot read {path} ({reason}).").format(
                    path=path, reason=getattr(error, "strerror", None) or error
                ),
                BAD_CONFIG,
            ) from None
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        # os.open's mode applies only to a new file: an existing one readable by others would
        # hold the key for them. Narrowed before the key is written.
        os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(with_settings(text, values))
        if not arguments.json:
            print(
                tr(
                    "Wrote api_url and api_key in the [settings] of {path}: your editor plugins now report to {url}. A key issued before no longer works."
                ).format(path=path, url=site.url)
            )
    elif not arguments.json:
        print(field(answer, "wakatime_cfg"), end="")


def completion(arguments):
    """A bash completion script built from the parser itself (zsh: `bashcompinit` first)."""
    top = parser()
    commands = top._subparsers._group_actions[0].choices
    cases = "".join(
        f'    {name}) words="{" ".join(o for a in sub._actions for o in a.option_strings)}";;\n'
        for name, sub in commands.items()
    )
    print(
        "_parcours() {\n"
        '  local cur="${COMP_WORDS[COMP_CWORD]}" words\n'
        '  if [ "$COMP_CWORD" -eq 1 ]; then\n'
        f'    words="{" ".join(commands)} --version --help --timeout"\n'
        "  else\n"
        '    case "${COMP_WORDS[1]}" in\n'
        f"{cases}"
        "    esac\n"
        "  fi\n"
        '  COMPREPLY=($(compgen -W "$words" -- "$cur"))\n'
        "}\n"
        "complete -F _parcours parcours"
    )


# Practice


VERDICTS = {
    "passed": "passed",
    "failed": "failed",
    "timed_out": "timed out",
    "crashed": "crashed",
    "refused": "refused",
    "pending": "being checked",
}
# What the runner's failing case holds, said as the exercise page says it (practice/pages.py).
CASE_SUMMARIES = {
    "failed": "Case {number} (size {size}) gives a wrong answer.",
    "timed_out": "Case {number} (size {size}) took longer than the time limit.",
    "crashed": "Case {number} (size {size}) crashed.",
}
FAILURE_LABELS = {
    "first_wrong_index": "first wrong index",
    "expected": "expected",
    "got": "got",
    "max_error": "largest error",
    "problem": "what is wrong",
}


def practice(arguments):
    slug = urllib.parse.quote(arguments.slug, safe="")
    exercise = connect(arguments).call("GET", f"/exercises/{slug}")
    files = field(exercise, "files")
    folder = Path(arguments.dir or arguments.slug)
    written = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in EXERCISE_FILES:
            if isinstance(files.get(name), str):
                (folder / name).write_text(files[name], encoding="utf-8")
                written.append(name)
        solution = folder / SOLUTION
        if solution.exists():
            print(
                tr("{path} is kept: it holds your solution.").format(path=solution), file=sys.stderr
            )
        else:
            solution.write_text(field(exercise, "starter"), encoding="utf-8")
            written.append(SOLUTION)
    except OSError as error:
        raise Failure(
            tr("Cannot read {path} ({reason}).").format(path=folder, reason=error.strerror),
            BAD_CONFIG,
        ) from None
    if arguments.json:
        return print_json(exercise)
    print(
        tr(
            "Wrote {files} into {folder}. Write your kernel in {solution}, then run `parcours check {folder}` and `parcours submit {folder}`."
        ).format(files=", ".join(written), folder=folder, solution=folder / SOLUTION)
    )


def exercise_in(folder):
    """The exercise.json that `parcours practice` wrote into folder, read."""
    try:
        data = json.loads((folder / "exercise.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict) or not data.get("slug"):
        raise Failure(
            tr("No exercise in {folder}: run `parcours practice <slug>` first.").format(
                folder=folder
            ),
            INVALID,
        )
    return data


def solution_in(folder):
    path = folder / SOLUTION
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise Failure(
            tr("No {path}: write your solution there (the starter is starter.py).").format(
                path=path
            ),
            INVALID,
        ) from None


def say_verdict(result):
    """Print a verdict and where its failing public case went wrong, in the learner's language,
    with the checker's own words where they say more (an exception); True when it passed."""
    verdict = result.get("verdict")
    passed = verdict == "passed"
    label = tr(VERDICTS.get(verdict, str(verdict)))
    seconds = result.get("seconds")
    seconds = f"{seconds:.1f}" if isinstance(seconds, (int, float)) else "?"
    headline = tr("{verdict}: {cases} cases in {seconds} s").format(
        verdict=label, cases=result.get("cases_run", "?"), seconds=seconds
    )
    print(paint(headline, "32" if passed else "31"))
    case = result.get("case")
    public = public_case(case)
    message = str(result.get("message") or "")
    if isinstance(case, dict) and case.get("hidden"):
        print(tr("A hidden case failed: your kernel passes the public cases, not every size."))
    elif public is not None and verdict in CASE_SUMMARIES:
        number, size = public["index"] + 1, public.get("size")
        print(tr(CASE_SUMMARIES[verdict]).format(number=number, size=size))
        if verdict == "crashed" and message:
            print(plain(message))
    elif message and not passed:
        print(plain(message))
    for key, label in FAILURE_LABELS.items():
        if public is not None and public.get(key) is not None:
            print(f"  {tr(label)}: {public[key]}")
    return passed


def public_case(case):
    """The failing public case as the runner gives it; None without one, or for a hidden one."""
    if isinstance(case, dict) and not case.get("hidden") and isinstance(case.get("index"), int):
        return case
    return None


def check(arguments):
    folder = Path(arguments.folder)
    exercise_in(folder)
    solution_in(folder)
    if not (folder / "check.py").is_file():
        raise Failure(
            tr(
                "The site has no local checker for this exercise yet: `parcours check` cannot run; `parcours submit` still works."
            ),
            NOT_PASSED,
        )
    python = arguments.python or sys.executable
    probe = subprocess.run(
        [python, "-c", "import numpy, numba.cuda"], capture_output=True, text=True
    )
    if probe.returncode != 0:
        raise Failure(
            tr(
                "numba-cuda is not installed for {python}. Install it with `{python} -m pip install numba-cuda numpy` (no GPU needed: its simulator runs kernels on the CPU), or give another Python with --python."
            ).format(python=python),
            NOT_PASSED,
        )
    command = [
        python,
        str(folder / "check.py"),
        "--exercise",
        str(folder),
        "--solution",
        str(folder / SOLUTION),
        "--json",
    ]
    ran = subprocess.run(command, capture_output=True, text=True)
    try:
        result = json.loads(ran.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        reason = (ran.stderr.strip().splitlines() or ["exit " + str(ran.returncode)])[-1]
        raise Failure(
            tr("The checker gave no verdict ({reason}).").format(reason=reason), NOT_PASSED
        ) from None
    if arguments.json:
        print_json(result)
        return None if result.get("verdict") == "passed" else NOT_PASSED
    return None if say_verdict(result) else NOT_PASSED


def submit(arguments):
    folder = Path(arguments.folder)
    slug = urllib.parse.quote(str(exercise_in(folder)["slug"]), safe="")
    code = solution_in(folder)
    site = connect(arguments)
    sent = site.call("POST", f"/exercises/{slug}/submissions", {"code": code})
    number = field(sent, "id")
    if not arguments.json:
        print(
            tr("Sent (submission {id}); waiting for the verdict…").format(id=number),
            file=sys.stderr,
        )
    deadline = time.monotonic() + arguments.wait
    result = sent
    while result.get("verdict") == "pending" and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        result = site.call("GET", f"/submissions/{number}")
    if arguments.json:
        print_json(result)
        return None if result.get("verdict") == "passed" else NOT_PASSED
    if result.get("verdict") == "pending":
        raise Failure(
            tr("Still being checked after {seconds} s: see {url}").format(
                seconds=arguments.wait, url=f"{site.url}/practice/{slug}/"
            ),
            NOT_PASSED,
        )
    return None if say_verdict(result) else NOT_PASSED


# The command line


def parser():
    epilog = tr("exit codes:") + "".join(f"\n  {code}  {tr(text)}" for code, text in EXIT_CODES)
    top = argparse.ArgumentParser(
        prog="parcours",
        description=tr("Log coding sessions and watching to a Parcours site."),
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument("--version", action="version", version=f"parcours {__version__}")
    timeout = argparse.ArgumentParser(add_help=False)
    timeout.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        default=argparse.SUPPRESS,
        help=tr("seconds before giving up on the site (default 10)"),
    )
    data = argparse.ArgumentParser(add_help=False, parents=[timeout])
    data.add_argument("--json", action="store_true", help=tr("print the site's answer as JSON"))
    top.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help=argparse.SUPPRESS)
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name, run, help, parents=(data,)):
        sub = commands.add_parser(name, help=tr(help), description=tr(help), parents=parents)
        sub.set_defaults(run=run, json=False)
        return sub

    sub = command(
        "login", login, "Store the site's address and a personal access token.", [timeout]
    )
    sub.add_argument("--url", help=tr("the site's address"))
    command("logout", logout, "Forget the saved token.", [])
    sub = command("resources", resources, "Find resources and their slugs.")
    sub.add_argument(
        "query", nargs="*", help=tr("words to find in titles, speakers and keywords, e.g. cuda")
    )
    sub.add_argument(
        "--kind", help=tr("only this kind: lecture, talk, course, conference, channel…")
    )
    sub = command("log", log, "Log a coding session.")
    sub.add_argument("minutes", type=int, help=tr("minutes of code, 1 to 1440"))
    sub.add_argument("built", help=tr("what you built"))
    sub.add_argument("--resource", help=tr("the slug of the resource practised, e.g. gpu-mode-9"))
    sub.add_argument("--chapter", help=tr("or a chapter of the guide, e.g. 2.5"))
    sub.add_argument("--day", help=tr("the day, YYYY-MM-DD (default: today)"))
    sub.add_argument("--link", dest="code_url", help=tr("a link to the code (http or https)"))
    sub = command("sessions", sessions, "Your coding sessions, newest first.")
    sub.add_argument(
        "--since", type=since, help=tr("the first day, YYYY-MM-DD or e.g. 7d for the last 7 days")
    )
    sub.add_argument("--limit", type=int, default=20, help=tr("at most this many (default 20)"))
    command("status", status, "The balance, the code owed, and what is next.")
    for name, run, help in (
        ("watched", watched, "Mark a resource watched."),
        ("unwatched", unwatched, "Mark a resource not watched."),
    ):
        sub = command(name, run, help)
        sub.add_argument("slug", help=tr("the slug of the resource, e.g. gpu-mode-12"))
    sub = command("editor", editor, "Point WakaTime editor plugins at the site (~/.wakatime.cfg).")
    sub.add_argument(
        "--write",
        action="store_true",
        help=tr("write the block into ~/.wakatime.cfg, keeping its other settings"),
    )
    sub = command(
        "practice", practice, "Write an exercise's starter and local checker into a folder."
    )
    sub.add_argument("slug", help=tr("the exercise's slug, e.g. vector-add"))
    sub.add_argument("--dir", help=tr("the folder to write into (default: the exercise's slug)"))
    sub = command("check", check, "Check your solution on this machine with the public cases.", [])
    sub.add_argument(
        "folder", nargs="?", default=".", help=tr("the exercise's folder (default: this one)")
    )
    sub.add_argument("--python", help=tr("the Python that has numba-cuda (default: this one)"))
    sub.add_argument("--json", action="store_true", help=tr("print the site's answer as JSON"))
    sub = command("submit", submit, "Send your solution; the site checks it with hidden cases too.")
    sub.add_argument(
        "folder", nargs="?", default=".", help=tr("the exercise's folder (default: this one)")
    )
    sub.add_argument(
        "--wait", type=float, default=120, help=tr("seconds to wait for the verdict (default 120)")
    )
    sub = command(
        "completion",
        completion,
        'A shell completion script: eval "$(parcours completion bash)".',
        [],
    )
    sub.add_argument("shell", choices=["bash"], help=tr("the shell"))
    return top


def main(argv=None):
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    arguments = parser().parse_args(argv)
    try:
        code = arguments.run(arguments)
    except Failure as failure:
        message = " ".join(str(failure).split())
        print(f"{paint('parcours:', '31', sys.stderr)} {message}", file=sys.stderr)
        return failure.code
    except KeyboardInterrupt:
        return FAILED
    except BrokenPipeError:
        # The reader left early (`parcours resources | head`): nothing more to say to it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OK
    return code or OK


if __name__ == "__main__":
    sys.exit(main())
