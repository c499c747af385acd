"""Rendering the Club's pages: the template context, language, forms and redirects."""

from __future__ import annotations

import json
from pathlib import Path
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from app.errors import ClubError
from app.games.registry import descriptors
from app.members.cookies import form_token_ok, masked_form_token, session_mark, session_token
from app.members.service import CurrentMember
from app.parties.proposals import get_summary
from app.web.assets import game_script_url, static_url
from app.zones import CLUB_ZONE
from app.web.i18n import COOKIE, LANGUAGE_NAMES, LANGUAGES, date_text, gettext_for, lang_of, ngettext_for, time_text
from app.web.strings import duration_text, error_text, js_strings, notice_strings, timer_text

ROOT = Path(__file__).resolve().parents[2]
templates = Jinja2Templates(directory=str(ROOT / "templates"))
templates.env.globals["static_url"] = static_url  # every script, style and icon: a versioned URL
templates.env.globals["game_script_url"] = game_script_url  # a game's scripts: static/js/ or its own assets
templates.env.filters["pretty_number"] = lambda x: f"{x:g}" if isinstance(x, (int, float)) else str(x)  # 3.0 -> 3


def context(request: Request, member: CurrentMember | None, **extra: Any) -> dict[str, Any]:
    lang = lang_of(request)
    _ = gettext_for(lang)
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    games = {g.code: g for g in descriptors()}
    return {
        "request": request,
        "_": _,
        "n_": ngettext_for(lang),  # n_("{n} game", "{n} games", n): the plural form of n
        "date_text": lambda value: date_text(value, lang),  # 2. 12. 2026. / Dec 2, 2026
        # an instant in the Club's zone, named; a <time class="local-time"> shows it in the reader's (forms.js)
        "time_text": lambda value: time_text(value, lang, CLUB_ZONE),
        "club_zone": CLUB_ZONE,  # a form's zone until its script names the browser's (app/zones.py)
        "lang": lang,
        "languages": LANGUAGE_NAMES,
        "member": member,
        "here": here,
        "here_quoted": quote(here, safe=""),
        # The session-bound CSRF token of this member's forms (app.web.security), masked
        # afresh on every page (the pages are gzipped: app/web/compression.py).
        "csrf": masked_form_token(session_token(request, request.app.state.club.settings)) if member else "",
        "session_mark": session_mark(session_token(request, request.app.state.club.settings)) if member else "",
        # The texts of the live notices (static/js/notices.js) on every page of a member.
        "notice_strings": html_json(notice_strings(lang)) if member else "",
        "error_text": lambda code, fallback=None: error_text(_, code, fallback),
        # The games, from their descriptors: names, settings, rules pages.
        "games": games,
        # a seat's shown name: a computer player's mark and name (computer_name), else the member's name
        # (a bot account's: "{name} (bot of {owner})")
        "seat_name": lambda seat: (computer_name(_, seat["bot_name"]) if seat.get("bot_name")
                                   else _("{name} (bot of {owner})").format(name=seat.get("name"), owner=seat["bot_owner"])
                                   if seat.get("bot_owner") else seat.get("name")),
        "computer_name": lambda name: computer_name(_, name),
        "game_name": lambda code: games[code].name(lang) if code in games else code,
        "settings_text": lambda code, settings: games[code].describe_settings(settings, lang) if code in games else "",
        # a slow partie's times: "2 d 3 h", "5 h 10 min"; a timer: "60 s", "12 hours"
        "duration_text": lambda seconds: duration_text(_, seconds),
        "timer_text": lambda seconds: timer_text(_, seconds),
        **extra,
    }


COMPUTER_NAME = Markup('<span class="computer-player" title="{title}"><span class="computer-mark" role="img" '
                       'aria-label="{title}"></span>{name}</span>')


def computer_name(_: Callable[[str], str], name: str) -> Markup:
    """A computer player's name as the lists show it (issue 39; static/js/common.js's
    ``K.computerName``): the computer's mark, an image named "računar", before "Mile"."""
    return COMPUTER_NAME.format(title=_("computer"), name=name)


def render(request: Request, name: str, ctx: dict[str, Any], status: int = 200) -> HTMLResponse:
    response = templates.TemplateResponse(request, name, ctx, status_code=status)
    asked = request.query_params.get("lang")
    if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
        response.set_cookie(COOKIE, asked, max_age=365 * 86400, samesite="lax", path="/",
                            secure=request.app.state.club.settings.secure_cookies)
    return response


def error_page(request: Request, member: CurrentMember | None, code: str, message: str, status: int,
               extra: dict[str, Any] | None = None) -> HTMLResponse:
    """The error page; ``extra``: the error's own fields (a hidden table's tournament and round)."""
    return render(request, "error.html", context(request, member, error=code, error_message=message,
                                                 error_extra=extra or {}), status)


def partie_page(request: Request, club, member: CurrentMember, partie_id: int, name: str,
                build: Callable[[dict[str, Any]], dict[str, Any]]) -> HTMLResponse:
    """A page of one partie (its table, its archive entry) with the game's script data;
    ``build(summary)`` adds the page's own context. An unknown partie is the error page."""
    try:
        summary = get_summary(club, partie_id, member)
        extra = build(summary)
    except ClubError as e:
        return error_page(request, member, e.code, e.message, 404)
    code = summary["game"]
    games = {g.code: g for g in descriptors()}
    lang = lang_of(request)
    ctx = context(request, member, partie=summary, game=games[code], strings=html_json(js_strings(lang, games[code])),
                  game_json=html_json(games[code].page_data(lang, summary.get("settings") or {},
                                                              club.settings.ui_timings)), **extra)
    return render(request, name, ctx)


def to_login(request: Request) -> RedirectResponse:
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(here, safe='')}", status_code=303)


def safe_next(value: str | None, default: str = "/lobby") -> str:
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return default
    return value


def html_json(data: Any) -> str:
    """JSON to put inside a <script type="application/json"> element."""
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


async def read_form(request: Request) -> dict[str, str]:
    form = await request.form()
    return {k: v for k, v in form.items() if isinstance(v, str)}


def form_refused(request: Request, member: CurrentMember | None, form: dict[str, str]) -> Response | None:
    """A logged-in member's form must carry his session's CSRF token (403 page otherwise)."""
    if form_token_ok(session_token(request, request.app.state.club.settings), form.get("csrf")):
        return None
    return error_page(request, member, "bad_csrf", "the form token is missing or wrong", 403)


def client_address(request: Request) -> str | None:
    return request.client.host if request.client else None
