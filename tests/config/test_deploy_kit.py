"""The operator's kit in deploy/: systemd units that systemd-analyze accepts, an nginx site that
`nginx -t` accepts, and an environment file that names every setting Parcours reads."""

import configparser
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.certificates import self_signed_certificate

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = sorted((DEPLOY / "systemd").iterdir())
SERVICES = [unit for unit in UNITS if unit.suffix == ".service"]


def unit(path):
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read_string(path.read_text())
    return parser


def settings_read_from_the_environment():
    source = (ROOT / "config" / "settings.py").read_text()
    return set(re.findall(r'(?:environ\.get|env_\w+)\(\s*"([A-Z_]+)"', source))


def test_the_environment_file_names_every_setting():
    example = (DEPLOY / "parcours.env.example").read_text()
    named = set(re.findall(r"^#?([A-Z_]+)=", example, re.MULTILINE))
    assert settings_read_from_the_environment() - named == set()


def test_the_environment_file_reads_the_same_in_sh_as_in_systemd(tmp_path):
    """deploy/parcours-manage sources it with sh: quoted values come out whole, unquoted."""
    result = subprocess.run(
        [
            "sh",
            "-c",
            'set -a; . "$0"; printf "%s\\n" "$DEFAULT_FROM_EMAIL" "$GUNICORN_CMD_ARGS"',
            str(DEPLOY / "parcours.env.example"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.splitlines() == [
        "Parcours <parcours@parcours.example>",
        "--workers 3 --timeout 30 --access-logfile - --logger-class config.gunicorn.AccessLog",
    ]


def test_the_example_environment_passes_the_deploy_checks():
    example = (DEPLOY / "parcours.env.example").read_text()
    environment = {
        name: value.strip('"')
        for name, value in re.findall(r"^([A-Z_]+)=(.*)$", example, re.MULTILINE)
    }
    environment |= {"SECRET_KEY": secrets.token_urlsafe(50), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("path", SERVICES, ids=lambda path: path.name)
def test_each_service_runs_as_parcours_with_the_environment_file_and_restarts(path):
    service = unit(path)
    assert service["Service"]["User"] == "parcours"
    assert service["Service"]["EnvironmentFile"] == "/etc/parcours/env"
    assert service["Service"]["Restart"] in {"always", "on-failure"}
    assert service["Install"]["WantedBy"]


def test_the_timers_queue_digests_and_nudges_hourly_and_prune_daily():
    digests = unit(DEPLOY / "systemd" / "parcours-digests.timer")["Timer"]
    prune = unit(DEPLOY / "systemd" / "parcours-prune.timer")["Timer"]
    assert (digests["OnCalendar"], digests["Unit"]) == ("*-*-* *:05:00", "parcours-digests.service")
    assert (prune["OnCalendar"], prune["Unit"]) == ("*-*-* 03:17:00", "parcours-prune.service")
    for timer in (digests, prune):
        assert timer["Persistent"] == "true"
    service = (DEPLOY / "systemd" / "parcours-digests.service").read_text()
    assert "manage.py send_digests" in service and "manage.py send_nudges" in service


def test_every_pruning_command_runs_nightly():
    ours = {path.stem for path in ROOT.glob("*/management/commands/prune_*.py")}
    service = (DEPLOY / "systemd" / "parcours-prune.service").read_text()
    run = set(re.findall(r"manage\.py (prune_\w+)", service))
    assert ours <= run and "prune_db_task_results" in run


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not installed")
def test_systemd_accepts_the_units(tmp_path):
    """Verified as written, with /srv/parcours pointing at a directory that has the programs the
    units start (systemd-analyze checks that ExecStart= is executable)."""
    app = tmp_path / "srv"
    (app / ".venv" / "bin").mkdir(parents=True)
    for program in ("python", "gunicorn"):
        (app / ".venv" / "bin" / program).symlink_to(sys.executable)
    units = tmp_path / "units"
    units.mkdir()
    for path in UNITS:
        (units / path.name).write_text(path.read_text().replace("/srv/parcours", str(app)))
    result = subprocess.run(
        ["systemd-analyze", "verify", *sorted(str(path) for path in units.iterdir())],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stderr) == (0, "")


@pytest.mark.skipif(
    not shutil.which("nginx"), reason="nginx is not installed (.ci/run installs it)"
)
def test_nginx_accepts_the_site(tmp_path):
    """`nginx -t` on the site as written, with a self-signed certificate made here in place of
    the real one."""
    key, certificate = self_signed_certificate(tmp_path, "parcours.example")
    site = (DEPLOY / "nginx" / "parcours.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/parcours.example/fullchain.pem", str(certificate))
    site = site.replace("/etc/letsencrypt/live/parcours.example/privkey.pem", str(key))
    (tmp_path / "parcours.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\nevents {{}}\n"
        f"http {{\n  include /etc/nginx/mime.types;\n  include {tmp_path}/parcours.conf;\n}}\n"
    )
    result = subprocess.run(
        ["nginx", "-t", "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_the_nginx_site_passes_what_django_trusts_and_limits_bodies():
    site = (DEPLOY / "nginx" / "parcours.conf").read_text()
    for directive in (
        "proxy_set_header X-Forwarded-Proto $scheme;",
        "proxy_set_header X-Real-IP $remote_addr;",
        "client_max_body_size 1m;",
        "alias /srv/parcours/staticfiles/;",
        "listen 443 ssl",
        "server unix:/run/parcours/web.sock",
    ):
        assert directive in site
    socket = unit(DEPLOY / "systemd" / "parcours-web.socket")["Socket"]
    assert socket["ListenStream"] == "/run/parcours/web.sock"
