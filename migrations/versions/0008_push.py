"""push notices: the devices' Web Push subscriptions, the outbox, the VAPID key pair

Revision ID: 0008_push
Revises: 0007_slow
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_push"
down_revision = "0007_slow"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("endpoint", sa.String(length=2048), nullable=False),
        sa.Column("p256dh", sa.String(length=100), nullable=False),
        sa.Column("auth", sa.String(length=32), nullable=False),
        sa.Column("lang", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_push_subscriptions_member_id_members"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"], name=op.f("fk_push_subscriptions_session_id_sessions"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint("endpoint", name=op.f("uq_push_subscriptions_endpoint")),
    )
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.create_index("ix_push_subscriptions_member", ["member_id", "updated_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_push_subscriptions_session_id"), ["session_id"], unique=False)

    op.create_table(
        "push_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("topic", sa.String(length=32), nullable=False),
        sa.Column("urgency", sa.String(length=8), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_try_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["subscription_id"], ["push_subscriptions.id"],
                                name=op.f("fk_push_outbox_subscription_id_push_subscriptions"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_outbox")),
    )
    with op.batch_alter_table("push_outbox", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_push_outbox_subscription_id"), ["subscription_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_push_outbox_next_try_at"), ["next_try_at"], unique=False)

    op.create_table(
        "push_keys",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("private_key", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_keys")),
    )


def downgrade() -> None:
    op.drop_table("push_keys")
    with op.batch_alter_table("push_outbox", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_push_outbox_next_try_at"))
        batch_op.drop_index(batch_op.f("ix_push_outbox_subscription_id"))
    op.drop_table("push_outbox")
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_push_subscriptions_session_id"))
        batch_op.drop_index("ix_push_subscriptions_member")
    op.drop_table("push_subscriptions")
