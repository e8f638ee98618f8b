"""tournaments.country: the host country as EMA's results write it (3 letters, e.g. NED); null until set

Revision ID: e34c0a7b1d5f
Revises: d4e8f1a2b6c3
Create Date: 2026-12-05 09:10:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'e34c0a7b1d5f'
down_revision = 'd4e8f1a2b6c3'
branch_labels = None
depends_on = None


def upgrade():
    # A plain ADD COLUMN, no batch: a batch would recreate the table on SQLite. No guess for the tournaments
    # already there: the EMA check asks for the country until someone sets it.
    op.add_column('tournaments', sa.Column('country', sa.String(length=3), nullable=True))


def downgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('country')
