from django.urls import path

from curriculum import views

app_name = "curriculum"

urlpatterns = [
    path("guide/", views.guide, name="guide"),
]
