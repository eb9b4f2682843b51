"""URL configuration: accounts (allauth), admin, health check, the read API and the games app."""

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from games.api.api import api
from games.web.views import accounts as account_views
from games.web.views.i18n import set_language
from tigris_site import views

# The admin logs in through the site's login (allauth), with its attempt limits: Django's
# own admin login form has none. A logged-in account that is not staff is refused.
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    # installable (issue 29): the manifest, the service worker over the whole site, offline
    path("manifest.webmanifest", views.web_manifest, name="web_manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("admin/", admin.site.urls),
    # the emailed code's page, its code filled in from the email's link (issue 32)
    path(
        "accounts/confirm-email/",
        account_views.email_verification_sent,
        name="account_email_verification_sent",
    ),
    path("accounts/", include("allauth.urls")),
    # Django's set_language, also saving a logged-in player's choice to their profile
    path("i18n/setlang/", set_language, name="set_language"),
    # the read API (issue 19, games/api/): /api/v1/…, its schema at /api/v1/openapi.json
    path("api/v1/", api.urls),
    path("", include("games.urls")),
]
