"""appeals: a player's appeal against a ruling and its decision (GB 3.12.2, MERS 2.1); the tournament's appeal
window; when a session finished

Revision ID: a7e1c3b5d9f2
Revises: 5d2f7a9c1e38
Create Date: 2026-12-01 14:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'a7e1c3b5d9f2'
down_revision = '5d2f7a9c1e38'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('appeals',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('table_number', sa.Integer(), nullable=False),
    sa.Column('hand_number', sa.Integer(), nullable=True),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('text', sa.String(length=2000), nullable=False),
    sa.Column('filed_by_id', sa.Integer(), nullable=True),
    sa.Column('filed_by_label', sa.String(length=254), nullable=True),
    sa.Column('filed_at', sa.DateTime(), nullable=False),
    sa.Column('decision', sa.String(length=20), nullable=True),
    sa.Column('decision_text', sa.String(length=2000), nullable=False),
    sa.Column('decided_by_id', sa.Integer(), nullable=True),
    sa.Column('decided_by_label', sa.String(length=254), nullable=True),
    sa.Column('decided_at', sa.DateTime(), nullable=True),
    sa.Column('correction_id', sa.Integer(), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                            name=op.f('fk_appeals_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['session_id'], ['tournament_sessions.id'],
                            name=op.f('fk_appeals_session_id_tournament_sessions'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'],
                            name=op.f('fk_appeals_player_id_players'), ondelete='RESTRICT'),
    sa.ForeignKeyConstraint(['filed_by_id'], ['users.id'],
                            name=op.f('fk_appeals_filed_by_id_users'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['decided_by_id'], ['users.id'],
                            name=op.f('fk_appeals_decided_by_id_users'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['correction_id'], ['score_changes.id'],
                            name=op.f('fk_appeals_correction_id_score_changes'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_appeals'))
    )
    with op.batch_alter_table('appeals', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_appeals_tournament_id'), ['tournament_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_appeals_session_id'), ['session_id'], unique=False)
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('appeal_minutes', sa.Integer(), server_default='30', nullable=False))
    with op.batch_alter_table('tournament_sessions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('finished_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('tournament_sessions', schema=None) as batch_op:
        batch_op.drop_column('finished_at')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('appeal_minutes')
    with op.batch_alter_table('appeals', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_appeals_session_id'))
        batch_op.drop_index(batch_op.f('ix_appeals_tournament_id'))
    op.drop_table('appeals')
