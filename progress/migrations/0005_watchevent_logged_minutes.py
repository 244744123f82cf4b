# A sitting's own minutes, so that a learner can correct or delete it. Until now only its change
# in minutes watched was kept (WatchEvent.minutes), which is less than what was entered when the
# resource had been marked watched before. The data step replays each learner's history of each
# resource to recover the minutes entered; where the history cannot tell (a sitting that changed
# nothing), the rest of Watch.logged_minutes is shared among those sittings, so that their sum
# stays equal to it.

from django.db import migrations, models

SITTING, FINISHED, UNFINISHED = "sitting", "finished", "unfinished"


def sitting_minutes(events, duration, logged_total):
    """(event, minutes entered) for each sitting among events, in the order they happened."""
    logged, finished = 0, False
    known, unknown = [], []
    for event in events:
        if event.kind == FINISHED:
            finished = True
        elif event.kind == UNFINISHED:
            finished = False
        elif event.kind == SITTING:
            if not finished or not duration or logged >= duration:
                entered = max(event.minutes, 0)
            elif event.minutes > 0:
                entered = event.minutes + duration - logged
            else:
                unknown.append(event)
                continue
            known.append((event, entered))
            logged += entered
            if not finished and duration and logged >= duration:
                finished = True
    rest = max(logged_total - logged, 0)
    shares = [rest // len(unknown)] * len(unknown) if unknown else []
    if shares:
        shares[-1] += rest - sum(shares)
    return known + list(zip(unknown, shares, strict=True))


def fill_logged_minutes(apps, schema_editor):
    watch_event = apps.get_model("progress", "WatchEvent")
    watch = apps.get_model("progress", "Watch")
    totals = {
        (row.user_id, row.resource_id): row.logged_minutes
        for row in watch.objects.only("user_id", "resource_id", "logged_minutes")
    }
    pairs = (
        watch_event.objects.filter(kind=SITTING).values_list("user_id", "resource_id").distinct()
    )
    for user_id, resource_id in pairs:
        events = list(
            watch_event.objects.filter(user_id=user_id, resource_id=resource_id)
            .select_related("resource")
            .order_by("at", "pk")
        )
        duration = events[0].resource.duration_minutes
        changed = []
        for event, entered in sitting_minutes(
            events, duration, totals.get((user_id, resource_id), 0)
        ):
            event.logged_minutes = entered
            changed.append(event)
        watch_event.objects.bulk_update(changed, ["logged_minutes"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("progress", "0004_minutes_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="watchevent",
            name="logged_minutes",
            field=models.PositiveIntegerField(
                default=0,
                help_text="For a sitting, the minutes the learner entered; 0 for other kinds.",
                verbose_name="minutes logged",
            ),
        ),
        migrations.RunPython(fill_logged_minutes, migrations.RunPython.noop, elidable=False),
    ]
