from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views
from accounts.forms import SignInForm
from accounts.throttling import ThrottledPasswordResetForm

# The learner's settings, their export and the deletion of the account (accounts/views.py).
settings_patterns = [
    path("", views.settings, name="settings"),
    path("export.json", views.export_json, name="export_json"),
    path("export.zip", views.export_csv, name="export_csv"),
    path("delete/", views.delete_account, name="delete_account"),
]

# The pages of templates/registration/ keep Django's names without a namespace ("login",
# "password_reset_done", ...): Django's auth views and e-mails reverse them so. They are listed
# here rather than included from django.contrib.auth.urls, so that each route is defined once.
urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            authentication_form=SignInForm, template_name="registration/login.jinja"
        ),
        name="login",
    ),
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(
            form_class=ThrottledPasswordResetForm,
            template_name="registration/password_reset_form.jinja",
            email_template_name="registration/password_reset_email.jinja",
            subject_template_name="registration/password_reset_subject.jinja",
        ),
        name="password_reset",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(
            template_name="registration/password_change_form.jinja"
        ),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="registration/password_change_done.jinja"
        ),
        name="password_change_done",
    ),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(
            template_name="registration/password_reset_done.jinja"
        ),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="registration/password_reset_confirm.jinja"
        ),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="registration/password_reset_complete.jinja"
        ),
        name="password_reset_complete",
    ),
    path("settings/", include((settings_patterns, "accounts"))),
]
