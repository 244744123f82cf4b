from django.urls import path

from progress import views

urlpatterns = [
    path("", views.home, name="home"),
]
