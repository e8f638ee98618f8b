"""Backup and restore: a played tournament exported, imported as a new one, and compared; broken documents
refused whole with nothing saved."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from tests.helpers import comparable, make_user, players_of, row_counts, standing_rows
from tournament.extensions import db
from tournament.messages import ACTION_WORDS
from tournament.models import ScoreAction, ScoreChange, Tournament
from tournament.services.documents import exports
from tournament.services.documents.backup import (
    CHILD_MODELS,
    LEFT_OUT,
    ImportRefused,
    document_keys,
    export_tournament,
    import_tournament,
    listed_staff,
)
from tournament.services.people import invitations, tournaments
from tournament.services.people.tournaments import TournamentData

pytestmark = pytest.mark.postgres


def test_every_column_of_every_table_is_in_the_backup(demo_tournament):
    document = export_tournament(demo_tournament)
    assert set(document["tournament"]) == document_keys(Tournament.__table__)
    assert "created_by" in document["tournament"] and "version" in document["tournament"]
    for model in CHILD_MODELS:
        rows = document[model.__tablename__]
        assert rows, f"the simulated tournament has no {model.__tablename__}"
        columns = {c.name for c in model.__table__.columns if not any(
            fk.column.table.name == "tournaments" for fk in c.foreign_keys)}
        # An attribution's text column travels under its account's key (the e-mail, or the text).
        labels = {c for c in columns if c.endswith("_label")}
        assert {f"{c.removesuffix('_label')}_id" for c in labels} <= columns
        columns -= labels
        # Every column is exported, under its name or (accounts) its name without _id.
        assert {k if k in columns else f"{k}_id" for k in rows[0]} == columns, model.__tablename__


def test_every_table_of_a_tournament_is_backed_up_or_deliberately_left_out():
    """A new table hanging off a tournament, a session, a table or a hand must be added to the backup."""
    owned = {"tournaments"}
    for table in db.metadata.sorted_tables:  # referenced tables come first
        if any(fk.column.table.name in owned for fk in table.foreign_keys):
            owned.add(table.name)
    backed_up = {m.__tablename__ for m in CHILD_MODELS}
    assert owned - {"tournaments"} - LEFT_OUT == backed_up


def test_round_trip_restores_the_tournament_exactly(demo_tournament, organiser, referee):
    original = export_tournament(demo_tournament)
    assert any(p["cancelled_at"] for p in original["penalties"])
    assert any(c["action"] == "hand corrected" for c in original["score_changes"])
    assert original["false_mahjongs"] and original["clock_events"]
    assert {p["status"] for p in original["players"]} >= {"withdrawn"}
    assert any(p["is_substitute"] for p in original["players"])
    before = standing_rows(demo_tournament)

    copy_ = import_tournament(json.loads(json.dumps(original)), organiser, [referee.email])
    db.session.commit()
    invitations.accept(invitations.pending_for(referee)[0].id, referee)  # the confirmed referee says yes
    db.session.commit()
    db.session.refresh(copy_)

    assert copy_.id != demo_tournament.id
    assert copy_.name != demo_tournament.name and copy_.name.startswith(demo_tournament.name)
    restored = export_tournament(copy_)
    assert comparable(restored) == comparable(original)
    assert standing_rows(copy_) == before
    # Importing the copy's backup again gives a third, differently named tournament.
    third = import_tournament(restored, organiser, [referee.email])
    assert len({demo_tournament.name, copy_.name, third.name}) == 3


def test_a_missing_account_is_refused_naming_the_address(demo_tournament, organiser):
    document = export_tournament(demo_tournament)
    document["tournament_staff"][0]["user"] = "nobody@example.org"
    counts = row_counts()
    with pytest.raises(ImportRefused) as exc:
        import_tournament(document, organiser, ["nobody@example.org"])
    assert "nobody@example.org" in exc.value.message and exc.value.field == "tournament_staff[0].user"
    assert row_counts() == counts
    # Left unconfirmed, the place is simply left out: no account is needed for it.
    copy_ = import_tournament(document, organiser)
    assert [(m.user_id, m.role) for m in copy_.staff] == [(organiser.id, "organiser")]


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d.update(format_version=3), "format_version"),
    (lambda d: d.update(format_version="1"), "format_version"),
    (lambda d: d.pop("hands"), "hands"),
    (lambda d: d.update(hands={}), "hands"),
    (lambda d: d["hands"][3].update(session_id=10**6), "hands[3].session_id"),
    (lambda d: d["seats"][0].update(player_id=10**6), "seats[0].player_id"),
    (lambda d: d["players"][1].update(id=d["players"][0]["id"]), "players[1].id"),
    (lambda d: d["hand_payments"][0].update(delta=d["hand_payments"][0]["delta"] + 1), "hands["),
    (lambda d: d["hands"][0].update(fan_points=d["hands"][0]["fan_points"] + 1), "hands[0].fan_points"),
    (lambda d: d["hands"][0].update(result="maybe"), "hands[0].result"),
    (lambda d: d["players"][0].update(first_name=7), "players[0].first_name"),
    (lambda d: d["players"][0].pop("team"), "players[0].team"),
    (lambda d: d["players"][0].update(colour="red"), "players[0].colour"),
    (lambda d: d["tournament"].update(table_points=[4, 2]), "tournament.table_points"),
    (lambda d: d["tournament_sessions"][0].update(drawn_at="yesterday"), "tournament_sessions[0].drawn_at"),
])
def test_inconsistent_documents_are_refused_naming_the_place(demo_tournament, organiser, mutate, field):
    document = export_tournament(demo_tournament)
    mutate(document)
    counts = row_counts()
    with pytest.raises(ImportRefused) as exc:
        import_tournament(document, organiser)
    assert exc.value.field.startswith(field) and field in exc.value.message
    assert row_counts() == counts


@pytest.mark.parametrize("document", [None, [], "backup", 1, {"format_version": 1}])
def test_not_a_document(app_ctx, organiser, document):
    with pytest.raises(ImportRefused):
        import_tournament(document, organiser)


# Values no column takes: no column holds a float, and no JSON column a list of lists or {"x": float}
# (`before`/`after` take any object, so they get the float).
_JUNK = st.one_of(st.floats(allow_nan=False), st.just([[1]]), st.just({"x": 0.5}))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_mutated_documents_are_refused_with_nothing_saved(document, organiser, data):
    """Drop a key, change a value's type or point a reference at a missing id: refused, nothing saved."""
    original = document
    document = copy.deepcopy(original)
    tables = [name for name in document if isinstance(document[name], list) and document[name]]
    how = data.draw(st.sampled_from(["drop", "junk", "dangling", "version"]))
    if how == "version":
        document["format_version"] = data.draw(st.integers().filter(lambda v: v not in (1, 2)) | st.none() | st.text()
                                               | st.booleans() | _JUNK)
    else:
        name = data.draw(st.sampled_from([*tables, "tournament"]))
        row = document[name] if name == "tournament" else data.draw(st.sampled_from(document[name]))
        key = data.draw(st.sampled_from(sorted(row)))
        if how == "drop":
            del row[key]
        elif how == "junk":
            value = data.draw(_JUNK)
            row[key] = 12.5 if key in ("before", "after") else value
        else:
            refs = [k for k in row if k.endswith("_id")]
            if not refs:
                del row[key]
            else:
                row[data.draw(st.sampled_from(refs))] = 10**8
    counts = row_counts()
    with pytest.raises(ImportRefused):
        import_tournament(document, organiser, listed_staff(original))
    assert row_counts() == counts


