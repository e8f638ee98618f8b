"""Attribution as text beside each link to an account (a restored backup names people, not accounts); the
tournament setting whether penalties move table points; foul types, and a penalty's foul (amount 0: a warning)

Revision ID: 3b8e6f1d2c47
Revises: 7c1e5a9d3b20
Create Date: 2026-12-01 13:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = '3b8e6f1d2c47'
down_revision = '7c1e5a9d3b20'
branch_labels = None
depends_on = None

LABELS = (
    ('tournaments', 'created_by_label'),
    ('hands', 'entered_by_label'),
    ('penalties', 'given_by_label'),
    ('penalties', 'cancelled_by_label'),
    ('score_changes', 'user_label'),
    ('clock_events', 'user_label'),
)


def upgrade():
    for table, column in LABELS:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column(column, sa.String(length=254), nullable=True))
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('penalties_affect_table_points', sa.Boolean(), server_default=sa.true(),
                                      nullable=False))
        batch_op.add_column(sa.Column('foul_types', sa.JSON(), nullable=True))
    with op.batch_alter_table('penalties', schema=None) as batch_op:
        batch_op.add_column(sa.Column('foul', sa.String(length=60), server_default='', nullable=False))


def downgrade():
    with op.batch_alter_table('penalties', schema=None) as batch_op:
        batch_op.drop_column('foul')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('foul_types')
        batch_op.drop_column('penalties_affect_table_points')
    for table, column in reversed(LABELS):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column(column)
