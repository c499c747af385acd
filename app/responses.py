"""A JSON response for the reads every open table repeats (its view, legal words, events,
score sheet).

Returned by the endpoint itself, so FastAPI does not first walk the content with its
``jsonable_encoder`` (about a tenth of such a read's CPU), and encoded by orjson. Only
for content of plain JSON types (dicts, lists, strings, numbers, None): what the table's
snapshots and the engines' results are.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.responses import JSONResponse


class FastJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)
