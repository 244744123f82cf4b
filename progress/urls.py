from django.urls import path

from progress import views

app_name = "progress"

urlpatterns = [
    # Stats: the learner's weeks and coding days, the curators' view of the path
    path("stats/", views.stats_page, name="stats"),
    path("curators/progress/", views.curator_progress, name="curator_progress"),
]
