from django.urls import path

from curation import views

app_name = "curation"

urlpatterns = [
    # How learners move along the path, by cohort or study group (staff only)
    path("curators/progress/", views.curator_progress, name="curator_progress"),
]
