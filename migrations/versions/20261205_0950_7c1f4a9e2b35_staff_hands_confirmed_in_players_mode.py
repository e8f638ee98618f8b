"""hands.staff_confirmed_at: in a tournament of the players' entry mode, a hand staff recorded (entered,
corrected, or stored by a time call) is the referee's word, confirmed from the start (issue 32); the hands
recorded so before this revision get it too, at their last change. Down again nothing is taken back: the older
code reads such a hand as one a referee ruled stands, which it counts and shows as confirmed.

Revision ID: 7c1f4a9e2b35
Revises: a1d2e3f4b5c6
Create Date: 2026-12-05 09:50:00

"""
import sqlalchemy as sa
from alembic import op

revision = '7c1f4a9e2b35'
down_revision = 'a1d2e3f4b5c6'
branch_labels = None
depends_on = None

# Written out: a migration does not follow later changes of the models.
hands = sa.table('hands', sa.column('session_id', sa.Integer), sa.column('entered_by_player_id', sa.Integer),
                 sa.column('staff_confirmed_at', sa.DateTime), sa.column('updated_at', sa.DateTime))
sessions = sa.table('tournament_sessions', sa.column('id', sa.Integer), sa.column('tournament_id', sa.Integer))
tournaments = sa.table('tournaments', sa.column('id', sa.Integer), sa.column('entry_mode', sa.String(10)))


def upgrade():
    in_players_mode = (sa.select(sessions.c.id).join(tournaments, tournaments.c.id == sessions.c.tournament_id)
                       .where(tournaments.c.entry_mode == 'players'))
    op.execute(hands.update()
               .where(hands.c.entered_by_player_id.is_(None), hands.c.staff_confirmed_at.is_(None),
                      hands.c.session_id.in_(in_players_mode))
               .values(staff_confirmed_at=hands.c.updated_at))


def downgrade():
    pass
