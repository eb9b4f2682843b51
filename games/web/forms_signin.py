"""allauth's sign-in form, asking for what a player signed up with (``ACCOUNT_FORMS``).

A module of its own: allauth's forms module imports the sign-up form class
(``ACCOUNT_SIGNUP_FORM_CLASS``, ``games.web.forms_accounts``) while it loads, so that module
cannot import allauth's forms back. This one is loaded by allauth when a sign-in page is
asked for, after its forms are loaded.
"""

from __future__ import annotations

from typing import Any

from allauth.account.forms import LoginForm as AllauthLoginForm
from django.utils.translation import gettext_lazy as _


class LoginForm(AllauthLoginForm):  # type: ignore[misc]  # allauth ships no type hints
    """allauth's sign-in (``ACCOUNT_FORMS["login"]``) asking for what a player signed up with.

    Players sign up with an email address and never see a username, so the field is named
    as the sign-up names it; a username is still accepted (the demo accounts print theirs).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        login.label = _("Email")
        login.widget.attrs["placeholder"] = _("Email address")
