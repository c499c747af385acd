"""initial schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('members',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=32), nullable=False),
    sa.Column('name_key', sa.String(length=32), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('disabled', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_members')),
    sa.UniqueConstraint('name_key', name=op.f('uq_members_name_key'))
    )
    op.create_table('imported_records',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('member_id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=16), nullable=False),
    sa.Column('players', sa.JSON(), nullable=False),
    sa.Column('record', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['member_id'], ['members.id'], name=op.f('fk_imported_records_member_id_members')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_imported_records'))
    )
    with op.batch_alter_table('imported_records', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_imported_records_member_id'), ['member_id'], unique=False)

    op.create_table('parties',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=16), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('timer_seconds', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('exhibition', sa.Boolean(), nullable=False),
    sa.Column('proposer_id', sa.Integer(), nullable=False),
    sa.Column('seed', sa.String(length=64), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('deadline_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['proposer_id'], ['members.id'], name=op.f('fk_parties_proposer_id_members')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_parties'))
    )
    with op.batch_alter_table('parties', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_parties_deadline_at'), ['deadline_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_parties_status'), ['status'], unique=False)

    op.create_table('sessions',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('member_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['member_id'], ['members.id'], name=op.f('fk_sessions_member_id_members'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sessions'))
    )
    with op.batch_alter_table('sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sessions_member_id'), ['member_id'], unique=False)

    op.create_table('actions',
    sa.Column('partie_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('word', sa.String(length=64), nullable=False),
    sa.Column('client_action_id', sa.String(length=64), nullable=True),
    sa.Column('member_id', sa.Integer(), nullable=True),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['member_id'], ['members.id'], name=op.f('fk_actions_member_id_members')),
    sa.ForeignKeyConstraint(['partie_id'], ['parties.id'], name=op.f('fk_actions_partie_id_parties'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('partie_id', 'seq', name=op.f('pk_actions')),
    sa.UniqueConstraint('partie_id', 'client_action_id', name='uq_actions_client_action')
    )
    op.create_table('chat_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('partie_id', sa.Integer(), nullable=False),
    sa.Column('member_id', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['member_id'], ['members.id'], name=op.f('fk_chat_messages_member_id_members')),
    sa.ForeignKeyConstraint(['partie_id'], ['parties.id'], name=op.f('fk_chat_messages_partie_id_parties'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_chat_messages'))
    )
    with op.batch_alter_table('chat_messages', schema=None) as batch_op:
        batch_op.create_index('ix_chat_messages_partie', ['partie_id', 'id'], unique=False)

    op.create_table('partie_seats',
    sa.Column('partie_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('member_id', sa.Integer(), nullable=True),
    sa.Column('answer', sa.String(length=16), nullable=True),
    sa.Column('bot', sa.String(length=32), nullable=True),
    sa.Column('away', sa.Boolean(), nullable=False),
    sa.Column('taken_over', sa.Boolean(), nullable=False),
    sa.Column('takeover_votes', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['member_id'], ['members.id'], name=op.f('fk_partie_seats_member_id_members')),
    sa.ForeignKeyConstraint(['partie_id'], ['parties.id'], name=op.f('fk_partie_seats_partie_id_parties'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('partie_id', 'seat', name=op.f('pk_partie_seats'))
    )
    with op.batch_alter_table('partie_seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_partie_seats_member_id'), ['member_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('partie_seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_partie_seats_member_id'))

    op.drop_table('partie_seats')
    with op.batch_alter_table('chat_messages', schema=None) as batch_op:
        batch_op.drop_index('ix_chat_messages_partie')

    op.drop_table('chat_messages')
    op.drop_table('actions')
    with op.batch_alter_table('sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sessions_member_id'))

    op.drop_table('sessions')
    with op.batch_alter_table('parties', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_parties_status'))
        batch_op.drop_index(batch_op.f('ix_parties_deadline_at'))

    op.drop_table('parties')
    with op.batch_alter_table('imported_records', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_imported_records_member_id'))

    op.drop_table('imported_records')
    op.drop_table('members')
