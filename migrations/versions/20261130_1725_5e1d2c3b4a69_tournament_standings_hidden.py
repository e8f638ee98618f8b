"""tournament standings_hidden: the organisers can hide the standings from the public

Revision ID: 5e1d2c3b4a69
Revises: 0a68c4ec0823
Create Date: 2026-11-30 17:25:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '5e1d2c3b4a69'
down_revision = '0a68c4ec0823'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('standings_hidden', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('standings_hidden')
