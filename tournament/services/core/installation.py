"""This installation's own id (models/installation.py): read, or made once when missing, safely under
concurrent requests (several gunicorn workers asking at the same moment get one and the same id)."""

from __future__ import annotations

import uuid

from sqlalchemy.exc import IntegrityError

from tournament.extensions import db
from tournament.models import Installation

ROW = 1


def installation_id() -> str:
    """The installation's UUID. Its migration writes it; when the row is missing (a database emptied by hand,
    one built without the migrations) it is inserted in a savepoint: a request that loses the race to insert
    it reads the winner's (the primary key holds one row; the flush waits for the other transaction on
    PostgreSQL). Flushed, committed by the edge."""
    row = db.session.get(Installation, ROW)
    if row is not None:
        return row.uid
    try:
        with db.session.begin_nested():
            db.session.add(Installation(id=ROW, uid=str(uuid.uuid4())))
    except IntegrityError:
        pass
    row = db.session.get(Installation, ROW, populate_existing=True)
    assert row is not None
    return row.uid
