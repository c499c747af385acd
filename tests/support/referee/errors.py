"""The referee's errors: an impossible record, and an internal 'the actions ran out'."""

from __future__ import annotations


class RefereeError(ValueError):
    """An impossible record: names the deal index, the action index and the reason.

    ``deal`` and ``action`` are None when the fault is not in one deal or one action
    (settings, players, the number of deals).
    """

    def __init__(self, reason: str, deal: int | None = None, action: int | None = None) -> None:
        self.reason = reason
        self.deal = deal
        self.action = action
        where = []
        if deal is not None:
            where.append(f"deal {deal}")
        if action is not None:
            where.append(f"action {action}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {reason}" if prefix else reason)


class DealUnfinished(Exception):
    """The record's actions of a deal stop before the deal has ended (an unfinished partie)."""
