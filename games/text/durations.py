"""Django's words for durations (``timesince``/``timeuntil``), kept in this catalogue.

Django's own zh-hans words read "剩余2 日，23 小时"; with the same msgids here, this
catalogue (``LOCALE_PATHS``, searched first) makes them "剩余 2 天 23 小时" (issue 32).
Nothing calls these values: they name the msgids ``makemessages`` must keep.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

# Translators: This string is used as a separator between list elements
SEPARATOR = gettext_noop(", ")
UNITS = (
    ngettext_lazy("%(num)d year", "%(num)d years", "num"),
    ngettext_lazy("%(num)d month", "%(num)d months", "num"),
    ngettext_lazy("%(num)d week", "%(num)d weeks", "num"),
    ngettext_lazy("%(num)d day", "%(num)d days", "num"),
    ngettext_lazy("%(num)d hour", "%(num)d hours", "num"),
    ngettext_lazy("%(num)d minute", "%(num)d minutes", "num"),
)
