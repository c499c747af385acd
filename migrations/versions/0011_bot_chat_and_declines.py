"""a member mutes a bot's chat (chat_mutes), and a declined invitation's reason (partie_seats.decline_reason)

Revision ID: 0011_bot_chat_and_declines
Revises: 0010_weekend_zone
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_bot_chat_and_declines"
down_revision = "0010_weekend_zone"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_mutes",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("muted_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_chat_mutes_member_id_members"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["muted_id"], ["members.id"], name=op.f("fk_chat_mutes_muted_id_members"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("member_id", "muted_id", name=op.f("pk_chat_mutes")),
    )
    with op.batch_alter_table("partie_seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("decline_reason", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("partie_seats", schema=None) as batch_op:
        batch_op.drop_column("decline_reason")
    op.drop_table("chat_mutes")
