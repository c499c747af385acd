"""leagues: a season of weekly evenings, its members, skips and evenings

Revision ID: 0012_leagues
Revises: 0011_bot_chat_and_declines
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0012_leagues"
down_revision = "0011_bot_chat_and_declines"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("leagues",
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("name", sa.String(length=80), nullable=False),
    sa.Column("game", sa.String(length=16), nullable=False),
    sa.Column("settings", sa.JSON(), nullable=False),
    sa.Column("format", sa.String(length=16), nullable=False),
    sa.Column("rounds", sa.Integer(), nullable=False),
    sa.Column("hands", sa.Integer(), nullable=True),
    sa.Column("timer_seconds", sa.Integer(), nullable=False),
    sa.Column("round_minutes", sa.Integer(), nullable=False),
    sa.Column("pause_minutes", sa.Integer(), nullable=False),
    sa.Column("weekday", sa.Integer(), nullable=False),
    sa.Column("start_time", sa.String(length=5), nullable=False),
    sa.Column("zone", sa.String(length=64), nullable=False),
    sa.Column("first_date", sa.Date(), nullable=False),
    sa.Column("evenings", sa.Integer(), nullable=False),
    sa.Column("skipped_dates", sa.JSON(), nullable=False),
    sa.Column("open_hours", sa.Integer(), nullable=False),
    sa.Column("scoring", sa.String(length=16), nullable=False),
    sa.Column("scale", sa.JSON(), nullable=True),
    sa.Column("best_of", sa.Integer(), nullable=False),
    sa.Column("final_top", sa.Integer(), nullable=True),
    sa.Column("status", sa.String(length=16), nullable=False),
    sa.Column("organizer_id", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(["organizer_id"], ["members.id"], name=op.f("fk_leagues_organizer_id_members")),
    sa.PrimaryKeyConstraint("id", name=op.f("pk_leagues"))
    )
    with op.batch_alter_table("leagues", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_leagues_status"), ["status"], unique=False)

    op.create_table("league_evenings",
    sa.Column("league_id", sa.Integer(), nullable=False),
    sa.Column("evening_no", sa.Integer(), nullable=False),
    sa.Column("tournament_id", sa.Integer(), nullable=False),
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], name=op.f("fk_league_evenings_league_id_leagues"), ondelete="CASCADE"),
    sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], name=op.f("fk_league_evenings_tournament_id_tournaments"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("league_id", "evening_no", name=op.f("pk_league_evenings")),
    sa.UniqueConstraint("tournament_id", name=op.f("uq_league_evenings_tournament_id"))
    )
    op.create_table("league_members",
    sa.Column("league_id", sa.Integer(), nullable=False),
    sa.Column("member_id", sa.Integer(), nullable=False),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("from_evening", sa.Integer(), nullable=False),
    sa.Column("until_evening", sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], name=op.f("fk_league_members_league_id_leagues"), ondelete="CASCADE"),
    sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_league_members_member_id_members"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("league_id", "member_id", name=op.f("pk_league_members"))
    )
    with op.batch_alter_table("league_members", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_league_members_member_id"), ["member_id"], unique=False)

    op.create_table("league_skips",
    sa.Column("league_id", sa.Integer(), nullable=False),
    sa.Column("member_id", sa.Integer(), nullable=False),
    sa.Column("evening_no", sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], name=op.f("fk_league_skips_league_id_leagues"), ondelete="CASCADE"),
    sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_league_skips_member_id_members"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("league_id", "member_id", "evening_no", name=op.f("pk_league_skips"))
    )


def downgrade() -> None:
    op.drop_table("league_skips")
    with op.batch_alter_table("league_members", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_league_members_member_id"))

    op.drop_table("league_members")
    op.drop_table("league_evenings")
    with op.batch_alter_table("leagues", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_leagues_status"))

    op.drop_table("leagues")
