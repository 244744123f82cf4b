"""The site's settings with the benchmark's URLconf: set as DJANGO_SETTINGS_MODULE by bench/run.py."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
