from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from accounts.deletion import forget_learner
from accounts.forms import AccountChangeForm

User = get_user_model()

# The database refuses usernames and e-mails that differ only in case: say so in the form.
admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    form = AccountChangeForm

    def delete_model(self, request, obj):
        forget_learner(obj)
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        # Sessions, the sign-in log and group ownership do not cascade from the user row.
        for user in queryset:
            forget_learner(user)
        super().delete_queryset(request, queryset)
