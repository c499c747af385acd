"""bot accounts (a member owns them; role "bot"), their personal tokens, and tournaments that allow bots

Revision ID: 0009_bot_accounts
Revises: 0008_push
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_bot_accounts"
down_revision = "0008_push"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_owner_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_members_bot_owner_id"), ["bot_owner_id"], unique=False)
        batch_op.create_foreign_key(batch_op.f("fk_members_bot_owner_id_members"), "members", ["bot_owner_id"], ["id"],
                                    ondelete="CASCADE")
    op.create_table(
        "bot_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("label", sa.String(length=40), nullable=False),
        sa.Column("scopes", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["bot_id"], ["members.id"], name=op.f("fk_bot_tokens_bot_id_members"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bot_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_bot_tokens_token_hash")),
    )
    with op.batch_alter_table("bot_tokens", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_bot_tokens_bot_id"), ["bot_id"], unique=False)
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bots_allowed", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("bots_allowed")
    with op.batch_alter_table("bot_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_bot_tokens_bot_id"))
    op.drop_table("bot_tokens")
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_members_bot_owner_id_members"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_members_bot_owner_id"))
        batch_op.drop_column("bot_owner_id")
