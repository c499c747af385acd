"""What the server itself needs besides the API: a fallback front page and the health check."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse

from app.web.deps import ClubDep

router = APIRouter(tags=["pages"])

FALLBACK_FRONT_PAGE = """<!doctype html>
<html lang="sr-Latn"><head><meta charset="utf-8"><title>Klub</title></head>
<body><h1>Klub</h1><p>Onlajn klub za Loru i Preferans. Server radi: <a href="/docs">API (OpenAPI)</a>.</p></body>
</html>"""


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def front_page():
    # The Club's real pages (app/web/ui.py) are mounted first and take "/" when present.
    return FALLBACK_FRONT_PAGE


@router.get("/healthz", summary="Is the server up and its database reachable")
async def healthz(club: ClubDep):
    try:
        await run_in_threadpool(club.db.ping)
    except Exception as e:
        return JSONResponse({"status": "error", "database": e.__class__.__name__}, status_code=503)
    return {"status": "ok", "database": "ok", "redis": bool(club.settings.redis_url)}
