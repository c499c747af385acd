"""Translations of the Club's screens (Babel message catalogs).

Serbian in Latin script (``sr-Latn``) is the default language, English on request.
The message ids are English; ``app/locale/sr_Latn/LC_MESSAGES/messages.po`` holds the
Serbian texts. The ``.po`` catalog is compiled in memory with Babel's API when this
module is imported, so a fresh clone needs no ``.mo`` files and no build step
(``make messages`` re-extracts the ids from the templates and the code).
"""

from __future__ import annotations

import gettext
import io
from functools import lru_cache
from pathlib import Path
from datetime import date, datetime
from typing import Callable

from babel.dates import format_date, format_time
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from starlette.requests import Request

from app.zones import zone

LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
DEFAULT_LANG = "sr-Latn"
# The language tag of the pages -> the Babel locale of its catalog (None: the ids themselves).
LANGUAGES: dict[str, str | None] = {"sr-Latn": "sr_Latn", "en": None}
LANGUAGE_NAMES = {"sr-Latn": "Srpski", "en": "English"}
COOKIE = "klub_lang"


def N_(message: str) -> str:
    """Mark a message id for extraction without translating it here."""
    return message


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    locale = LANGUAGES.get(lang)
    if locale is None:
        return gettext.NullTranslations()
    path = LOCALE_DIR / locale / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=locale)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(fp=buf)


def catalog_ids(lang: str = DEFAULT_LANG) -> dict[str, str]:
    """Message id -> translation of a catalog (for tests: nothing left untranslated)."""
    locale = LANGUAGES[lang]
    path = LOCALE_DIR / locale / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=locale)
    return {m.id: m.string for m in catalog if m.id and isinstance(m.id, str)}


def lang_of(request: Request) -> str:
    """The language of a request: ``?lang=``, else the cookie, else Serbian."""
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return asked
    cookie = request.cookies.get(COOKIE)
    return cookie if cookie in LANGUAGES else DEFAULT_LANG


def gettext_for(lang: str) -> Callable[[str], str]:
    t = translations(lang)

    def _(message: str, **values) -> str:
        text = t.gettext(message)
        return text.format(**values) if values else text

    return _


def ngettext_for(lang: str) -> Callable[..., str]:
    """``n_(singular, plural, n, **values)``: the form of ``n`` in the page's language
    (Serbian has three: 1 igru, 2-4 igre, 5+ igara, by the catalog's Plural-Forms), with
    ``{n}`` and the other values put in."""
    t = translations(lang)

    def n_(singular: str, plural: str, n: int, **values) -> str:
        return t.ngettext(singular, plural, n).format(n=n, **values)

    return n_


def date_text(value: date | datetime | str | None, lang: str) -> str:
    """A date as the language writes it: Serbian ``2. 12. 2026.``, English ``Dec 2, 2026``
    (Babel's medium date format of the locale)."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if isinstance(value, datetime):
        value = value.date()
    return format_date(value, "medium", locale=LANGUAGES.get(lang) or "en")


def time_text(value: datetime | str | None, lang: str, zone_name: str) -> str:
    """An instant as the language writes it in a zone, the zone named: ``7. 1. 2025. 10:00
    (Europe/Belgrade)`` (the text of a page's ``<time class="local-time">`` until its script
    shows it in the reader's own zone)."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    local = value.astimezone(zone(zone_name))
    locale = LANGUAGES.get(lang) or "en"
    return f"{format_date(local.date(), 'medium', locale=locale)} {format_time(local, 'short', locale=locale)} ({zone_name})"
