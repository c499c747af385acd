"""The Club as an installable app: the web app manifest, the service worker, the offline page.

- ``GET /manifest.webmanifest?lang=<tag>``: the manifest in the page's language (the
  ``<link rel="manifest">`` of every page names its language, since a browser fetches the
  manifest without cookies). One ``id`` for both languages: one app.
- ``GET /sw.js``: the service worker (``app/web/sw.js`` after a line of configuration
  made here: the cache version, the offline pages, the static files to precache, the
  paths it never touches). Served at the root so its scope is the whole site.
- ``GET /offline?lang=<tag>``: the page the worker shows when there is no network. It is
  the same for every visitor (no member, no form token), so the worker may keep it.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app.web.assets import static_url
from app.web.i18n import COOKIE, DEFAULT_LANG, LANGUAGES, LOCALE_DIR, gettext_for, lang_of
from app.web.render import ROOT, context, templates
from app.web.strings import game_names_text

router = APIRouter(include_in_schema=False)

START_URL = "/lobby"
THEME_COLOR = "#5a3620"  # the header's wood (static/css/klub.css --wood): the app's title bar
BACKGROUND_COLOR = "#1d6b3a"  # the felt (--felt): the splash screen behind the icon
OFFLINE_PATH = "/offline"
# Requests the worker leaves to the browser, untouched and never cached: the API, the
# sockets, and the pages' own data (the replay steps, the live lobby's fragment).
NEVER_CACHED = ("/api", "/ui/api", "/ws", "/lobby/live")
# What the offline page needs, kept when the worker installs.
PRECACHED_STATIC = ("css/pages.css", "css/klub.css", "js/common.js", "favicon.svg")
# (file under static/, pixels, purpose): drawn by tools/draw_icons.py.
ICONS = (
    ("icons/klub-192.png", 192, "any"),
    ("icons/klub-512.png", 512, "any"),
    ("icons/klub-maskable-192.png", 192, "maskable"),
    ("icons/klub-maskable-512.png", 512, "maskable"),
)
APPLE_TOUCH_ICON = "icons/apple-touch-icon.png"
WORKER_SOURCE = Path(__file__).with_name("sw.js")
NO_CACHE = {"Cache-Control": "no-cache"}


def manifest(lang: str) -> dict[str, Any]:
    """The web app manifest of the Club in a language (``sr-Latn`` or ``en``)."""
    _ = gettext_for(lang)
    games = game_names_text(lang)
    return {
        "id": START_URL,
        "name": _("Klub, the card club"),
        "short_name": "Klub",
        "description": _("The online club for {games}: sit at a table with the members of the Club or with computer players, and keep the real paper.").format(games=games),
        "lang": lang,
        "dir": "ltr",
        "start_url": START_URL,
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games"],
        "icons": [
            {"src": static_url(path), "sizes": f"{px}x{px}", "type": "image/png", "purpose": purpose}
            for path, px, purpose in ICONS
        ],
    }


def offline_url(lang: str) -> str:
    return f"{OFFLINE_PATH}?lang={lang}"


def worker_config() -> dict[str, Any]:
    """What ``app/web/sw.js`` reads as ``KLUB`` (its ``version`` names its caches)."""
    config: dict[str, Any] = {
        "offline": {lang: offline_url(lang) for lang in LANGUAGES},
        "defaultLang": DEFAULT_LANG,
        "langCookie": COOKIE,
        "precache": [static_url(path) for path in PRECACHED_STATIC],
        "static": "/static/",
        "never": list(NEVER_CACHED),
        "forgetOn": ["/logout", "/api/auth/logout"],
        "startUrl": START_URL,  # where a push notice without a page of its own leads
        "icon": static_url(ICONS[0][0]),  # the push notices' icon
        "push": {"key": "/api/push/key", "subscriptions": "/api/push/subscriptions"},  # app/web/push.py
    }
    config["version"] = _version(json.dumps(config, sort_keys=True), *_mtimes())
    return config


def _inputs() -> list[Path]:
    """The files the worker and its offline pages are made of: a change gives a new version."""
    return [
        WORKER_SOURCE,
        ROOT / "templates" / "offline.html",
        ROOT / "templates" / "base.html",
        *(LOCALE_DIR.glob("*/LC_MESSAGES/messages.po")),
    ]


def _mtimes() -> tuple[int, ...]:
    return tuple(p.stat().st_mtime_ns for p in _inputs())


@lru_cache(maxsize=8)
def _version(config: str, *mtimes: int) -> str:
    digest = hashlib.sha256(config.encode())
    for path in _inputs():
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def worker_script() -> str:
    """The service worker: its configuration, then its code."""
    config = json.dumps(worker_config(), ensure_ascii=False, sort_keys=True)
    return f"const KLUB = {config};\n{WORKER_SOURCE.read_text()}"


@router.get("/manifest.webmanifest")
def manifest_file(request: Request) -> Response:
    return JSONResponse(manifest(lang_of(request)), media_type="application/manifest+json", headers=NO_CACHE)


@router.get("/sw.js")
def service_worker() -> Response:
    # no-cache: the browser asks for the worker each time it checks for a new one.
    return Response(worker_script(), media_type="text/javascript", headers=NO_CACHE)


@router.get(OFFLINE_PATH, response_class=HTMLResponse)
def offline_page(request: Request) -> Response:
    # Not render(): it would set the language cookie of ?lang=, and the worker fetches both.
    return templates.TemplateResponse(request, "offline.html", context(request, None, offline=True), headers=NO_CACHE)
