"""slow parties (dopisna partija): time banks, per-seat clocks, reminders, vacation and holidays

Revision ID: 0007_slow
Revises: 0006
Create Date: 2026-12-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_slow"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.add_column(sa.Column("holiday_from", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("holiday_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("vacation_year", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("vacation_hours_used", sa.Integer(), nullable=False, server_default="0"))

    with op.batch_alter_table("parties", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bank_seconds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("weekends_off", sa.Boolean(), nullable=False, server_default=sa.false()))

    with op.batch_alter_table("partie_seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bank_left", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("turn_since", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("clock_from", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("used_seconds", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("vacation_hours", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("remind_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("reminded", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("timeouts", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("reclaimable", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.create_index(batch_op.f("ix_partie_seats_remind_at"), ["remind_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("partie_seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_partie_seats_remind_at"))
        for name in ("reclaimable", "timeouts", "seen_at", "reminded", "remind_at", "deadline_at",
                     "vacation_hours", "used_seconds", "clock_from", "turn_since", "bank_left"):
            batch_op.drop_column(name)
    with op.batch_alter_table("parties", schema=None) as batch_op:
        batch_op.drop_column("weekends_off")
        batch_op.drop_column("bank_seconds")
    with op.batch_alter_table("members", schema=None) as batch_op:
        for name in ("vacation_hours_used", "vacation_year", "holiday_until", "holiday_from"):
            batch_op.drop_column(name)
