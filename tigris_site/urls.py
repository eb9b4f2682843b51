"""URL configuration: accounts (allauth), admin, health check and the games app."""

from django.contrib import admin
from django.urls import include, path

from tigris_site import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.urls")),
]
