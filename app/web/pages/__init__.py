"""The Club's pages, one module per domain (Jinja2 templates in ``templates/``).

The pages are rendered on the server; the live tables are drawn by ``static/js/*.js``
from the WebSocket frames of ``/ws/parties/{id}``. Forms post here (not to the JSON
API) so that they work without JavaScript and show their errors in the page.
"""

from __future__ import annotations

from fastapi import APIRouter

from app.web.pages import archive, leagues, lobby, members, problems, profiles, replay, rules, standings, tables, tournaments

router = APIRouter(include_in_schema=False)
for module in (members, profiles, lobby, tables, archive, standings, tournaments, leagues, problems, replay, rules):
    router.include_router(module.router)
