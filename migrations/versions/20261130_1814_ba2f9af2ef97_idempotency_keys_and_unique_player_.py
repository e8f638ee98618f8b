"""idempotency keys, and one registration per person in a tournament

`idempotency_keys` keeps the first answer to a write sent with a key (a form's hidden field, the API's
Idempotency-Key header). Two unique indexes on `players` hold the registration's duplicate rule under races:
(tournament, lower(first name), lower(last name), EMA number or '') and (tournament, EMA number).

Existing duplicates do not stop the upgrade and nothing is deleted (a player may have seats and hands). The
oldest registration (lowest id) keeps its data; on each later copy the migration
- removes an EMA number another player of the tournament already has, and says so in the player's notes;
- then, if the name still matches an earlier player's, appends " (duplicate <id>)" to the last name,
and prints each change, so that organisers find the copies in the player list and withdraw or correct them.
The downgrade drops the indexes and the table; those renamed players keep their new names.

Revision ID: ba2f9af2ef97
Revises: 465c0281b993
Create Date: 2026-11-30 18:14:16.614555

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'ba2f9af2ef97'
down_revision = '465c0281b993'
branch_labels = None
depends_on = None

NAME_LIMIT = 80
NOTES_LIMIT = 1000


def _separate_duplicates():
    players = sa.table('players', sa.column('id', sa.Integer()), sa.column('tournament_id', sa.Integer()),
                       sa.column('first_name', sa.String()), sa.column('last_name', sa.String()),
                       sa.column('ema_number', sa.String()), sa.column('notes', sa.String()))
    bind = op.get_bind()
    # The database's own lower(), so that the copies found are exactly those the new index would refuse.
    rows = bind.execute(sa.select(
        players.c.id, players.c.tournament_id, players.c.last_name, players.c.ema_number, players.c.notes,
        sa.func.lower(players.c.first_name), sa.func.lower(players.c.last_name),
    ).order_by(players.c.id)).all()
    emas, names = set(), set()
    for pid, tid, last_name, ema, notes, first_key, last_key in rows:
        changes = {}
        if ema is not None and (tid, ema) in emas:
            note = f"Migration: EMA number {ema} was also on an earlier player of this tournament; removed here."
            changes['ema_number'] = ema = None
            changes['notes'] = (f"{notes}\n{note}" if notes else note)[-NOTES_LIMIT:]
        elif ema is not None:
            emas.add((tid, ema))
        if (tid, first_key, last_key, ema or '') in names:
            suffix = f" (duplicate {pid})"
            changes['last_name'] = last_name[:NAME_LIMIT - len(suffix)] + suffix
        else:
            names.add((tid, first_key, last_key, ema or ''))
        if changes:
            print(f"players: player {pid} of tournament {tid} duplicated an earlier registration: {changes}")
            bind.execute(players.update().where(players.c.id == pid).values(changes))


def upgrade():
    op.create_table('idempotency_keys',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=100), nullable=False),
    sa.Column('fingerprint', sa.String(length=64), nullable=False),
    sa.Column('status_code', sa.Integer(), nullable=True),
    sa.Column('body', sa.Text(), nullable=True),
    sa.Column('content_type', sa.String(length=200), nullable=False),
    sa.Column('location', sa.String(length=2000), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_idempotency_keys_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_idempotency_keys')),
    sa.UniqueConstraint('user_id', 'key', name='uq_idempotency_keys_user_key')
    )
    with op.batch_alter_table('idempotency_keys', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_idempotency_keys_created_at'), ['created_at'], unique=False)

    _separate_duplicates()
    op.create_index('uq_players_ema_number', 'players', ['tournament_id', 'ema_number'], unique=True)
    op.create_index('uq_players_identity', 'players', [
        'tournament_id', sa.text('lower(first_name)'), sa.text('lower(last_name)'),
        sa.text("coalesce(ema_number, '')"),
    ], unique=True)


def downgrade():
    op.drop_index('uq_players_identity', table_name='players')
    op.drop_index('uq_players_ema_number', table_name='players')
    with op.batch_alter_table('idempotency_keys', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_idempotency_keys_created_at'))

    op.drop_table('idempotency_keys')
