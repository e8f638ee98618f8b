"""installation: one row naming this installation for good (its UUID), which the calendars' UIDs end with
when PUBLIC_URL is unset

Revision ID: d4e8f1a2b6c3
Revises: b3f7d1e5a9c2
Create Date: 2026-12-05 09:00:00

"""
import uuid
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = 'd4e8f1a2b6c3'
down_revision = 'b3f7d1e5a9c2'
branch_labels = None
depends_on = None


def upgrade():
    installation = op.create_table(
        'installation',
        sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('uid', sa.String(length=36), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_installation')),
    )
    # Made here, once: every process that later reads it (workers, containers, restarts) finds the same.
    op.bulk_insert(installation, [{'id': 1, 'uid': str(uuid.uuid4()),
                                   'created_at': datetime.now(UTC).replace(tzinfo=None)}])


def downgrade():
    op.drop_table('installation')
