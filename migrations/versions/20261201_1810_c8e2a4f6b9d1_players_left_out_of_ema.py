"""players.left_out_of_ema: MERS 4.3, a player who withdrew ill stripped from the EMA result

Revision ID: c8e2a4f6b9d1
Revises: b5d7f9a1c3e6
Create Date: 2026-12-01 18:10:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'c8e2a4f6b9d1'
down_revision = 'b5d7f9a1c3e6'
branch_labels = None
depends_on = None


def upgrade():
    # A plain ADD COLUMN, not a batch: on SQLite a batch that recreates the table loses the expression index
    # uq_players_identity (one registration per person), which SQLite cannot reflect.
    op.add_column('players', sa.Column('left_out_of_ema', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('left_out_of_ema')
