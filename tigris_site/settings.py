"""Settings for the Tigris & Euphrates site, driven by the environment.

With no environment at all the site runs in the *embedded mode*: SQLite in ``var/``,
Celery tasks run eagerly in the web process, email written to files in ``var/mail/``,
DEBUG on and only localhost allowed. Production is chosen by the environment:

``DEBUG=0``             production mode; then ``SECRET_KEY`` and ``ALLOWED_HOSTS`` are required
``SECRET_KEY``          the signing key (required when DEBUG is off)
``ALLOWED_HOSTS``       comma-separated host names
``DATABASE_URL``        e.g. ``postgres://user:password@host:5432/tigris``
``CELERY_BROKER_URL``   e.g. ``redis://host:6379/0``; unset means tasks run eagerly
``EMAIL_URL``           e.g. ``smtp+tls://user:password@host:587``; unset means files in var/mail
``DEFAULT_FROM_EMAIL``  the sender of notification emails
``SITE_URL``            the public base URL used in emails, e.g. ``https://tigris.example``
``PG_PREPARE_THRESHOLD`` runs of a query on a connection before PostgreSQL prepares it
                        (default 5; ``off``: no server-side binding, for a pooler that
                        cannot keep prepared statements)
``CACHE_URL``           e.g. ``redis://host:6379/1``; unset means a per-process memory cache
                        (which also stands in while Redis does not answer: tigris_site.cache)
``PRERENDER_PARTIALS``  render waiting players' board in the worker after each move (default:
                        on when ``CACHE_URL`` and a broker are set; see ``games.web.prerender``)
``RENDER_WAIT_SECONDS``  with rendering ahead, the most a page's fetch waits for the board
                        the worker is rendering for its player before rendering it (0: never;
                        0.5 helps when the web processes are saturated)
``LIVE_REDIS_URL``      Redis for the game pages' live events (default: the broker's or the
                        cache's Redis; unset: each web process reads the versions itself)
``LIVE_AHEAD_WAIT_SECONDS`` with rendering ahead, the most a move's live event waits for the
                        worker's partials (0: at once; 0.5 pays when the web processes are
                        saturated, see the README's measured figures)
``API_RATE_ANON``       the read API's limit per address without a token (``60/min``)
``API_RATE_TOKEN``      the read API's limit per access token (``300/min``)
``NINJA_NUM_PROXIES``   trusted proxies in front (the client is read from X-Forwarded-For)
``WEBHOOKS_ALLOW_PRIVATE`` let webhooks reach private, loopback and link-local addresses
``WEBHOOKS_ALLOW_HTTP`` let webhooks use plain http (both off: https to public hosts only)
``WEBPUSH_VAPID_PRIVATE_KEY`` the VAPID private key signing browser push (``manage.py
                        vapid_keys`` makes a pair); unset: a key file (below) or push off
``WEBPUSH_VAPID_KEY_FILE`` a PEM file holding it (default in the embedded mode:
                        ``var/vapid-private.pem``, made on first use)
``WEBPUSH_SUBJECT``     the VAPID contact, ``mailto:…`` or ``https://…`` (default: mailto:
                        the address of ``DEFAULT_FROM_EMAIL``)
``SECURE_SSL_REDIRECT`` / ``SECURE_HSTS_SECONDS`` / ``SECURE_PROXY_SSL_HEADER_HTTPS``
                        TLS behaviour behind a proxy (production defaults are strict)

An invalid or missing production variable raises ``ImproperlyConfigured`` naming it;
``manage.py`` and the WSGI entry point turn that into one line on stderr
(see ``tigris_site.startup``).
"""

from __future__ import annotations

from pathlib import Path

import environ
from django.conf import global_settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from tigris_site.environment import database_from, mailer_from

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"  # local state: SQLite, mail files, static files, beat's schedule
VAR_DIR.mkdir(exist_ok=True)

env = environ.Env()

DEBUG = env.bool("DEBUG", default=True)

if DEBUG:
    SECRET_KEY = env.str("SECRET_KEY", default="embedded-mode-insecure-key-never-use-in-production")
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
else:
    SECRET_KEY = env.str("SECRET_KEY", default="")
    if len(SECRET_KEY) < 32:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set to a random string of at least 32 characters when DEBUG is off"
        )
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured(
            "ALLOWED_HOSTS must list the site's host names when DEBUG is off"
        )

SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "allauth",
    "allauth.account",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "tigris_site.middleware.permissions_policy",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # every 4xx under /api/ in JSON, also Django's own 404 and 405 (games/api/middleware.py)
    "games.api.middleware.JsonErrorsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # after AuthenticationMiddleware: a logged-in player's Profile.language beats the browser's
    "games.web.middleware.ProfileLanguageMiddleware",
    # allauth's class-based views put ``view`` (and through it request.user) in the context
    "games.web.middleware.AllauthContextMiddleware",
]

