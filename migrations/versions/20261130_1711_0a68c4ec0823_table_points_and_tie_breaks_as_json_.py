"""table points and tie-breaks as JSON lists

"4,2,1,0" becomes [4, 2, 1, 0] and "firsts,best_session" becomes ["firsts", "best_session"], so that the
standings read structured values instead of parsing text. Existing rows are converted both ways.

Revision ID: 0a68c4ec0823
Revises: 8bd1d8240093
Create Date: 2026-11-30 17:11:02.986058

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0a68c4ec0823'
down_revision = '8bd1d8240093'
branch_labels = None
depends_on = None

DEFAULT_TABLE_POINTS = [4, 2, 1, 0]


def _points_from_text(text):
    items = [p.strip() for p in (text or "").split(",") if p.strip()]
    try:
        return [int(p) for p in items] or DEFAULT_TABLE_POINTS
    except ValueError:
        return DEFAULT_TABLE_POINTS


def _tie_breaks_from_text(text):
    return [t.strip() for t in (text or "").split(",") if t.strip()]


def _copy(from_type, to_type, suffix, convert_points, convert_tie_breaks):
    """Fill the new `<name><suffix>` columns from the old ones, row by row, converting each value."""
    t = sa.table('tournaments', sa.column('id', sa.Integer()),
                 sa.column('table_points', from_type), sa.column('tie_breaks', from_type),
                 sa.column('table_points' + suffix, to_type), sa.column('tie_breaks' + suffix, to_type))
    bind = op.get_bind()
    for id_, points, tie_breaks in bind.execute(sa.select(t.c.id, t.c.table_points, t.c.tie_breaks)).all():
        bind.execute(t.update().where(t.c.id == id_).values(
            {'table_points' + suffix: convert_points(points), 'tie_breaks' + suffix: convert_tie_breaks(tie_breaks)}
        ))


def _replace(suffix, column_type_points, column_type_tie_breaks):
    """Drop the old columns and give the new ones their names, now required."""
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('table_points')
        batch_op.drop_column('tie_breaks')
        batch_op.alter_column('table_points' + suffix, new_column_name='table_points',
                              existing_type=column_type_points, nullable=False)
        batch_op.alter_column('tie_breaks' + suffix, new_column_name='tie_breaks',
                              existing_type=column_type_tie_breaks, nullable=False)


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('table_points_json', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('tie_breaks_json', sa.JSON(), nullable=True))
    _copy(sa.String(), sa.JSON(), '_json', _points_from_text, _tie_breaks_from_text)
    _replace('_json', sa.JSON(), sa.JSON())


def downgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('table_points_text', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('tie_breaks_text', sa.String(length=120), nullable=True))
    _copy(sa.JSON(), sa.String(), '_text',
          lambda points: ",".join(str(p) for p in (points or DEFAULT_TABLE_POINTS)),
          lambda tie_breaks: ",".join(tie_breaks or []))
    _replace('_text', sa.String(length=40), sa.String(length=120))
