from django.core.management import call_command


def run_worker():
    """Run every task due now, as `manage.py db_worker --batch` does, then stop (logging as in production)."""
    # Tests that run it are transactional: the worker commits as it goes, and on PostgreSQL it
    # closes a connection it finds inside a transaction, as a test's atomic block would be.
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=1)


def send_digests():
    call_command("send_digests", verbosity=0)
