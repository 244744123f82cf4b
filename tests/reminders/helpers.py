from django.core.management import call_command


def run_worker():
    """Run every task due now, as `manage.py db_worker --batch` does, then stop."""
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)


def send_digests():
    call_command("send_digests", verbosity=0)
