"""Forms of the analysis board: load a record (pasted or uploaded) or paste a diagram."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

MAX_RECORD_BYTES = 512 * 1024  # a 4-player record of 300 plies is about 40 kB


class RecordLoadForm(forms.Form):
    """A game record (docs/record-format.md): pasted JSON or an uploaded ``record.json``."""

    record = forms.CharField(
        label=_("Paste a game record (JSON)"),
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
        required=False,
        max_length=MAX_RECORD_BYTES,
    )
    record_file = forms.FileField(label=_("or upload record.json"), required=False)

    def clean(self) -> dict[str, Any]:
        """Require one record: the pasted text, else the uploaded file's (UTF-8)."""
        data = super().clean() or {}
        upload = data.get("record_file")
        if upload is not None:
            if upload.size > MAX_RECORD_BYTES:
                raise forms.ValidationError(_("This file is too large to be a game record."))
            try:
                data["record"] = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("This file is not UTF-8 text.")) from None
        if not data.get("record"):
            raise forms.ValidationError(_("Paste a record or choose its file first."))
        return data


class DiagramForm(forms.Form):
    """A position in the engine's diagram format (the rulebook's examples' shape)."""

    diagram = forms.CharField(
        label=_("Paste a position diagram"),
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "class": "mono"}),
        max_length=8000,
        strip=False,
    )
