app_name = "curriculum"

urlpatterns = []
