"""the seats' own version (parties.seats_version): a table socket trusts the seats a notice carries

Revision ID: 0015_seats_version
Revises: 0014_problems
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_seats_version"
down_revision = "0014_problems"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parties", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seats_version", sa.Integer(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("parties", schema=None) as batch_op:
        batch_op.drop_column("seats_version")
