"""The site's URLs plus a token-free page that says itself how long it may be cached."""

from django.http import HttpResponse
from django.urls import path
from django.views.decorators.cache import cache_control

from config.urls import urlpatterns as site_urlpatterns


@cache_control(public=True, max_age=60)
def public_page(request):
    return HttpResponse("the same for everyone")


urlpatterns = [path("test-public/", public_page), *site_urlpatterns]
