"""tournaments.country: the host country as EMA's results write it (3 letters, e.g. NED); null until set

Revision ID: e34c0a7b1d5f
Revises: b3f7d1e5a9c2
Create Date: 2026-12-10 12:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'e34c0a7b1d5f'
down_revision = 'b3f7d1e5a9c2'
branch_labels = None
depends_on = None


def upgrade():
    # A plain ADD COLUMN, no batch: a batch would recreate the table on SQLite. No guess for the tournaments
    # already there: the EMA check asks for the country until someone sets it.
    op.add_column('tournaments', sa.Column('country', sa.String(length=3), nullable=True))


def downgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('country')
