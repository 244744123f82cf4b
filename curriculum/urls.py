from django.urls import path

from curriculum import views

app_name = "curriculum"

urlpatterns = [
    path("resources/", views.resource_list, name="resource_list"),
    path("resources/<slug:slug>/", views.resource_detail, name="resource_detail"),
    path("guide/", views.guide, name="guide"),
]
