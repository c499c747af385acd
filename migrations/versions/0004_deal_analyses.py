"""the replay's analysis of a deal, cached (app/analysis/)

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deal_analyses",
        sa.Column("partie_id", sa.Integer(), nullable=False),
        sa.Column("deal_index", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["partie_id"], ["parties.id"], name=op.f("fk_deal_analyses_partie_id_parties"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("partie_id", "deal_index", name=op.f("pk_deal_analyses")),
    )


def downgrade() -> None:
    op.drop_table("deal_analyses")
