"""URLs of the games app: the lobby, game pages, actions, polling and replay."""

from django.urls import path

from games.web.views import accounts as views_accounts
from games.web.views import game as views
from games.web.views import i18n as views_i18n
from games.web.views import vacation as views_vacation

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new", views.game_create, name="create"),
    path("games/bot", views.play_bot, name="play_bot"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/act", views.game_act, name="act"),
    path("games/<int:game_id>/poll", views.game_poll, name="poll"),
    path("games/<int:game_id>/preview", views.game_preview, name="preview"),
    path("games/<int:game_id>/join", views.game_join, name="join"),
    path("games/<int:game_id>/leave", views.game_leave, name="leave"),
    path("games/<int:game_id>/resign", views.game_resign, name="resign"),
    path("games/<int:game_id>/invite/<str:token>", views.game_invite, name="invite"),
    path("games/<int:game_id>/replay", views.game_replay, name="replay"),
    # accounts, notifications and ratings (issue 5)
    path("settings", views_accounts.settings_page, name="settings"),
    path("settings/vacation", views_vacation.vacation_start, name="vacation_start"),
    path("settings/vacation/end", views_vacation.vacation_end, name="vacation_end"),
    path("players/<int:user_id>/", views_accounts.profile_page, name="profile"),
    path("rules/", views_i18n.rules_page, name="rules"),
    path("leaderboard", views_accounts.leaderboard, name="leaderboard"),
    path("unsubscribe/<str:token>", views_accounts.unsubscribe, name="unsubscribe"),
]
