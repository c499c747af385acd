"""leagues: named organizers, evenings moved by hand, bots allowed, reminders sent

Revision ID: 0013_league_organizers
Revises: 0012_leagues
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_league_organizers"
down_revision = "0012_leagues"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("leagues", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bots_allowed", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column("moves", sa.JSON(), nullable=False, server_default="{}"))
    op.create_table(
        "league_organizers",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], name=op.f("fk_league_organizers_league_id_leagues"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_league_organizers_member_id_members"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("league_id", "member_id", name=op.f("pk_league_organizers")),
    )
    with op.batch_alter_table("league_organizers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_league_organizers_member_id"), ["member_id"], unique=False)
    op.create_table(
        "league_reminders",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("evening_no", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], name=op.f("fk_league_reminders_league_id_leagues"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_league_reminders_member_id_members"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("league_id", "evening_no", "member_id", name=op.f("pk_league_reminders")),
    )


def downgrade() -> None:
    op.drop_table("league_reminders")
    with op.batch_alter_table("league_organizers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_league_organizers_member_id"))
    op.drop_table("league_organizers")
    with op.batch_alter_table("leagues", schema=None) as batch_op:
        batch_op.drop_column("moves")
        batch_op.drop_column("bots_allowed")
