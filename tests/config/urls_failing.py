from django.urls import path


def failing_view(request):
    raise RuntimeError("boom\nsecond line")


urlpatterns = [path("fail/", failing_view)]