ROOT_URLCONF = "tigris_site.urls"
CSRF_FAILURE_VIEW = "tigris_site.views.csrf_failure"
WSGI_APPLICATION = "tigris_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",  # the admin's nonces
                # Last: values instead of Django's user, request, perms and messages (rows
                # whose relations reach a game's seed) on the site's own pages (issue 27).
                "games.web.viewer.page_values",
            ],
        },
    },
]

# --------------------------------------------------------------------------- database
DATABASES = {"default": database_from(env, sqlite_dir=VAR_DIR)}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --------------------------------------------------------------------------- cache
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    # Nothing cached is of record: while Redis does not answer, each process's memory
    # stands in (tigris_site.cache), and a hung Redis costs at most these timeouts.
    CACHES["default"]["BACKEND"] = "tigris_site.cache.FallbackRedisCache"
    CACHES["default"].setdefault("OPTIONS", {}).update(
        socket_connect_timeout=0.5, socket_timeout=0.5
    )

# --------------------------------------------------------------------------- accounts
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
# Django's hashers (PBKDF2 first). The test suite puts a fast one first through this variable
# (tests/conftest.py; a served subprocess reads it too): a PBKDF2 hash costs ~0.3 s a password.
PASSWORD_HASHERS = env.list("PASSWORD_HASHERS", default=global_settings.PASSWORD_HASHERS)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
# Players sign up with an email address and a display name (issue 5); allauth makes the
# username itself, which only the demo accounts type to log in.
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_SIGNUP_FORM_CLASS = "games.web.forms_accounts.SignupForm"  # adds the display name
ACCOUNT_FORMS = {"login": "games.web.forms_signin.LoginForm"}  # asks for the email address
ACCOUNT_ADAPTER = "games.mail.adapters.AccountAdapter"  # account emails go through the worker
ACCOUNT_USER_DISPLAY = "games.text.seats.display_name"  # in allauth's pages and emails
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True  # confirming in the signing-up browser logs in
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
# Addresses are verified by a code typed in the same browser: an address an account adds is
# stored only once verified, so an address added by someone else never blocks its owner's
# sign-up nor routes the owner's password reset into another account (issue 20).
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = True
# allauth keys its one-code-per-10-s limit ("confirm_email") by the address, so anyone who
# kept typing an address refused its owner a code (issue 28, finding 5). That limit is kept
# per account and address ("confirm_email_asker", games.mail.adapters.AccountAdapter): an
# account asking again within 10 s is refused, its owner is not. The address's mailbox and
# the codes' guessing stay bounded per sender IP (six codes a minute, three tries each).
ACCOUNT_RATE_LIMITS = {"confirm_email": "6/m/ip", "confirm_email_asker": "1/10s/key"}

# --------------------------------------------------------------------------- i18n
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --------------------------------------------------------------------------- static files
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
if DEBUG:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns about a missing root
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --------------------------------------------------------------------------- email
# Django 6.1 MAILERS; EMAIL_URL (smtp://, smtp+tls://, smtp+ssl://) picks SMTP.
MAILERS = {"default": mailer_from(env, files_dir=VAR_DIR / "mail")}
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Tigris & Euphrates <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --------------------------------------------------------------------------- the read API
# and webhooks (issue 19; games/api/, games/webhooks/). The API's throttles count in the
# default cache: set CACHE_URL so every web process shares the counts.
API_RATE_ANON = env.str("API_RATE_ANON", default="60/min")
API_RATE_TOKEN = env.str("API_RATE_TOKEN", default="300/min")
# 0: the address is REMOTE_ADDR; N: the N-th address from the end of X-Forwarded-For.
NINJA_NUM_PROXIES = env.int("NINJA_NUM_PROXIES", default=0)
# Webhook URLs must be https to a public address; a local receiver (tests, an intranet)
# needs these. Addresses are checked when a webhook is added and again at each delivery.
WEBHOOKS_ALLOW_PRIVATE = env.bool("WEBHOOKS_ALLOW_PRIVATE", default=False)
WEBHOOKS_ALLOW_HTTP = env.bool("WEBHOOKS_ALLOW_HTTP", default=False)
WEBHOOK_TIMEOUT = env.float("WEBHOOK_TIMEOUT", default=5.0)

