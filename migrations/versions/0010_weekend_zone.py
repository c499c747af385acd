"""a slow partie's weekends in its proposer's time zone (parties.weekend_zone; None: UTC)

Revision ID: 0010_weekend_zone
Revises: 0009_bot_accounts
Create Date: 2026-12-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_weekend_zone"
down_revision = "0009_bot_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parties", schema=None) as batch_op:
        batch_op.add_column(sa.Column("weekend_zone", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("parties", schema=None) as batch_op:
        batch_op.drop_column("weekend_zone")
