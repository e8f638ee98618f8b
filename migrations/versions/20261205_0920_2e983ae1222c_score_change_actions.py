"""score_changes.action: the English phrase each history entry stored ('hand entered') becomes the name of the
models.ScoreAction member ('hand_entered'), worded only where it is shown (tournament.messages.ACTION_WORDS);
down again, the phrases come back

Revision ID: 2e983ae1222c
Revises: e34c0a7b1d5f
Create Date: 2026-12-05 09:20:00

"""
import sqlalchemy as sa
from alembic import op

revision = '2e983ae1222c'
down_revision = 'e34c0a7b1d5f'
branch_labels = None
depends_on = None

# The phrases as the services stored them, and the names they become (written out: a migration does not
# follow later changes of the models or of the words).
PHRASES = {
    'hand entered': 'hand_entered',
    'hand entered by a player': 'hand_entered_by_player',
    'hand corrected': 'hand_corrected',
    'hand deleted': 'hand_deleted',
    'hand not scored (time called)': 'hand_not_scored',
    'hand deleted (time call undone)': 'hand_deleted_time_call_undone',
    'hand confirmed by the table': 'hand_confirmed',
    'hand disputed by a player': 'hand_disputed',
    'hand stands as entered': 'hand_stands',
    'totals entered': 'totals_entered',
    'totals corrected': 'totals_corrected',
    'totals cleared': 'totals_cleared',
    'substitution': 'substitution',
    'penalty given': 'penalty_given',
    'penalty cancelled': 'penalty_cancelled',
}

score_changes = sa.table('score_changes', sa.column('action', sa.String(40)))


def _rename(names: dict[str, str]) -> None:
    """Every row's action from a key of `names` to its value; any other value stops the migration, named."""
    connection = op.get_bind()
    unknown = connection.execute(
        sa.select(score_changes.c.action, sa.func.count()).where(score_changes.c.action.not_in(list(names)))
        .group_by(score_changes.c.action)).all()
    if unknown:
        found = ', '.join(f'{action!r} ({count})' for action, count in unknown)
        raise RuntimeError(f'score_changes.action holds values this migration does not know: {found}. Nothing '
                           'was changed: rename or delete those rows, then run the migration again.')
    for old, new in names.items():
        if old != new:
            op.execute(score_changes.update().where(score_changes.c.action == old).values(action=new))


def upgrade():
    _rename(PHRASES)


def downgrade():
    _rename({name: phrase for phrase, name in PHRASES.items()})
