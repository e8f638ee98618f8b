"""tournaments.time_zone (an IANA zone, default UTC) and session_starts (each session's planned start, UTC)

Revision ID: f2b6d8a4c7e1
Revises: e7a3c5d9b1f4
Create Date: 2026-12-01 19:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'f2b6d8a4c7e1'
down_revision = 'e7a3c5d9b1f4'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('time_zone', sa.String(length=64), server_default='UTC', nullable=False))
    op.create_table('session_starts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('session_number', sa.Integer(), nullable=False),
    sa.Column('planned_start', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                            name=op.f('fk_session_starts_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_session_starts')),
    sa.UniqueConstraint('tournament_id', 'session_number',
                        name=op.f('uq_session_starts_tournament_id_session_number'))
    )
    with op.batch_alter_table('session_starts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_session_starts_tournament_id'), ['tournament_id'], unique=False)


def downgrade():
    with op.batch_alter_table('session_starts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_session_starts_tournament_id'))
    op.drop_table('session_starts')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('time_zone')
