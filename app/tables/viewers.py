"""Who has a table open: the players at their tables and the spectators, by their sockets.

The table socket (:mod:`app.tables.ws`) opens and closes a viewer here. From this the
table shows its spectators (count and names) to everyone at it, and a member's unread
count leaves out the turn at a table he has open (:mod:`app.parties.unread`).

The registry is this process's: with several instances behind Redis each one knows the
sockets it serves (a member's pages usually reach one instance).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass


@dataclass
class _Viewer:
    name: str
    seated: bool
    sockets: int = 0


class Viewers:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[int, dict[int, _Viewer]] = defaultdict(dict)

    def open(self, partie_id: int, member_id: int, name: str, seated: bool) -> bool:
        """A socket of the member opened at the table; True when he was not there before."""
        with self._lock:
            viewer = self._tables[partie_id].get(member_id)
            if viewer is None:
                viewer = self._tables[partie_id][member_id] = _Viewer(name, seated)
            viewer.sockets += 1
            return viewer.sockets == 1

    def close(self, partie_id: int, member_id: int) -> bool:
        """A socket of the member closed; True when it was his last one at that table."""
        with self._lock:
            table = self._tables.get(partie_id)
            viewer = table.get(member_id) if table else None
            if viewer is None:
                return False
            viewer.sockets -= 1
            if viewer.sockets > 0:
                return False
            del table[member_id]
            if not table:
                del self._tables[partie_id]
            return True

    def spectators(self, partie_id: int) -> list[str]:
        """The names of the members watching the table (not playing at it), sorted."""
        with self._lock:
            table = self._tables.get(partie_id, {})
            return sorted((v.name for v in table.values() if not v.seated), key=str.casefold)

    def is_seated(self, member_id: int, partie_id: int) -> bool:
        """Whether the member sits at that table now (his seat's socket is open there):
        asked for every turn told, so it looks at that table alone."""
        with self._lock:
            table = self._tables.get(partie_id)
            viewer = table.get(member_id) if table else None
            return viewer is not None and viewer.seated

    def seated_at(self, member_id: int) -> set[int]:
        """The parties at whose table the member sits now (his seat's socket is open)."""
        with self._lock:
            return {pid for pid, table in self._tables.items()
                    if (v := table.get(member_id)) is not None and v.seated}
