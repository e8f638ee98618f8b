"""tournaments.language (its pages' and PDFs' default language, 'en') and users.language (an account's own,
null: the browser's)

Revision ID: b3f7d1e5a9c2
Revises: c8e2a4f6b9d1
Create Date: 2026-12-01 20:15:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'b3f7d1e5a9c2'
down_revision = 'c8e2a4f6b9d1'
branch_labels = None
depends_on = None


def upgrade():
    # Plain ADD COLUMNs, no batch: a batch would recreate the tables on SQLite.
    op.add_column('tournaments', sa.Column('language', sa.String(length=8), server_default='en', nullable=False))
    op.add_column('users', sa.Column('language', sa.String(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('language')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('language')
