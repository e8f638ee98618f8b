"""draw_events: the provenance of the seatings (each draw, plan, re-plan and swap, by whom and when, its seed)

Revision ID: d4e8b2f6a1c9
Revises: c3f9a1d7e5b2
Create Date: 2026-12-01 17:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'd4e8b2f6a1c9'
down_revision = 'c3f9a1d7e5b2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('draw_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('session_number', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(length=20), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=True),
    sa.Column('detail', sa.String(length=500), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('user_label', sa.String(length=254), nullable=True),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                            name=op.f('fk_draw_events_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                            name=op.f('fk_draw_events_user_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_draw_events'))
    )
    with op.batch_alter_table('draw_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_draw_events_tournament_id'), ['tournament_id'], unique=False)


def downgrade():
    with op.batch_alter_table('draw_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_draw_events_tournament_id'))
    op.drop_table('draw_events')