# --------------------------------------------------------------------------- browser push
# (issue 29, games/push/): a VAPID key pair signs every push. Production sets the private
# key (`manage.py vapid_keys` makes a pair); the embedded mode makes one once into a file in
# var/ (git-ignored). Neither: push is off. The public key is derived from the private one.
WEBPUSH_VAPID_PRIVATE_KEY = env.str("WEBPUSH_VAPID_PRIVATE_KEY", default="")
WEBPUSH_VAPID_KEY_FILE = env.str(
    "WEBPUSH_VAPID_KEY_FILE", default=str(VAR_DIR / "vapid-private.pem") if DEBUG else ""
)
WEBPUSH_SUBJECT = env.str("WEBPUSH_SUBJECT", default="")  # mailto: or https: (RFC 8292 §2.1)
WEBPUSH_TIMEOUT = env.float("WEBPUSH_TIMEOUT", default=10.0)  # seconds a push service has
WEBPUSH_TTL = env.int("WEBPUSH_TTL", default=24 * 3600)  # seconds it keeps one for a browser

# --------------------------------------------------------------------------- celery
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not CELERY_BROKER_URL)
if not CELERY_BROKER_URL:
    if not CELERY_TASK_ALWAYS_EAGER:
        raise ImproperlyConfigured(
            "CELERY_BROKER_URL must be set when CELERY_TASK_ALWAYS_EAGER is off"
        )
    CELERY_BROKER_URL = "memory://"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A web request queuing a task after its commit gives a broker that does not answer one
