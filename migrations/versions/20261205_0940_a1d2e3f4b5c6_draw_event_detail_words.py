"""draw_events.detail_words: a draw history line's detail as a message (template and values), worded for each
reader where it is shown; the English detail stays for the API and backups. Older rows keep only the English.

Revision ID: a1d2e3f4b5c6
Revises: d5a1c7e3f9b2
Create Date: 2026-12-05 09:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'a1d2e3f4b5c6'
down_revision = 'd5a1c7e3f9b2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('draw_events') as batch_op:
        batch_op.add_column(sa.Column('detail_words', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('draw_events') as batch_op:
        batch_op.drop_column('detail_words')