def test_importer_without_a_staff_place_becomes_organiser(demo_tournament, app_ctx):
    other = make_user("other-organiser@example.org", "organiser")
    copy_ = import_tournament(export_tournament(demo_tournament), other)
    assert any(m.user_id == other.id and m.role == "organiser" for m in copy_.staff)


# ----------------------------------------------------------------------------- bounds (issue 22, items 2 and 10)


BIG = 2**31 - 1


def _refused(document, organiser, field: str) -> str:
    tournaments_before = db.session.scalar(select(func.count()).select_from(ScoreChange))
    with pytest.raises(ImportRefused) as exc:
        import_tournament(document, organiser)
    assert exc.value.field == field, exc.value.message
    assert exc.value.status_code == 422
    assert db.session.scalar(select(func.count()).select_from(ScoreChange)) == tournaments_before
    return exc.value.message


@pytest.mark.parametrize("setting, value, field", [
    ("session_count", BIG, "session_count"),  # grew a worker to 15 GB on the exports page
    ("session_count", 0, "session_count"),
    ("session_minutes", 10**6, "session_minutes"),
    ("warning_minutes", 200, "warning_minutes"),
    ("false_mahjong_not_winning", BIG, "false_mahjong_not_winning"),
    ("table_points", [1000, 2, 1, 0], "table_points"),
    ("table_points", [0, 1, 2, 4], "table_points"),
    ("tie_breaks", ["firsts", "firsts"], "tie_breaks"),
    ("name", "   ", "name"),
    ("venue", "v" * 201, "venue"),
])
def test_settings_pass_the_settings_forms_validation(document, organiser, setting, value, field):
    document["tournament"][setting] = value
    _refused(document, organiser, f"tournament.{field}")


