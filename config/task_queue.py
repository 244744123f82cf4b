"""django-tasks-db under French and English names in the admin.

The package names its app "Tasks Database Backend" in a plain string and ships no French
catalogue: this AppConfig gives the app a translatable name, and the strings below put the
package's own (gettext'd) model and field names into our catalogues, where `make messages`
keeps them and Django finds them first (LOCALE_PATHS). Its admin titles three columns with plain
strings ("task name", "traceback", "run after"): ready() registers the same admin with
translated titles (the admin app, listed first, has registered the package's by then).
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from django_tasks_db.apps import TasksAppConfig


class TaskQueueConfig(TasksAppConfig):
    verbose_name = _("Task queue")  # type: ignore[assignment]  # Django takes a lazy name

    def ready(self):
        super().ready()
        from django.contrib import admin
        from django_tasks_db.admin import DBTaskResultAdmin
        from django_tasks_db.models import DBTaskResult

        class TaskResultAdmin(DBTaskResultAdmin):
            list_display = ("id", "name", *DBTaskResultAdmin.list_display[2:])

            @admin.display(description=_("task"))
            def name(self, obj):
                return obj.task_name

            @admin.display(description=_("traceback"))
            def formatted_traceback(self, obj):
                return super().formatted_traceback(obj)

            @admin.display(description=_("run after"))
            def display_run_after(self, obj):
                return super().display_run_after(obj)

        if admin.site.is_registered(DBTaskResult):
            admin.site.unregister(DBTaskResult)
        admin.site.register(DBTaskResult, TaskResultAdmin)


# django_tasks_db/models.py and admin.py: its verbose names, translated in locale/.
PACKAGE_STRINGS = [
    gettext_noop("Task Result"),
    gettext_noop("Task Results"),
    gettext_noop("status"),
    gettext_noop("enqueued at"),
    gettext_noop("started at"),
    gettext_noop("finished at"),
    gettext_noop("args kwargs"),
    gettext_noop("priority"),
    gettext_noop("task path"),
    gettext_noop("worker id"),
    gettext_noop("queue name"),
    gettext_noop("backend name"),
    gettext_noop("run after"),
    gettext_noop("return value"),
    gettext_noop("exception class path"),
    gettext_noop("traceback"),
]
