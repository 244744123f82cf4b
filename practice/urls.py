from django.urls import path

from practice import views

app_name = "practice"

urlpatterns = [
    path("practice/<slug:slug>/", views.exercise, name="exercise"),
    path("practice/<slug:slug>/submit/", views.submit, name="submit"),
    path("practice/<slug:slug>/submissions/", views.submissions, name="submissions"),
]
