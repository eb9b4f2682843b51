"""URLs of the games app: the lobby, game pages, actions, polling, replay, records, analysis."""

from django.urls import path
from django.views.generic import RedirectView

from games.web.views import accounts as views_accounts
from games.web.views import api_settings as views_api
from games.web.views import charts as views_charts
from games.web.views import community as views_community
from games.web.views import game as views
from games.web.views import i18n as views_i18n
from games.web.views import leagues as views_leagues
from games.web.views import lobby as views_lobby
from games.web.views import orders as views_orders
from games.web.views import push as views_push
from games.web.views import records as views_records
from games.web.views import tournaments as views_tournaments
from games.web.views import vacation as views_vacation

app_name = "games"

urlpatterns = [
    path("", views_lobby.lobby, name="lobby"),
    path("games/new", views_lobby.game_create, name="create"),
    path("games/bot", views_lobby.play_bot, name="play_bot"),
    path("games/finished", views_lobby.games_finished_page, name="finished"),
    path("games/open", views_lobby.open_games, name="open"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/act", views.game_act, name="act"),
    path("games/<int:game_id>/poll", views.game_poll, name="poll"),
    path("games/<int:game_id>/live", views.game_live, name="live"),
    path("games/<int:game_id>/preview", views.game_preview, name="preview"),
    path("games/<int:game_id>/join", views.game_join, name="join"),
    path("games/<int:game_id>/leave", views.game_leave, name="leave"),
    path("games/<int:game_id>/resign", views.game_resign, name="resign"),
    path("games/<int:game_id>/invite/<str:token>", views.game_invite, name="invite"),
    path("games/<int:game_id>/replay", views.game_replay, name="replay"),
    # game records and the analysis board (issue 19)
    path("games/<int:game_id>/record.json", views_records.record_json, name="record_json"),
    path("games/<int:game_id>/record.txt", views_records.record_txt, name="record_txt"),
    path("games/<int:game_id>/analyse", views_records.analysis_from_game, name="analyse"),
    path("analysis/", views_records.analysis_board, name="analysis"),
    path("analysis/act", views_records.analysis_act, name="analysis_act"),
    path("analysis/load", views_records.analysis_load, name="analysis_load"),
    # players around a game (issue 18)
    path("games/<int:game_id>/chat", views_community.chat_lines, name="chat"),
    path("games/<int:game_id>/chat/send", views_community.chat_post, name="chat_post"),
    path(
        "games/<int:game_id>/chat/<int:message_id>/report",
        views_community.chat_report,
        name="chat_report",
    ),
    path(
        "games/<int:game_id>/chat/mute/<int:user_id>", views_community.chat_mute, name="chat_mute"
    ),
    path("games/<int:game_id>/notes", views_community.notes_save, name="notes"),
    path("games/<int:game_id>/rematch", views_community.game_rematch, name="rematch"),
    path(
        "invitations/<int:invitation_id>/accept",
        views_community.invitation_accept,
        name="invitation_accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline",
        views_community.invitation_decline,
        name="invitation_decline",
    ),
    path("players/<int:user_id>/rating.svg", views_charts.rating_svg, name="rating_svg"),
    path(
        "games/<int:game_id>/colours/<int:seat>.svg", views_charts.colours_svg, name="colours_svg"
    ),
    path("players/<int:user_id>/follow", views_community.player_follow, name="follow"),
    path("players/<int:user_id>/mute", views_community.player_mute, name="mute"),
    path("games/<int:game_id>/orders", views_orders.game_orders, name="orders"),
    path("settings/orders", views_orders.settings_orders, name="settings_orders"),
    # accounts, notifications and ratings (issue 5)
    path("settings", views_accounts.settings_page, name="settings"),
    # the address as often typed, with a slash (issue 32)
    path("settings/", RedirectView.as_view(pattern_name="games:settings", permanent=True)),
    path("settings/vacation", views_vacation.vacation_start, name="vacation_start"),
    path("settings/vacation/end", views_vacation.vacation_end, name="vacation_end"),
    # API tokens and webhooks (issue 19)
    path("settings/tokens", views_api.token_create, name="token_create"),
    path("settings/tokens/<int:token_id>/revoke", views_api.token_revoke, name="token_revoke"),
    path("settings/webhooks", views_api.webhook_add, name="webhook_add"),
    path(
        "settings/webhooks/<int:webhook_id>/remove", views_api.webhook_remove, name="webhook_remove"
    ),
    # browser notifications (issue 29)
    path("settings/push", views_push.push_subscribe, name="push_subscribe"),
    path("settings/push/remove", views_push.push_unsubscribe, name="push_unsubscribe"),
    path("players/<int:user_id>/", views_accounts.profile_page, name="profile"),
    path("tournaments/", views_tournaments.tournaments_page, name="tournaments"),
    path("tournaments/new", views_tournaments.tournament_create, name="tournament_create"),
    path("tournaments/<int:tournament_id>/", views_tournaments.tournament_page, name="tournament"),
    path(
        "tournaments/<int:tournament_id>/record.json",
        views_tournaments.tournament_record,
        name="tournament_record",
    ),
    path(
        "tournaments/<int:tournament_id>/register",
        views_tournaments.tournament_register,
        name="tournament_register",
    ),
    path(
        "tournaments/<int:tournament_id>/leave",
        views_tournaments.tournament_leave,
        name="tournament_leave",
    ),
    path(
        "tournaments/<int:tournament_id>/start",
        views_tournaments.tournament_start,
        name="tournament_start",
    ),
    path("leagues/", views_leagues.leagues_page, name="leagues"),
    path("leagues/new", views_leagues.league_create, name="league_create"),
    path("leagues/<int:league_id>/", views_leagues.league_page, name="league"),
    path("leagues/<int:league_id>/join", views_leagues.league_join, name="league_join"),
    path("leagues/<int:league_id>/leave", views_leagues.league_leave, name="league_leave"),
    path("leagues/<int:league_id>/manage", views_leagues.league_manage, name="league_manage"),
    path(
        "leagues/<int:league_id>/manage/registration",
        views_leagues.league_registration,
        name="league_registration",
    ),
    path(
        "leagues/<int:league_id>/manage/remove", views_leagues.league_remove, name="league_remove"
    ),
    path("rules/", views_i18n.rules_page, name="rules"),
    path("faq/", views_i18n.faq_page, name="faq"),
    path("leaderboard", views_accounts.leaderboard, name="leaderboard"),
    path("unsubscribe/<str:token>", views_accounts.unsubscribe, name="unsubscribe"),
]
