"""players.fixed_table: the table number a player with access needs keeps in every draw

Revision ID: e7a3c5d9b1f4
Revises: d4e8b2f6a1c9
Create Date: 2026-12-01 17:45:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'e7a3c5d9b1f4'
down_revision = 'd4e8b2f6a1c9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('fixed_table', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('fixed_table')
