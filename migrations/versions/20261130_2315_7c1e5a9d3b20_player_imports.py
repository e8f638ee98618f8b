"""player imports: a previewed players CSV kept until it is confirmed

The confirm form used to re-post the whole CSV in a hidden field; now it sends the id of this row.

Revision ID: 7c1e5a9d3b20
Revises: ba2f9af2ef97
Create Date: 2026-11-30 23:15:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '7c1e5a9d3b20'
down_revision = 'ba2f9af2ef97'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('player_imports',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('uploaded_by_id', sa.Integer(), nullable=True),
    sa.Column('csv_text', sa.Text(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('confirmed_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                            name=op.f('fk_player_imports_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['uploaded_by_id'], ['users.id'],
                            name=op.f('fk_player_imports_uploaded_by_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_imports'))
    )
    with op.batch_alter_table('player_imports', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_imports_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_player_imports_tournament_id'), ['tournament_id'], unique=False)


def downgrade():
    with op.batch_alter_table('player_imports', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_imports_tournament_id'))
        batch_op.drop_index(batch_op.f('ix_player_imports_created_at'))
    op.drop_table('player_imports')
