"""URL configuration: accounts (allauth), admin, health check and the games app."""

from django.contrib import admin
from django.urls import include, path

from games.web.views.i18n import set_language
from tigris_site import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    # Django's set_language, also saving a logged-in player's choice to their profile
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("games.urls")),
]