# quick retry, not Celery's default three (games.core.queue.enqueue logs it; sweeps make up).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TIMEZONE = "UTC"
# games.web.prerender: only with a cache the web processes share and a worker off the request
PRERENDER_PARTIALS = env.bool(
    "PRERENDER_PARTIALS",
    default=bool(env.str("CACHE_URL", default="")) and not CELERY_TASK_ALWAYS_EAGER,
)
# The most a page's fetch waits for the player's board that the worker (or another tab) is
# rendering, before rendering it itself (games.web.prerender.partial_fetched, issue 29). 0 by
# default: on a quiet machine a fetch rendering beside the worker had the better tail (p95
# 219 against 322 ms); at load 4-5 waiting won a little (fetch p95 302 -> 248 ms).
RENDER_WAIT_SECONDS = env.float("RENDER_WAIT_SECONDS", default=0.0)
# --------------------------------------------------------------------------- live pages
# games.core.live / games.web.live (issue 29): a move's new version reaches the open game
# pages through Redis pub/sub when there is a Redis (LIVE_REDIS_URL, else the broker's or the
# cache's when they are Redis); without one each web process reads the version column of the
# games its streams watch every LIVE_POLL_SECONDS (one query a tick for them all).
_redis_urls = [env.str(n, default="") for n in ("CELERY_BROKER_URL", "CACHE_URL")]
LIVE_REDIS_URL = env.str(
    "LIVE_REDIS_URL",
    default=next((u for u in _redis_urls if u.startswith(("redis://", "rediss://"))), ""),
)
LIVE_POLL_SECONDS = env.float("LIVE_POLL_SECONDS", default=0.25)
LIVE_FALLBACK_SECONDS = env.float("LIVE_FALLBACK_SECONDS", default=5.0)  # with Redis
# With rendering ahead (PRERENDER_PARTIALS) a move's version is announced once the worker has
# stored the partials, or this many seconds after the commit when the worker is late. 0 (the
# default) announces at once: faster on a machine with CPU to spare (p95 371 vs 541 ms, quiet),
# slower on a saturated one (p95 1,214 vs 1,039 ms at load 8) — README, "Measured".
LIVE_AHEAD_WAIT_SECONDS = env.float("LIVE_AHEAD_WAIT_SECONDS", default=0.0)
# Stream views (visibility, then the hand-off) run at once per ASGI process: each holds a
# thread and a database connection while it runs (games.web.live.LiveStreams).
LIVE_OPEN_CONCURRENCY = env.int("LIVE_OPEN_CONCURRENCY", default=16)
LIVE_HEARTBEAT_SECONDS = env.float("LIVE_HEARTBEAT_SECONDS", default=15.0)
LIVE_STREAM_SECONDS = env.float("LIVE_STREAM_SECONDS", default=300.0)  # then it reconnects
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # the email outbox (games/tasks.py): lost messages, batched emails, daily digests
    "sweep-outbox": {"task": "games.tasks.sweep_outbox", "schedule": 60.0},
    "sweep-webhooks": {"task": "games.tasks.sweep_webhooks", "schedule": 60.0},
    "send-batched": {"task": "games.tasks.send_batched", "schedule": 60.0},
    "send-daily-digest": {"task": "games.tasks.send_daily_digest", "schedule": 300.0},
    # time controls (issue 6): vacations ending, reminders, timeouts, expired open games
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": 60.0},
    # tournaments (issue 30): due starts, games past their maximum duration, stuck rounds
    "sweep-tournaments": {"task": "games.tasks.sweep_tournaments", "schedule": 60.0},
}
# Bots (issue 15, games/play/bots.py). With a broker each bot action is a task on its own
# queue, "bots", queued after the commit of the move that makes a game wait on a bot (run
# `celery worker -Q bots`, scaled apart from the email worker), and beat's sweep re-queues
# games left waiting a minute. Eager (the embedded mode) a queued task would run inside the
# player's request, after its commit but before the answer: so nothing is queued, and the
# sweeps process beside the server (`manage.py run_sweeps`) plays waiting bots every second.
BOTS_QUEUED = env.bool("BOTS_QUEUED", default=not CELERY_TASK_ALWAYS_EAGER)
BOT_SWEEP_AFTER_SECONDS = env.float("BOT_SWEEP_AFTER_SECONDS", default=60.0 if BOTS_QUEUED else 0.0)
BOT_HARD_TIME_LIMIT = env.float("BOT_HARD_TIME_LIMIT", default=2.5)  # seconds a hard bot thinks
# Seconds a bot waits before an action that follows one played for a seat (its own last
# action, another bot's), so the person sees each action of a bot's turn appear; none after
# a person's own move (games.play.botturns.bot_pause, issue 29). 0 in the real-services
# tests, which play whole games through the worker.
BOT_PAUSE_SECONDS = env.float("BOT_PAUSE_SECONDS", default=0.5)
# Games with a bot one account may have open or in progress at once (issue 28): with at
# most one bot task queued a game, no account holds more than this many places in the
# bots' queue, and the sweep serves accounts round-robin (games.play.bots.fair_order).
BOT_GAMES_PER_ACCOUNT = env.int("BOT_GAMES_PER_ACCOUNT", default=5)
CELERY_TASK_ROUTES = {
    "games.tasks.play_bot_move": {"queue": "bots"},
    "games.tasks.sweep_bots": {"queue": "bots"},
}
# Standing orders (issue 17) answer in their own step after a delay drawn like a person's
# (issue 28, games.play.orderturns): log-normal seconds, median and spread, cut to [low, high].
ORDER_ANSWER_DELAY = {"median": 40.0, "sigma": 1.0, "low": 5.0, "high": 1800.0}
# With a broker each push is a `send_push` task queued at the email's commit. Eager (the
# embedded mode) that task would post to the push service inside the player's request, so
# nothing is queued: the sweeps process (`run_sweeps`) posts the new rows every 2 seconds.
PUSH_QUEUED = env.bool("PUSH_QUEUED", default=not CELERY_TASK_ALWAYS_EAGER)
CELERY_BEAT_SCHEDULE["sweep-push"] = {
    "task": "games.tasks.sweep_push",
    "schedule": 60.0 if PUSH_QUEUED else 2.0,
}
CELERY_BEAT_SCHEDULE["sweep-orders"] = {
    "task": "games.tasks.sweep_orders",
    "schedule": 60.0 if BOTS_QUEUED else 1.0,
}
# Embedded: the sweeps process is the bots' player, so it looks every quarter second (one
# indexed query) and a bot's answer to a person's move shows within a second (issue 29).
CELERY_BEAT_SCHEDULE["sweep-bots"] = {
    "task": "games.tasks.sweep_bots",
    "schedule": 30.0 if BOTS_QUEUED else 0.25,
}

# --------------------------------------------------------------------------- security
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # HTMX reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe gunicorn over plain HTTP
if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
    if env.bool("SECURE_PROXY_SSL_HEADER_HTTPS", default=False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Content-Security-Policy (Django's ContentSecurityPolicyMiddleware): only the site's own
# scripts, styles, images, fonts and connections; no inline script or style of ours (htmx's
# indicator style and eval are off in base.html's htmx-config); the admin's few inline
# scripts and styles carry the per-response nonce. Production enforces it; the embedded
# mode only reports, so Django's debug pages (inline, no nonce) stay readable while the
# browser console still names every violation. The browser tests enforce it.
CONTENT_SECURITY_POLICY = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
if DEBUG:
    SECURE_CSP_REPORT_ONLY = CONTENT_SECURITY_POLICY
else:
    SECURE_CSP = CONTENT_SECURITY_POLICY
# tigris_site.middleware.permissions_policy: no powerful browser feature is used
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), "
    "magnetometer=(), microphone=(), midi=(), payment=(), usb=()"
)

# --------------------------------------------------------------------------- logging
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
