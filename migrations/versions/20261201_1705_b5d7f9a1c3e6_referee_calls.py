"""referee_calls: the referee calls log of a table (the situation, the ruling, a dead hand, the penalty given)

Revision ID: b5d7f9a1c3e6
Revises: a9c4e6b8d2f3
Create Date: 2026-12-01 17:05:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'b5d7f9a1c3e6'
down_revision = 'a9c4e6b8d2f3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('referee_calls',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('table_number', sa.Integer(), nullable=False),
    sa.Column('hand_number', sa.Integer(), nullable=True),
    sa.Column('called_by_player_id', sa.Integer(), nullable=True),
    sa.Column('situation', sa.String(length=500), nullable=False),
    sa.Column('ruling', sa.String(length=500), nullable=False),
    sa.Column('dead_hand_player_id', sa.Integer(), nullable=True),
    sa.Column('penalty_id', sa.Integer(), nullable=True),
    sa.Column('created_by_id', sa.Integer(), nullable=True),
    sa.Column('created_by_label', sa.String(length=254), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                            name=op.f('fk_referee_calls_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['session_id'], ['tournament_sessions.id'],
                            name=op.f('fk_referee_calls_session_id_tournament_sessions'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['called_by_player_id'], ['players.id'],
                            name=op.f('fk_referee_calls_called_by_player_id_players'), ondelete='RESTRICT'),
    sa.ForeignKeyConstraint(['dead_hand_player_id'], ['players.id'],
                            name=op.f('fk_referee_calls_dead_hand_player_id_players'), ondelete='RESTRICT'),
    sa.ForeignKeyConstraint(['penalty_id'], ['penalties.id'],
                            name=op.f('fk_referee_calls_penalty_id_penalties'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'],
                            name=op.f('fk_referee_calls_created_by_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_referee_calls'))
    )
    with op.batch_alter_table('referee_calls', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_referee_calls_tournament_id'), ['tournament_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_referee_calls_session_id'), ['session_id'], unique=False)


def downgrade():
    with op.batch_alter_table('referee_calls', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_referee_calls_session_id'))
        batch_op.drop_index(batch_op.f('ix_referee_calls_tournament_id'))
    op.drop_table('referee_calls')
