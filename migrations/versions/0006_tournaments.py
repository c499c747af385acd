"""tournaments: their players, their rounds, and the parties that are their tables

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("tournaments",
    sa.Column("id", sa.Integer(), nullable=False),
    sa.Column("name", sa.String(length=80), nullable=False),
    sa.Column("game", sa.String(length=16), nullable=False),
    sa.Column("settings", sa.JSON(), nullable=False),
    sa.Column("format", sa.String(length=16), nullable=False),
    sa.Column("rounds", sa.Integer(), nullable=False),
    sa.Column("hands", sa.Integer(), nullable=True),
    sa.Column("start_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("timer_seconds", sa.Integer(), nullable=False),
    sa.Column("round_minutes", sa.Integer(), nullable=False),
    sa.Column("pause_minutes", sa.Integer(), nullable=False),
    sa.Column("robot_field", sa.Boolean(), nullable=False),
    sa.Column("place_points", sa.JSON(), nullable=True),
    sa.Column("seeding", sa.String(length=16), nullable=False),
    sa.Column("secret", sa.String(length=64), nullable=False),
    sa.Column("status", sa.String(length=16), nullable=False),
    sa.Column("current_round", sa.Integer(), nullable=False),
    sa.Column("next_round_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("organizer_id", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("standings", sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(["organizer_id"], ["members.id"], name=op.f("fk_tournaments_organizer_id_members")),
    sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments"))
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournaments_next_round_at"), ["next_round_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_tournaments_status"), ["status"], unique=False)

    op.create_table("tournament_players",
    sa.Column("tournament_id", sa.Integer(), nullable=False),
    sa.Column("member_id", sa.Integer(), nullable=False),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("joined_round", sa.Integer(), nullable=False),
    sa.Column("left_round", sa.Integer(), nullable=True),
    sa.Column("removed", sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_tournament_players_member_id_members"), ondelete="CASCADE"),
    sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], name=op.f("fk_tournament_players_tournament_id_tournaments"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("tournament_id", "member_id", name=op.f("pk_tournament_players"))
    )
    with op.batch_alter_table("tournament_players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_players_member_id"), ["member_id"], unique=False)

    op.create_table("tournament_rounds",
    sa.Column("tournament_id", sa.Integer(), nullable=False),
    sa.Column("round_no", sa.Integer(), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("overdue", sa.Boolean(), nullable=False),
    sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("results", sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], name=op.f("fk_tournament_rounds_tournament_id_tournaments"), ondelete="CASCADE"),
    sa.PrimaryKeyConstraint("tournament_id", "round_no", name=op.f("pk_tournament_rounds"))
    )
    with op.batch_alter_table("tournament_rounds", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_rounds_deadline_at"), ["deadline_at"], unique=False)

    with op.batch_alter_table("parties", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tournament_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("tournament_round", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("table_no", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_parties_tournament_id"), ["tournament_id"], unique=False)
        batch_op.create_foreign_key(batch_op.f("fk_parties_tournament_id_tournaments"), "tournaments", ["tournament_id"], ["id"], ondelete="SET NULL")



def downgrade() -> None:
    with op.batch_alter_table("parties", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_parties_tournament_id_tournaments"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_parties_tournament_id"))
        batch_op.drop_column("table_no")
        batch_op.drop_column("tournament_round")
        batch_op.drop_column("tournament_id")

    with op.batch_alter_table("tournament_rounds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_rounds_deadline_at"))

    op.drop_table("tournament_rounds")
    with op.batch_alter_table("tournament_players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_players_member_id"))

    op.drop_table("tournament_players")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournaments_status"))
        batch_op.drop_index(batch_op.f("ix_tournaments_next_round_at"))

    op.drop_table("tournaments")
