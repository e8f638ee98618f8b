"""session clock events and the warning time

The session clock is stored as events (start, pause, resume, end, extra time, time called at a table);
the tournament gets its warning time (minutes before the end, 15 by default).

Revision ID: 465c0281b993
Revises: 2aea88d44a47
Create Date: 2026-11-30 17:23:22.895897

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = '465c0281b993'
down_revision = '2aea88d44a47'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('clock_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('seconds', sa.Integer(), nullable=True),
    sa.Column('table_number', sa.Integer(), nullable=True),
    sa.Column('hand_in_progress', sa.Integer(), nullable=True),
    sa.Column('last_hand', sa.Integer(), nullable=True),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['tournament_sessions.id'], name=op.f('fk_clock_events_session_id_tournament_sessions'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_clock_events_user_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_clock_events'))
    )
    with op.batch_alter_table('clock_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_clock_events_session_id'), ['session_id'], unique=False)

    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('warning_minutes', sa.Integer(), server_default='15', nullable=False))



def downgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('warning_minutes')

    with op.batch_alter_table('clock_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_clock_events_session_id'))

    op.drop_table('clock_events')
