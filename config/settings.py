"""Parcours settings: one module, every value that differs between machines read from the environment."""

import os
import sys
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def fail(message):
    """Stop the process with one readable line instead of a traceback."""
    raise SystemExit(f"Parcours configuration error: {message}")


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    if value.strip().lower() in {"1", "true", "yes", "on"}:
        return True
    if value.strip().lower() in {"0", "false", "no", "off"}:
        return False
    return fail(f"{name} must be one of 1/0, true/false, yes/no, on/off (got {value!r}).")


def env_list(name, default=()):
    value = os.environ.get(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int(name, default):
    value = os.environ.get(name, "")
    if not value.strip():
        return default
    try:
        return int(value)
    except ValueError:
        return fail(f"{name} must be a whole number (got {value!r}).")


# Core
DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        fail(
            "SECRET_KEY is not set. Set SECRET_KEY to a long random string, or DEBUG=1 on a development machine."
        )
    SECRET_KEY = "django-insecure-development-only-key"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # Before the admin, so that curators edit the French and English text of the curriculum.
    "modeltranslation",
    "curation.apps.CurationAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "curriculum",
    "practice",
    "accounts",
    "progress",
    "ninja",
    "api",
    "editor",
    "groups",
    "config.task_queue.TaskQueueConfig",  # django-tasks-db, named in French and English
    "reminders",
    "curation",
]

MIDDLEWARE = [
    "config.request_id.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session and CSRF middleware, so that it sees the Vary: Cookie they add.
    "config.cache_headers.PersonalResponsesNotStoredMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.language.ProfileLanguageMiddleware",
    "progress.time_zone.LearnerTimeZoneMiddleware",
    # Axes must come last: it turns a locked-out sign-in into our lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    # Every page of the site (templates/*.jinja): see config/jinja.py. First, so that a view,
    # Django's auth views, the error handlers and axes find a .jinja name without `using`; it
    # loads only .jinja files, and leaves every other name to the engine below.
    {
        "BACKEND": "config.jinja.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "config.jinja.environment",
            # What a template's {% cache %} keys its fragments on, besides the language.
            "fragment_revision": "curriculum.structure.revision",
            # Filters and functions of the project's own, by dotted path (config/ imports no app).
            "filters": {"duration": "lib.durations.duration"},
            "globals": {"plain_field": "lib.forms.plain_field"},
        },
    },
    # The admin's templates (templates/admin/), and the widgets of the admin's forms and of Django's
    # own password forms (the project's forms print through lib/forms.py's Jinja2 renderer).
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# The page of a form refused for its CSRF token, in the site's layout (templates/403_csrf.jinja).
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"

# Database: PostgreSQL in production and CI, a SQLite file when DATABASE_URL is absent.
DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
try:
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=600, conn_health_checks=True)
    }
except ValueError as error:
    fail(
        f"DATABASE_URL is malformed ({error}). Expected e.g. postgres://user:password@host:5432/name."
    )
if not DATABASES["default"].get("ENGINE") or not DATABASES["default"].get("NAME"):
    fail(
        "DATABASE_URL is malformed: it names no database. Expected e.g. postgres://user@host:5432/name."
    )
# A database that is down or hangs answers within seconds, well under gunicorn's 30 s timeout.
DATABASE_CONNECT_TIMEOUT = env_int("DATABASE_CONNECT_TIMEOUT", 3)  # seconds
DATABASE_STATEMENT_TIMEOUT = env_int("DATABASE_STATEMENT_TIMEOUT", 10_000)  # milliseconds, 0: none
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", DATABASE_CONNECT_TIMEOUT)
    if DATABASE_STATEMENT_TIMEOUT:
        DATABASES["default"]["OPTIONS"].setdefault(
            "options", f"-c statement_timeout={DATABASE_STATEMENT_TIMEOUT}"
        )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # `make run` serves from threads beside the task worker, all writing to one file. A write
    # transaction takes the write lock as it begins, waiting its turn, instead of failing with
    # "database is locked" when it upgrades a read lock while another writer holds the file;
    # write-ahead logging lets pages read while one writes.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
    DATABASES["default"]["OPTIONS"].setdefault("init_command", "PRAGMA journal_mode=WAL;")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cache: Redis when REDIS_URL is set, shared by every app server, with short timeouts: while it is
# unreachable or hangs the cache degrades (config/redis_cache.py) and pages keep being served.
# No page is cached whole, so without Redis each process keeps its own small cache in memory.
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_TIMEOUT_SECONDS = 0.5
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
                "socket_timeout": REDIS_TIMEOUT_SECONDS,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Counts of password-reset mails (accounts/throttling.py): in Redis when there is one, so that
# every app server sees them; otherwise in this process, which is then the only one.
CACHES["throttle"] = (
    {**CACHES["default"]}
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle"}
)
# The fragments Jinja2 templates declare with {% cache %} (config/jinja.py): in this process's
# memory, Redis or not, since a page prints dozens and each would cost Redis a round trip; their
# keys name the curriculum revision, so a curator's edit leaves old ones to age out.
CACHES["fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "fragments",
    "OPTIONS": {"MAX_ENTRIES": 20000},
}
# Sessions stay in the database (one query by primary key), whatever becomes of Redis.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# Authentication
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.CaseInsensitiveModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "progress:home"
LOGOUT_REDIRECT_URL = "progress:home"

# Internationalisation: French is the guide's language, English the other choice.
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates name the month, day first: config/formats/en/formats.py says why.
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
USE_TZ = True
URLIZE_ASSUME_HTTPS = True

