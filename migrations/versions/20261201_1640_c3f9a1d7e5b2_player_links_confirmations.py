"""players at the table: private player links, hand confirmations and disputes, the tournament's entry mode,
hands counted once confirmed, idempotency keys of players

Revision ID: c3f9a1d7e5b2
Revises: a7e1c3b5d9f2
Create Date: 2026-12-01 16:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'c3f9a1d7e5b2'
down_revision = 'a7e1c3b5d9f2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('player_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('nonce', sa.String(length=64), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('language', sa.String(length=10), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('last_used_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'],
                            name=op.f('fk_player_links_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_links')),
    sa.UniqueConstraint('player_id', name=op.f('uq_player_links_player_id')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_player_links_token_hash'))
    )
    op.create_table('hand_confirmations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('confirmed_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['hand_id'], ['hands.id'],
                            name=op.f('fk_hand_confirmations_hand_id_hands'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'],
                            name=op.f('fk_hand_confirmations_player_id_players'), ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_hand_confirmations')),
    sa.UniqueConstraint('hand_id', 'player_id', name=op.f('uq_hand_confirmations_hand_id_player_id'))
    )
    with op.batch_alter_table('hand_confirmations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hand_confirmations_hand_id'), ['hand_id'], unique=False)
    op.create_table('hand_disputes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(length=500), nullable=False),
    sa.Column('opened_at', sa.DateTime(), nullable=False),
    sa.Column('resolution', sa.String(length=10), nullable=True),
    sa.Column('resolved_at', sa.DateTime(), nullable=True),
    sa.Column('resolved_by_id', sa.Integer(), nullable=True),
    sa.Column('resolved_by_label', sa.String(length=254), nullable=True),
    sa.ForeignKeyConstraint(['hand_id'], ['hands.id'],
                            name=op.f('fk_hand_disputes_hand_id_hands'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'],
                            name=op.f('fk_hand_disputes_player_id_players'), ondelete='RESTRICT'),
    sa.ForeignKeyConstraint(['resolved_by_id'], ['users.id'],
                            name=op.f('fk_hand_disputes_resolved_by_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_hand_disputes'))
    )
    with op.batch_alter_table('hand_disputes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hand_disputes_hand_id'), ['hand_id'], unique=False)
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.add_column(sa.Column('entered_by_player_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('counted', sa.Boolean(), server_default=sa.true(), nullable=False))
        batch_op.add_column(sa.Column('staff_confirmed_at', sa.DateTime(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_hands_entered_by_player_id_players'), 'players',
                                    ['entered_by_player_id'], ['id'], ondelete='SET NULL')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('entry_mode', sa.String(length=10), server_default='referee', nullable=False))
    with op.batch_alter_table('idempotency_keys', schema=None) as batch_op:
        batch_op.add_column(sa.Column('player_id', sa.Integer(), nullable=True))
        batch_op.alter_column('user_id', existing_type=sa.Integer(), nullable=True)
        batch_op.create_foreign_key(batch_op.f('fk_idempotency_keys_player_id_players'), 'players',
                                    ['player_id'], ['id'], ondelete='CASCADE')
        batch_op.create_unique_constraint('uq_idempotency_keys_player_key', ['player_id', 'key'])


def downgrade():
    with op.batch_alter_table('idempotency_keys', schema=None) as batch_op:
        batch_op.drop_constraint('uq_idempotency_keys_player_key', type_='unique')
        batch_op.drop_constraint(batch_op.f('fk_idempotency_keys_player_id_players'), type_='foreignkey')
        batch_op.drop_column('player_id')
    op.execute("DELETE FROM idempotency_keys WHERE user_id IS NULL")
    with op.batch_alter_table('idempotency_keys', schema=None) as batch_op:
        batch_op.alter_column('user_id', existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('entry_mode')
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_hands_entered_by_player_id_players'), type_='foreignkey')
        batch_op.drop_column('staff_confirmed_at')
        batch_op.drop_column('counted')
        batch_op.drop_column('entered_by_player_id')
    with op.batch_alter_table('hand_disputes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hand_disputes_hand_id'))
    op.drop_table('hand_disputes')
    with op.batch_alter_table('hand_confirmations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hand_confirmations_hand_id'))
    op.drop_table('hand_confirmations')
    op.drop_table('player_links')
