"""ratings per game and their history (app/ratings/)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("parties", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_partie_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_ratings_member_id_members"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["last_partie_id"], ["parties.id"], name=op.f("fk_ratings_last_partie_id_parties"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("member_id", "game", name=op.f("pk_ratings")),
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.create_index("ix_ratings_game_rating", ["game", "rating"], unique=False)

    op.create_table(
        "rating_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("partie_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("sigma_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.Column("sigma_after", sa.Float(), nullable=True),
        sa.Column("rating_after", sa.Integer(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_rating_events_member_id_members"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["partie_id"], ["parties.id"], name=op.f("fk_rating_events_partie_id_parties"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_events")),
        sa.UniqueConstraint("partie_id", "member_id", name="uq_rating_events_partie_member"),
    )
    with op.batch_alter_table("rating_events", schema=None) as batch_op:
        batch_op.create_index("ix_rating_events_game_time", ["game", "finished_at", "member_id", "place"], unique=False)
        batch_op.create_index("ix_rating_events_game_member", ["game", "member_id", "place", "finished_at"],
                              unique=False)
        batch_op.create_index("ix_rating_events_member", ["member_id", "game", "finished_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("rating_events", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_events_member")
        batch_op.drop_index("ix_rating_events_game_member")
        batch_op.drop_index("ix_rating_events_game_time")
    op.drop_table("rating_events")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_ratings_game_rating")
    op.drop_table("ratings")
