"""The health check of the server and its database."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from app.deps import ClubDep

router = APIRouter(tags=["health"])

@router.get("/healthz", summary="Is the server up and its database reachable")
async def healthz(club: ClubDep):
    try:
        await run_in_threadpool(club.db.ping)
    except Exception as e:
        return JSONResponse({"status": "error", "database": e.__class__.__name__}, status_code=503)
    return {"status": "ok", "database": "ok", "redis": bool(club.settings.redis_url)}
