"""substitutions: from a hand on, another player takes a seat during a session (MERS 4); a referee's ruling on
a hand's points

Revision ID: 5d2f7a9c1e38
Revises: 3b8e6f1d2c47
Create Date: 2026-12-01 14:05:00

"""
import sqlalchemy as sa
from alembic import op

revision = '5d2f7a9c1e38'
down_revision = '3b8e6f1d2c47'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('substitutions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('table_number', sa.Integer(), nullable=False),
    sa.Column('out_player_id', sa.Integer(), nullable=False),
    sa.Column('in_player_id', sa.Integer(), nullable=False),
    sa.Column('from_hand', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(length=20), nullable=False),
    sa.Column('note', sa.String(length=500), nullable=False),
    sa.Column('created_by_id', sa.Integer(), nullable=True),
    sa.Column('created_by_label', sa.String(length=254), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['tournament_sessions.id'],
                            name=op.f('fk_substitutions_session_id_tournament_sessions'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['out_player_id'], ['players.id'],
                            name=op.f('fk_substitutions_out_player_id_players'), ondelete='RESTRICT'),
    sa.ForeignKeyConstraint(['in_player_id'], ['players.id'],
                            name=op.f('fk_substitutions_in_player_id_players'), ondelete='RESTRICT'),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'],
                            name=op.f('fk_substitutions_created_by_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_substitutions')),
    sa.UniqueConstraint('session_id', 'in_player_id', name=op.f('uq_substitutions_session_id_in_player_id'))
    )
    with op.batch_alter_table('substitutions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_substitutions_session_id'), ['session_id'], unique=False)
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ruled_points', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('ruling', sa.String(length=500), server_default='', nullable=False))


def downgrade():
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.drop_column('ruling')
        batch_op.drop_column('ruled_points')
    with op.batch_alter_table('substitutions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_substitutions_session_id'))
    op.drop_table('substitutions')
