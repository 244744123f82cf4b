from django.apps import AppConfig


class AccountsConfig(AppConfig):
    # No models of its own this round: the learner's Profile stays in progress.
    name = "accounts"

    def ready(self):
        # Connects the sign-in receiver that applies the learner's saved language.
        from accounts import language  # noqa: F401
