"""The one check of free text (tournament.text.control_refusal, issue 31): a one-line field refuses every control
character (line breaks, tabs, C1, the Unicode line separators), a field of several lines keeps line breaks and
tabs; each service names its field."""

from __future__ import annotations

import pytest

from tests.helpers import VALID_22, table_ids
from tournament.extensions import db
from tournament.models import Player
from tournament.services.core.errors import ServiceError
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData
from tournament.services.people.tournaments import TournamentData
from tournament.services.people.tournaments import validate as validate_settings
from tournament.services.play import appeals, confirmations, scoring
from tournament.services.play.scoring import HandData
from tournament.services.seating import substitutions
from tournament.text import control_character, control_refusal


@pytest.mark.parametrize(("text", "one_line", "lines"), [
    ("Łukasz Dvořák 王 🀄 - 'quoted' \"too\"", None, None),
    ("a\nb", "U+000A", None), ("a\r\nb", "U+000D", None), ("a\tb", "U+0009", None),
    ("a\x00b", "U+0000", "U+0000"), ("a\x0bb", "U+000B", "U+000B"), ("a\x1bb", "U+001B", "U+001B"),
    ("a\x7fb", "U+007F", "U+007F"), ("a\x85b", "U+0085", "U+0085"), ("a\u2028b", "U+2028", "U+2028"),
])
def test_control_characters(text, one_line, lines):
    assert control_character(text) == one_line
    assert control_character(text, multiline=True) == lines


def test_the_refusal_names_the_field_and_the_character():
    assert str(control_refusal("Hall\nB", "the venue")) == (
        "Remove the line break or other control character (U+000A) from the venue: it is one line of text.")
    assert control_refusal("Hall B", "the venue") is None


def test_tournament_settings_name_the_field():
    errors = validate_settings(TournamentData(name="Open\r\nX", venue="Hall\u2029B",
                                              foul_types=("Late", "Slow\tplay")))
    assert set(errors) == {"name", "venue", "foul_types"}
    assert "from the tournament's name" in errors["name"] and "(U+2029) from the venue" in errors["venue"]
    # trimmed first, as before: a line break at the end is no refusal
    assert validate_settings(TournamentData(name="Open\r\n", venue="\nHall ")) == {}


def test_a_player_keeps_the_lines_of_the_notes_only(tournament):
    errors = reg.validate(PlayerData(first_name="Aino\nMaria", last_name="Vir\x0btanen", club="A\tB", team="T\rF",
                                     notes="Line one\r\nLine two\tend"))
    assert set(errors) == {"first_name", "last_name", "club", "team"}
    assert "from the first name" in errors["first_name"] and "from the club" in errors["club"]
    errors = reg.validate(PlayerData(first_name="Aino", last_name="Virtanen", notes="Bell\x07"))
    assert list(errors) == ["notes"] and "(U+0007) from the notes" in errors["notes"]
    player = reg.add_player(tournament, PlayerData(first_name=" Aino ", last_name="Virtanen",
                                                   notes="Line one\nLine two"))
    assert (player.first_name, player.notes) == ("Aino", "Line one\nLine two")


def test_a_csv_cell_with_a_line_break_in_a_name_is_a_bad_row():
    preview = reg.parse_csv('first_name,last_name,notes\n"Aino\nMaria",Virtanen,"two\nlines"\nMikko,K,"a\nb"\n')
    problems = {r.number: " ".join(str(e) for e in r.errors) for r in preview.rows}
    assert problems == {2: "Remove the line break or other control character (U+000A) from the first name: it is "
                           "one line of text.", 3: ""}
    assert preview.good_rows[0].data.notes == "a\nb"


def test_reasons_and_rulings_are_one_line(seated):
    t, (east, south, *_) = seated
    with pytest.raises(ServiceError) as refused:
        reg.disqualify_player(db.session.get(Player, east), "Cheat\ning")
    assert refused.value.field == "reason"
    with pytest.raises(ServiceError) as refused:
        reg.withdraw(db.session.get(Player, south), "Ill\rtoday")
    assert refused.value.field == "note"
    sub = reg.add_player(t, PlayerData(first_name="Sub", last_name="Stitute", is_substitute=True))
    with pytest.raises(ServiceError) as refused:
        substitutions.substitute(t, 1, 1, out_player_id=east, in_player_id=sub.id, from_hand=1, reason="late",
                                 user=None, note="Came\nlate")
    assert refused.value.field == "note" and "from the note" in refused.value.message
    with pytest.raises(ServiceError) as refused:
        scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=east, discarder_id=south,
                                             hand=VALID_22, ruled_points=8, ruling="No wait\r\nfan"), None)
    assert (refused.value.status_code, refused.value.field) == (422, "ruling")


def test_a_dispute_and_an_appeal_keep_their_lines(seated, referee):
    t, (east, south, *_) = seated
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=east, discarder_id=south,
                                         hand=VALID_22), None)
    player = db.session.get(Player, table_ids(t, 1, 1)[2])
    with pytest.raises(ServiceError) as refused:
        confirmations.dispute(t, player, 1, 1, "Wrong\x00winner")
    assert refused.value.field == "reason" and "(U+0000) from the reason" in refused.value.message
    confirmations.dispute(t, player, 1, 1, "Wrong winner:\nit was North's discard")
    with pytest.raises(ServiceError) as refused:
        appeals.file_appeal(t, 1, 1, 1, east, "No\x1b", referee)
    assert refused.value.field == "text" and "from the appeal" in refused.value.message
    appeal = appeals.file_appeal(t, 1, 1, 1, east, "First:\r\nthe discard.\nSecond: the wall.", referee)
    with pytest.raises(ServiceError) as refused:
        appeals.decide(t, appeal.id, "rejected", "No\x85", referee)
    assert refused.value.field == "text" and "from the decision's reasons" in refused.value.message
    assert appeals.decide(t, appeal.id, "rejected", "The discard\nstands.", referee).decision_text == (
        "The discard\nstands.")
