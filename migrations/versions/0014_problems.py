"""problems (zadaci, issue 41): problems mined from finished deals, the parties mined, the
members' problem ratings, answers and flags

Revision ID: 0014_problems
Revises: 0013_league_organizers
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_problems"
down_revision = "0013_league_organizers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "problems",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("partie_id", sa.Integer(), nullable=False),
        sa.Column("deal_index", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("theme", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("best", sa.String(length=64), nullable=False),
        sa.Column("played", sa.String(length=64), nullable=False),
        sa.Column("unit", sa.String(length=16), nullable=False),
        sa.Column("lost", sa.Float(), nullable=False),
        sa.Column("margin", sa.Float(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("flags", sa.Integer(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["partie_id"], ["parties.id"], name=op.f("fk_problems_partie_id_parties"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_problems")),
        sa.UniqueConstraint("partie_id", "deal_index", "step", name="uq_problems_partie_deal_step"),
    )
    op.create_index("ix_problems_pick", "problems", ["hidden", "game", "theme", "rating"], unique=False)
    op.create_table(
        "problem_sources",
        sa.Column("partie_id", sa.Integer(), nullable=False),
        sa.Column("problems", sa.Integer(), nullable=False),
        sa.Column("mined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["partie_id"], ["parties.id"], name=op.f("fk_problem_sources_partie_id_parties"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("partie_id", name=op.f("pk_problem_sources")),
    )
    op.create_table(
        "problem_ratings",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("best_streak", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_problem_ratings_member_id_members"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("member_id", name=op.f("pk_problem_ratings")),
    )
    op.create_table(
        "problem_attempts",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("problem_id", sa.Integer(), nullable=False),
        sa.Column("word", sa.String(length=64), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_problem_attempts_member_id_members"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["problem_id"], ["problems.id"], name=op.f("fk_problem_attempts_problem_id_problems"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("member_id", "problem_id", name=op.f("pk_problem_attempts")),
    )
    op.create_index("ix_problem_attempts_member_time", "problem_attempts", ["member_id", "created_at"], unique=False)
    op.create_table(
        "problem_flags",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("problem_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_problem_flags_member_id_members"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["problem_id"], ["problems.id"], name=op.f("fk_problem_flags_problem_id_problems"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("member_id", "problem_id", name=op.f("pk_problem_flags")),
    )


def downgrade() -> None:
    op.drop_table("problem_flags")
    op.drop_index("ix_problem_attempts_member_time", table_name="problem_attempts")
    op.drop_table("problem_attempts")
    op.drop_table("problem_ratings")
    op.drop_table("problem_sources")
    op.drop_index("ix_problems_pick", table_name="problems")
    op.drop_table("problems")