def test_a_session_beyond_the_session_count_is_refused(document, organiser):
    document["tournament_sessions"][-1]["number"] = BIG
    message = _refused(document, organiser, f"tournament_sessions[{len(document['tournament_sessions']) - 1}].number")
    assert "from 1 to" in message


def test_a_table_of_three_seats_is_refused(document, organiser):
    del document["seats"][0]
    message = _refused(document, organiser, "seats")
    assert "3 seats" in message


@pytest.mark.parametrize("after, field", [
    (5, "score_changes[0].after"),
    ("text", "score_changes[0].after"),
    ([1, 2], "score_changes[0].after"),
    ({"payments": [1, 2]}, "score_changes[0].after.payments"),
    ({"payments": {"1": "x"}}, "score_changes[0].after.payments"),
    ({"payments": {}, "false_mahjongs": [{"player_id": 1}]}, "score_changes[0].after.false_mahjongs"),
    ({"amount": "ten", "player_id": 1}, "score_changes[0].after.amount"),
    ({"999999": 12}, "score_changes[0].after"),
])
def test_history_entries_have_the_shapes_the_app_writes(document, organiser, after, field):
    document["score_changes"][0]["after"] = after
    _refused(document, organiser, field)


def test_a_huge_version_is_not_carried_into_the_copy(document, organiser):
    document["tournament"]["version"] = BIG
    for hand in document["hands"]:
        hand["version"] = BIG
    copy_ = import_tournament(document, organiser)
    db.session.commit()
    assert copy_.version == 1
    # Editing it works (was an integer overflow on the version column).
    data = TournamentData.from_tournament(copy_)
    data.venue = "Elsewhere"
    tournaments.update_tournament(copy_, data, expected_version=1)
    db.session.commit()
    assert copy_.venue == "Elsewhere" and copy_.version == 2


def test_the_restored_history_names_the_copys_players(document, organiser):
    copy_ = import_tournament(document, organiser)
    db.session.commit()
    player_ids = {p.id for p in players_of(copy_)}
    session_ids = [s.id for s in copy_.sessions]
    changes = db.session.scalars(select(ScoreChange).where(ScoreChange.session_id.in_(session_ids))).all()
    assert changes
    for change in changes:
        for side in (change.before, change.after):
            if side and "payments" in side:
                assert {int(pid) for pid in side["payments"]} <= player_ids


