"""The learner's weeks and coding days (progress/stats.py counts them, progress/charts.py draws them)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from progress import charts, stats


@require_GET
@login_required
def stats_page(request):
    learner = stats.learner_stats(request.user)
    context = {
        "stats": learner,
        "chart": charts.weekly_chart(learner.weeks),
        "calendar": charts.heatmap_chart(learner.heatmap),
        "legend": charts.legend_cells(),
    }
    return render(request, "progress/stats.html", context)
