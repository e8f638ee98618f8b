"""import_csv leaves the bad rows out only when told how many (issue 21 item 10): the counts must be the
preview's, a file that cannot be read never imports part of itself, and without the choice it is all or none."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from tournament.extensions import db
from tournament.models import Player
from tournament.services import ConflictError, ServiceError
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData

MIXED = "first_name,last_name,ema_number\nAino,Virtanen,\nMikko,Korhonen,12ab\nLiisa,Mäkinen,\n"


def count() -> int:
    return db.session.scalar(select(func.count()).select_from(Player))


def test_good_rows_alone_with_the_previewed_counts(tournament):
    preview = reg.parse_csv(MIXED, tournament)
    assert preview.can_skip_bad_rows and (len(preview.good_rows), len(preview.bad_rows)) == (2, 1)
    with pytest.raises(ServiceError, match="1 row has problems; nothing was imported"):
        reg.import_csv(tournament, MIXED)
    with pytest.raises(ConflictError, match="changed since the preview"):
        reg.import_csv(tournament, MIXED, skip_bad_rows=2, good_rows=1)
    with pytest.raises(ConflictError, match="changed since the preview"):
        reg.import_csv(tournament, MIXED, skip_bad_rows=1, good_rows=3)
    assert count() == 0
    added = reg.import_csv(tournament, MIXED, skip_bad_rows=1, good_rows=2)
    assert sorted(p.last_name for p in added) == ["Mäkinen", "Virtanen"] and count() == 2


def test_no_partial_import_of_an_unreadable_or_now_clean_file(tournament):
    with pytest.raises(ServiceError, match="The file has problems"):
        reg.import_csv(tournament, "first_name,surname\nAino,Virtanen\n", skip_bad_rows=1, good_rows=1)
    # A choice made for bad rows that are no longer bad would import rows the organiser left out.
    clean = "first_name,last_name\nAino,Virtanen\n"
    with pytest.raises(ConflictError, match="1 row is fine and 0 have problems now"):
        reg.import_csv(tournament, clean, skip_bad_rows=1, good_rows=1)
    reg.add_player(tournament, PlayerData(first_name="Aino", last_name="Virtanen"))
    assert not reg.parse_csv(clean, tournament).can_skip_bad_rows  # every row bad: nothing to import alone
    assert count() == 1
