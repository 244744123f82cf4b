import threading

from django.core.management import call_command
from django.db import connection
from django_tasks_db.management.commands.db_worker import Worker


def run_worker():
    """Run every task due now, as `manage.py db_worker --batch` does, then stop (logging as in production)."""
    # Tests that run it are transactional: the worker commits as it goes, and on PostgreSQL it
    # closes a connection it finds inside a transaction, as a test's atomic block would be.
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=1)


def send_digests():
    call_command("send_digests", verbosity=0)


def run_workers_at_once(count: int = 2) -> list[Exception]:
    """Run count db_worker loops in threads side by side until the queue is empty; their errors."""
    errors = []

    def worker():
        # db_worker's own loop; the command itself would set signal handlers, main thread only.
        try:
            Worker(
                queue_names=["default"],
                interval=0,
                batch=True,
                backend_name="default",
                startup_delay=False,
                max_tasks=None,
                worker_id=threading.current_thread().name,
                excluded_queue_names=[],
            ).run()
        except Exception as error:  # pragma: no cover - reported by the caller
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return errors
