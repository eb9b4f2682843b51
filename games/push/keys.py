"""The site's VAPID key pair (RFC 8292): what signs every push and what browsers subscribe to.

Production sets ``WEBPUSH_VAPID_PRIVATE_KEY`` (``manage.py vapid_keys`` makes one); the
embedded mode needs no setup: a pair is made once into ``WEBPUSH_VAPID_KEY_FILE``
(``var/vapid-private.pem``, git-ignored) and read from there by every process. With
neither, push is off: the settings page says so and nothing is queued.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import os
import tempfile
from dataclasses import dataclass
from email.utils import parseaddr
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid


@dataclass(frozen=True)
class VapidKeys:
    """The site's pair: ``signer`` signs (py_vapid's ``Vapid``), ``public`` is the
    applicationServerKey browsers subscribe with (base64url of the 65-byte P-256 point)."""

    signer: Vapid
    public: str


def public_key_text(vapid: Vapid) -> str:
    """Return ``vapid``'s public key as a browser's ``applicationServerKey`` (base64url)."""
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def private_key_text(vapid: Vapid) -> str:
    """Return ``vapid``'s private key as ``WEBPUSH_VAPID_PRIVATE_KEY`` takes it (base64url DER)."""
    der = vapid.private_key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return base64.urlsafe_b64encode(der).rstrip(b"=").decode()


def _key_file(path: Path) -> Vapid:
    """Read the pair in ``path``, making it first if there is none.

    Two processes starting at once (the server and the sweeps) may both make one: each
    writes its own to a temporary file and links it into place, which only the first
    does; both then read the file, so every process signs with the same key.
    """
    if not path.exists():
        vapid = Vapid()
        vapid.generate_keys()
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".vapid-")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(vapid.private_pem())
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    return Vapid.from_file(str(path))


@functools.cache
def vapid_keys() -> VapidKeys | None:
    """Return the site's VAPID pair, or None when push is off (no key, no key file).

    Raises ``py_vapid.VapidException`` or ``ValueError`` for a key that cannot be read.
    """
    if settings.WEBPUSH_VAPID_PRIVATE_KEY:
        text = settings.WEBPUSH_VAPID_PRIVATE_KEY.strip()
        if text.startswith("-----BEGIN"):
            vapid = Vapid.from_pem(text.encode())
        else:
            vapid = Vapid.from_string(text)
    elif settings.WEBPUSH_VAPID_KEY_FILE:
        vapid = _key_file(Path(settings.WEBPUSH_VAPID_KEY_FILE))
    else:
        return None
    return VapidKeys(signer=vapid, public=public_key_text(vapid))


def vapid_subject() -> str:
    """Return the ``sub`` claim: ``WEBPUSH_SUBJECT``, else ``mailto:`` the site's sender."""
    if settings.WEBPUSH_SUBJECT:
        return str(settings.WEBPUSH_SUBJECT)
    return "mailto:" + (parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or "noreply@localhost")