def test_the_history_says_its_actions_in_words_and_reads_them_back(document, organiser):
    """A score change's action is stored as a ScoreAction name and written in the document as the English
    phrase the history stored before (the document says what it said); either is read back."""
    phrases = {str(words) for words in ACTION_WORDS.values()}
    assert {c["action"] for c in document["score_changes"]} <= phrases
    assert "hand entered" in {c["action"] for c in document["score_changes"]}
    document["score_changes"][0]["action"] = "hand_corrected"  # the name itself is read too
    copy_ = import_tournament(document, organiser)
    db.session.commit()
    actions = db.session.scalars(select(ScoreChange.action).where(
        ScoreChange.session_id.in_([s.id for s in copy_.sessions])).order_by(ScoreChange.id)).all()
    assert actions[0] == ScoreAction.HAND_CORRECTED and set(actions) <= set(ScoreAction)
    assert {c["action"] for c in export_tournament(copy_)["score_changes"]} <= phrases


def test_an_action_that_is_no_action_is_refused(document, organiser):
    document["score_changes"][0]["action"] = "hand eaten"
    _refused(document, organiser, "score_changes[0].action")


def test_exports_page_of_a_restored_copy_is_bounded(document, organiser):
    copy_ = import_tournament(document, organiser)
    db.session.commit()
    assert len(exports.session_numbers(copy_)) <= tournaments.LIMITS["session_count"][1]


# ----------------------------------------------------------------------------- rights (issue 22, item 9)


def test_a_document_cannot_hand_out_rights(document, organiser, referee):
    # The backup lists a referee account as organiser, and names them as the tournament's creator.
    for place in document["tournament_staff"]:
        place["role"] = "organiser"
    document["tournament"]["created_by"] = referee.email
    importer = make_user("importer@example.org", "organiser")
    copy_ = import_tournament(document, importer)
    db.session.commit()
    assert [(m.user_id, m.role) for m in copy_.staff] == [(importer.id, "organiser")]
    assert copy_.created_by_id is None and copy_.created_by_label == referee.email
    # Confirmed by the importer, the referee is invited (nobody joins a staff without saying yes), as a referee
    # whatever the document says, and is on the staff once they accept.
    second = import_tournament(document, importer, [referee.email.upper()])
    db.session.commit()
    assert [(m.user_id, m.role) for m in second.staff] == [(importer.id, "organiser")]
    [invitation] = invitations.pending_for(referee)
    assert invitation.tournament_id == second.id and invitation.role == "referee"
    invitations.accept(invitation.id, referee)
    db.session.commit()
    db.session.refresh(second)
    assert sorted((m.user_id, str(m.role)) for m in second.staff) == sorted(
        [(importer.id, "organiser"), (referee.id, "referee")])
    assert not tournaments.can_manage(referee, second) and tournaments.can_referee(referee, second)


def test_attribution_is_kept_as_text_not_linked(document, organiser, referee):
    from tournament.models import ClockEvent, Hand, Penalty

    importer = make_user("importer@example.org", "organiser")
    for hand in document["hands"]:
        hand["entered_by"] = referee.email
    document["penalties"][0]["given_by"] = "someone-gone@example.org"  # no account here: still imports
    copy_ = import_tournament(document, importer)
    db.session.commit()
    session_ids = [x.id for x in copy_.sessions]
    hands = db.session.scalars(select(Hand).where(Hand.session_id.in_(session_ids))).all()
    assert hands and all(h.entered_by_id is None and h.entered_by_label == referee.email for h in hands)
    penalty = db.session.scalars(select(Penalty).where(Penalty.tournament_id == copy_.id)
                                 .order_by(Penalty.id)).first()
    assert penalty.given_by_id is None and penalty.given_by_name == "someone-gone@example.org"
    changes = db.session.scalars(select(ScoreChange).where(ScoreChange.session_id.in_(session_ids))).all()
    assert changes and all(c.user_id is None for c in changes) and any(c.who for c in changes)
    events = db.session.scalars(select(ClockEvent).where(ClockEvent.session_id.in_(session_ids))).all()
    assert events and all(e.user_id is None for e in events)
    # Exported again, the text travels under the same keys: the copy's backup names the same people.
    again = export_tournament(copy_)
    assert {h["entered_by"] for h in again["hands"]} == {referee.email}
    assert again["penalties"][0]["given_by"] == "someone-gone@example.org"

