"""tournaments.draw_priority (repeat opponents or teammates apart first, 'repeats_first') and
seats.previous_table (the table a player had in a published session before it was mended: shown as changed)

Revision ID: d5a1c7e3f9b2
Revises: 2e983ae1222c
Create Date: 2026-12-05 09:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'd5a1c7e3f9b2'
down_revision = '2e983ae1222c'
branch_labels = None
depends_on = None


def upgrade():
    # Plain ADD COLUMNs, no batch: a batch would recreate the tables on SQLite.
    op.add_column('tournaments', sa.Column('draw_priority', sa.String(length=20), server_default='repeats_first',
                                           nullable=False))
    op.add_column('seats', sa.Column('previous_table', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('previous_table')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('draw_priority')