# django-modeltranslation (curriculum/translation.py): the curriculum's text is written in French
# (the seed) and in English; English pages show the French where the English is empty.
MODELTRANSLATION_DEFAULT_LANGUAGE = "fr"
MODELTRANSLATION_FALLBACK_LANGUAGES = ("fr",)
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")

# Static files: whitenoise serves them, compressed and hashed outside development.
STATIC_URL = "static/"
STATIC_ROOT = os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# E-mail: printed to the console unless EMAIL_HOST names an SMTP server.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": EMAIL_HOST,
                "port": env_int("EMAIL_PORT", 587),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", default=True),
                # An SMTP server that hangs fails the send within seconds, not gunicorn's 30.
                "timeout": env_int("EMAIL_TIMEOUT", 10),
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "config.console_mail.EmailBackend"}}
del EMAIL_HOST  # MAILERS replaces the EMAIL_* settings; keeping one would be read as the old style.
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Parcours <parcours@localhost>")

# Reminders (reminders/): the weekly digest is sent by a worker (`manage.py db_worker`) from a
# queue kept in the database; links in it start with SITE_URL, the site's public address.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# The written guide's address, linked from /guide/ when set (the site has only its video chapter).
GUIDE_URL = os.environ.get("GUIDE_URL", "")
# The digest leaves from this hour on, on each learner's chosen weekday, in their time zone.
DIGEST_HOUR = env_int("DIGEST_HOUR", 8)

# Security: HTTPS everywhere outside development; HTTPS=0 turns it off behind a plain-HTTP test rig.
HTTPS = env_bool("HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
if env_bool("TRUST_X_FORWARDED_PROTO"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_CSP: dict[str, list[str]] = {
    "default-src": [CSP.SELF],
    # No inline script anywhere, so no nonce.
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}
# A resource page with a YouTube video (progress/views/resource.py) also loads YouTube's IFrame
# Player API, which loads its widget script from the same host, and embeds the privacy-enhanced
# player.
SECURE_CSP_VIDEO_PAGE: dict[str, list[str]] = {
    **SECURE_CSP,
    "script-src": [CSP.SELF, "https://www.youtube.com"],
    "frame-src": ["https://www.youtube-nocookie.com"],
}

# django-axes: five failed sign-ins for one username from one address lock it for 15 minutes.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# A second rule (accounts/throttling.py): 20 failures from one address on any usernames lock the
# address for the same 15 minutes.
AXES_HANDLER = "accounts.throttling.SignInHandler"
SIGNIN_ADDRESS_FAILURE_LIMIT = 20
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.jinja"
AXES_VERBOSE = False
# The sign-in log (successful and, when enabled, failed sign-ins) is kept this many days:
# `manage.py prune_signin_log`, run daily, deletes older rows (docs/security.md).
SIGNIN_LOG_DAYS = env_int("SIGNIN_LOG_DAYS", 30)
# A username longer than any user can have is cut before axes stores it (its column holds 255).
AXES_USERNAME_CALLABLE = "accounts.throttling.username_for_throttling"
# Behind a reverse proxy, the client's address comes from the header the proxy sets, read by
# django-ipware (docs/operations.md, "Several app servers"); by default, the address that connects to us.
AXES_IPWARE_META_PRECEDENCE_ORDER = env_list(
    "AXES_IPWARE_META_PRECEDENCE_ORDER", default=["REMOTE_ADDR"]
)
AXES_IPWARE_PROXY_COUNT = env_int("AXES_IPWARE_PROXY_COUNT", None)

# API (api/): requests per personal access token in each window of API_RATE_PERIOD seconds.
API_RATE_LIMIT = env_int("API_RATE_LIMIT", 120)
API_RATE_PERIOD = env_int("API_RATE_PERIOD", 60)
# Editor (editor/): heartbeats per editor key in each window of EDITOR_RATE_PERIOD seconds (a
# request without heartbeats, such as the status bar, counts as one). A plugin sends about one a
# minute; a client back online sends its queue in bulks of 25, and queues again what gets 429.
EDITOR_RATE_LIMIT = env_int("EDITOR_RATE_LIMIT", 300)
EDITOR_RATE_PERIOD = env_int("EDITOR_RATE_PERIOD", 60)

# Practice (practice/): the exercises' folders, the secret the hidden cases' seeds are drawn
# from (empty: one derived from SECRET_KEY), submissions per learner in each window of
# PRACTICE_SUBMIT_PERIOD seconds, and the seconds a check may take in the sandbox.
PRACTICE_EXERCISES_DIR = Path(os.environ.get("PRACTICE_EXERCISES_DIR") or BASE_DIR / "exercises")
PRACTICE_SECRET = os.environ.get("PRACTICE_SECRET", "")
PRACTICE_SUBMIT_LIMIT = env_int("PRACTICE_SUBMIT_LIMIT", 10)
PRACTICE_SUBMIT_PERIOD = env_int("PRACTICE_SUBMIT_PERIOD", 60)
PRACTICE_CHECK_SECONDS = env_int("PRACTICE_CHECK_SECONDS", 60)

# Logging: one line per event on standard error, each with its request id.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "config.request_id.RequestIdFilter"},
        "without_rate_refusals": {"()": "config.request_id.WithoutRateRefusals"},
    },
    "formatters": {
        "line": {
            "()": "config.request_id.OneLineFormatter",
            "format": "{asctime} {levelname} [{request_id}] {name}: {message}",
            "style": "{",
        }
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": sys.stderr,
            "formatter": "line",
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["stderr"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "django.request": {"filters": ["without_rate_refusals"]},
    },
}
