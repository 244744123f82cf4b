from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views
from accounts.forms import SignInForm
from accounts.throttling import ThrottledPasswordResetForm

# The learner's settings, their export and the deletion of the account (accounts/views.py).
settings_patterns = [
    path("", views.settings_page, name="settings"),
    path("export.json", views.export_json, name="export_json"),
    path("export.zip", views.export_csv, name="export_csv"),
    path("delete/", views.delete_account, name="delete_account"),
]

# The pages of templates/registration/ keep Django's names without a namespace ("login",
# "password_reset_done", ...): Django's auth views and e-mails reverse them so.
urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=SignInForm),
        name="login",
    ),
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(form_class=ThrottledPasswordResetForm),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("settings/", include((settings_patterns, "accounts"))),
]
