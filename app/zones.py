"""Time zones: a member's forms are read in his own zone (docs/rulings.md, "Times and time zones").

The pages' forms that take a time (a tournament's start, a holiday's end) or a weekday
(a slow partie's weekends) carry the browser's zone in a hidden ``tz`` field (static/js/
forms.js); a form without one (no JavaScript) is read in the Club's zone, which the page
then names. The database keeps instants in UTC; the pages show them in the reader's zone.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from app.errors import Invalid

CLUB_ZONE = "Europe/Belgrade"  # the Club's own zone: a form without the browser's
ZONE_LENGTH = 64


def zone_named(name: str) -> str:
    """An IANA zone's name, checked (``invalid_zone`` otherwise)."""
    try:
        if not isinstance(name, str) or not 0 < len(name) <= ZONE_LENGTH:
            raise ValueError(name)
        ZoneInfo(name)
    except (ValueError, ZoneInfoNotFoundError):
        raise Invalid("the time zone is an IANA name such as Europe/Belgrade", code="invalid_zone") from None
    return name


def form_zone(raw: str | None) -> str:
    """The zone a form was filled in: its ``tz`` field, else (no JavaScript, or a zone this
    server does not know) the Club's."""
    try:
        return zone_named((raw or "").strip())
    except Invalid:
        return CLUB_ZONE


def zone(name: str | None) -> tzinfo:
    return ZoneInfo(name or "UTC")


def wall_time(text: str, zone_name: str) -> datetime:
    """A form's ``YYYY-MM-DDTHH:MM`` (an ``<input type="datetime-local">``) in a zone, as an
    aware datetime; ValueError if it is not one."""
    value = datetime.fromisoformat(text.strip())
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone(zone_name))
    return value
