from django.urls import include, path

from api import tokens
from api.api import api

# Personal access tokens are created and revoked from the settings (api/tokens.py).
token_patterns = [
    path("", tokens.token_list, name="list"),
    path("<int:pk>/revoke/", tokens.revoke_token, name="revoke"),
]

urlpatterns = [
    path("api/v1/", api.urls),
    path("settings/tokens/", include((token_patterns, "tokens"))),
]
