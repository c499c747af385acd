"""The FastAPI application: ``create_app()`` (``uvicorn --factory app.web.main:create_app``)."""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path

from anyio import to_thread
from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute, _IncludedRouter
from fastapi.concurrency import run_in_threadpool

from app import gcpauses
from app.analysis.router import router as analysis_router
from app.bots import ladder as bot_ladder
from app.bots.api import router as bot_api_router
from app.bots.router import router as bots_router
from app.bots.runner import BotRunner
from app.club import Club
from app.clock import Clock
from app.config import Settings, get_settings
from app.games.registry import register_modules
from app.members import passwords
from app.members.router import router as members_router
from app.parties.router import router as parties_router
from app.parties.vacation import router as vacation_router
from app.parties.visibility import TableGate
from app.push import worker as push_worker
from app.ratings import service as ratings
from app.profiles.router import router as profiles_router
from app.problems import feed as problems_feed
from app.problems.router import router as problems_router
from app.ratings.router import router as ratings_router
from app.tables.deadlines import resume_running, watch_deadlines
from app.tables.router import router as tables_router
from app.tables.service import start_word_writer
from app.tables.ws import router as ws_router
from app.leagues import evenings as league_evenings
from app.leagues.router import router as leagues_router
from app.tournaments import rounds as tournament_rounds
from app.tournaments.router import router as tournaments_router
from app import logs
from app.web import errors, health, metrics, notices_ws, pages, proxies, push, pwa, security
from app.web import assets
from app.web.assets import static_app
from app.web.compression import CompressionMiddleware
from app.web.nul import NulMiddleware

log = logging.getLogger("klub")
ROOT = Path(__file__).resolve().parents[2]


def include_flat(app: FastAPI, router: APIRouter, in_schema: bool = True) -> None:
    """Add a router's routes to the app's own list, as ``@app.get`` would.

    FastAPI (since 0.140) keeps an included router whole and matches a request against
    each included router's every route, then again inside the one chosen: with a dozen
    routers that was most of a small request's CPU (0.6 of 0.8 ms for a 404). Our routers
    carry their prefix, tags and dependencies in their routes and are included without
    options, so their routes join the app's list as they are, in the same order; a router
    kept out of the API schema keeps the routers it includes out too.
    """
    in_schema = in_schema and router.include_in_schema
    for route in router.routes:
        if isinstance(route, _IncludedRouter):
            include_flat(app, route.original_router, in_schema)
            continue
        if not in_schema and isinstance(route, APIRoute):
            route.include_in_schema = False
        app.router.routes.append(route)


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    settings = settings or get_settings()
    logs.configure(settings)
    register_modules(settings.outside_games)  # before anything lists the games
    if settings.argon2_time_cost and settings.argon2_memory_kib:
        passwords.set_cost(settings.argon2_time_cost, settings.argon2_memory_kib)
    club = Club.from_settings(settings, clock)
    start_word_writer(club)
    # A tournament table that ends may end its round; then the ratings count the round's
    # tables (rated once their round has ended, rulings T11): in this order.
    tournament_rounds.subscribe(club)
    ratings.subscribe(club)  # rates parties as they end, off the word path
    # mines finished parties' problems in the analysis workers
    app_miner = problems_feed.subscribe(club) if settings.problems_mining else None
    push_service = push_worker.attach(club, push.describe)  # push notices: fed by notices.tell, sent in the background

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads  # this loop's pool
        await run_in_threadpool(push_service.load_keys)  # made on the first start; a bad setting stops the start
        await club.hub.start()
        club.bots = BotRunner(club, workers=settings.bot_workers, delay=settings.bot_delay_seconds)
        watcher = asyncio.create_task(watch_deadlines(club))
        tournaments = asyncio.create_task(tournament_rounds.watch_tournaments(club))
        gc_keeper = asyncio.create_task(gcpauses.keep_pauses_short(settings.gc_freeze_seconds, settings.gc_full_seconds))
        leagues = asyncio.create_task(league_evenings.watch_leagues(club))  # the calendar creates the evenings
        tasks = [watcher, tournaments, leagues, gc_keeper, asyncio.create_task(push_service.run())]
        if settings.bot_ladder:
            tasks.append(asyncio.create_task(bot_ladder.keep_weekly(club)))
        await run_in_threadpool(resume_running, club)
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await run_in_threadpool(club.bots.close)
            if club.writer is not None:
                await run_in_threadpool(club.writer.stop)  # the queued words are still written
            await run_in_threadpool(club.finished.close)
            await run_in_threadpool(club.analyses.close)
            await club.hub.stop()
            club.db.dispose()

    app = FastAPI(
        title="Klub",
        description="The Club's API: members, partie proposals, live tables, the archive; and the bot API "
                    "(/api/bot, a bot account's token: Authorization: Bearer kbt_..., docs/bots.md).",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.club = club
    app.state.table_connections = {}
    app.state.miner = app_miner
    app.state.table_gate = TableGate()  # app/deps.py: the routes that name a partie

    app.add_middleware(CompressionMiddleware)  # innermost: gzip for pages, JSON, scripts, styles; never a stream
    app.add_middleware(NulMiddleware)  # inside the security middleware: its refusals get the headers
    app.add_middleware(security.SecurityMiddleware, settings=settings)
    errors.install(app)
    metrics.install(app, club)  # after the error handlers (it counts them), around the security middleware
    # Outermost: every layer, uvicorn's access log included, sees the client behind the proxies.
    app.add_middleware(proxies.ClientMiddleware, trusted=settings.trusted_proxies)
    for router in (members_router, profiles_router, vacation_router, bots_router, bot_api_router, parties_router, analysis_router, problems_router, ratings_router, tournaments_router, leagues_router, tables_router, push.router, ws_router, notices_ws.router, pages.router, pwa.router, assets.router, health.router, metrics.router):
        include_flat(app, router)
    static = ROOT / "static"
    if static.is_dir():
        app.mount("/static", static_app(static), name="static")
    return app
