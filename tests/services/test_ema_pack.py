"""The EMA submission pack: the results workbook read back cell by cell as the public importer
(`Jesterboxboy/ema_scraper`, calculators/get_results.py) reads it, the MERS weight on every band edge of
EMA's table, and the observer's draft report."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import date

import pytest
from openpyxl import load_workbook

from tests.helpers import EMA_COUNTRIES, pdf_text
from tournament.extensions import db
from tournament.models import Player
from tournament.services.core.errors import ServiceError
from tournament.services.documents import ema, ema_pack
from tournament.services.play import session as play
from tournament.services.results.standings import standings

# EMA's codes for the fixture's countries (FI, SE, DE, FR, NL, GB, IT, DK): IOC-style, NED not NLD.
EXPECTED_CODES = {"FI": "FIN", "SE": "SWE", "DE": "GER", "FR": "FRA", "NL": "NED", "GB": "GBR", "IT": "ITA",
                  "DK": "DEN"}


def cell(sheet, rowx: int, colx: int):
    """The importer's `sh.cell_value(rowx, colx)`: 0-based, as xlrd counts."""
    return sheet.cell(row=rowx + 1, column=colx + 1).value


def read_like_the_importer(data: bytes) -> tuple[dict, list[dict]]:
    """What results_to_db takes from the workbook, with the same conversions (int() of the position, the
    EMA number and the score; the member flag by truth; the EMA number padded to 8 digits when 7)."""
    sheet = load_workbook(io.BytesIO(data))["Results"]
    head = {"title": cell(sheet, 2, 0), "player_count": int(cell(sheet, 2, 1)), "country3": cell(sheet, 2, 11),
            "place": cell(sheet, 2, 12), "mers": cell(sheet, 2, 13), "rules": cell(sheet, 2, 15),
            "raw_date": cell(sheet, 2, 16), "days": cell(sheet, 2, 17)}
    players = []
    for rx in range(1, head["player_count"] + 1):
        ema_id = str(int(cell(sheet, rx, 5)))
        if len(ema_id) == 7:
            ema_id = f"0{ema_id}"
        players.append({
            "position": int(cell(sheet, rx, 2)), "first_name": cell(sheet, rx, 3), "last_name": cell(sheet, rx, 4),
            "ema_id": ema_id, "is_ema": bool(cell(sheet, rx, 8)), "country3": cell(sheet, rx, 9),
            "table_points": cell(sheet, rx, 6), "score": int(cell(sheet, rx, 7)),
        })
    return head, players


def test_the_workbook_reads_back_as_the_importer_reads_it(pack):
    t, disqualified, no_number = pack
    t.country = "NED"  # the host country (a Dutch event with one Dutch player: no guess from the players)
    document = ema_pack.results_workbook(t)
    assert document.mimetype == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    head, players = read_like_the_importer(document.data)
    ranked = standings(t).rows
    assert len(ranked) == 8                               # the no-show is not ranked
    # 8 players of 8 countries over 3 days: 3 + 0 + 0.5 (6 <= countries <= 9)
    assert head == {"title": "Helsinki Open", "player_count": 8, "country3": "NED", "place": "Helsinki",
                    "mers": 3.5, "rules": "MCR", "raw_date": "5-7 June 2026", "days": 3}
    people = {p.id: p for p in db.session.scalars(db.select(Player))}
    assert [p["position"] for p in players] == [r.rank for r in ranked]
    assert [(p["first_name"], p["last_name"]) for p in players] == [
        (people[r.player_id].first_name, people[r.player_id].last_name) for r in ranked]
    assert [p["score"] for p in players] == [r.score for r in ranked]
    assert [p["country3"] for p in players] == [EXPECTED_CODES[people[r.player_id].country] for r in ranked]
    assert {p["country3"] for p in players} == set(EXPECTED_CODES.values())
    for p, r in zip(players, ranked, strict=True):
        person = people[r.player_id]
        if person.id == no_number.id:
            assert p["is_ema"] is False and p["ema_id"] == "0"
        else:
            assert p["is_ema"] is True and p["ema_id"] == person.ema_number
    assert "Noshow" not in {p["last_name"] for p in players}
    dq = next(p for p, r in zip(players, ranked, strict=True) if r.player_id == disqualified.id)
    assert dq["table_points"] == 0                         # MERS 4.4: in the result, 0 table points
    # the CSV is unchanged beside it: the same players, 2-letter countries
    csv_rows = ema.ema_rows(t)
    assert [r.place for r in csv_rows] == [p["position"] for p in players]
    assert {r.country for r in csv_rows} == set(EMA_COUNTRIES)


def test_labels_and_the_cells_the_importer_does_not_read(pack):
    t, _, _ = pack
    sheet = load_workbook(io.BytesIO(ema_pack.results_workbook(t).data))["Results"]
    assert [cell(sheet, 0, c) for c in range(2, 10)] == list(ema_pack.PLAYER_LABELS)
    assert cell(sheet, 1, 13) == "MERS" and cell(sheet, 1, 17) == "Days"
    assert cell(sheet, 2, 14) == 8 and cell(sheet, 2, 10) is None   # countries; column 10 empty
    assert sheet.cell(row=2, column=6).number_format == "@"          # an EMA number keeps its leading zero


def test_query_options_country_place_and_qualification(pack):
    t, _, _ = pack
    head, _ = read_like_the_importer(ema_pack.results_workbook(t).data)
    assert head["country3"] is None  # unset: no guess (the check asks for it)
    for given in ("nl", "NLD", "NED", "Nederland", "Alankomaat", "荷兰"):
        head, _ = read_like_the_importer(ema_pack.results_workbook(t, qualification=True, country=given,
                                                                   place="Amsterdam").data)
        assert (head["country3"], head["place"], head["mers"]) == ("NED", "Amsterdam", 4.5), given
    for bad in ("XX", "", "Atlantis"):
        with pytest.raises(ServiceError) as refused:
            ema_pack.results_workbook(t, country=bad)
        assert refused.value.field == "country"


@pytest.mark.parametrize(("days", "players", "countries", "qualification", "weight"), [
    (1, 16, 1, False, 1.0),
    (1, 40, 5, False, 1.0),      # upper edges of the +0 bands
    (1, 41, 5, False, 1.5),      # 41 <= X <= 80: +0.5
    (2, 80, 6, False, 3.0),      # 6 <= countries <= 9: +0.5
    (2, 81, 9, False, 3.5),      # X > 80: +1
    (3, 81, 10, False, 5.0),     # countries >= 10: +1
    (3, 216, 25, True, 6.0),     # a qualifying European championship: 3 + 1 + 1 + 1
    (4, 40, 5, False, 3.0),      # the table stops at 3 days
])
def test_mers_weight_on_every_band_edge(days, players, countries, qualification, weight):
    assert ema_pack.mers_weight(days, players, countries, qualification) == weight


def test_mers_weight_needs_a_day():
    with pytest.raises(ServiceError):
        ema_pack.mers_weight(0, 40, 5)


def test_mers_from_the_tournament_counts_played_substitutes_up_to_three(pack):
    t, _, _ = pack
    weight = ema_pack.mers(t)
    assert (weight.weight, weight.days, weight.players, weight.countries, weight.ranked) == (3.5, 3, 8, 8, 8)
    seat = next(s for s in play.get_session(t, 1).seats if s.table_number == 2)
    db.session.get(Player, seat.player_id).is_substitute = True
    db.session.commit()
    weight = ema_pack.mers(t)
    # the substitute's country counts: they played (countries_played); the file's players have 7
    assert (weight.players, weight.ranked, weight.substitutes, weight.countries) == (8, 7, 1, 8)
    assert (weight.countries_played, weight.countries_ranked) == (8, 7)
    t.start_date = t.end_date = None
    assert ema_pack.mers(t).days == 1


def test_member_flag_and_dates():
    assert ema_pack.is_ema_member("04000001") and ema_pack.is_ema_member(" 04000001 ")
    assert not any(ema_pack.is_ema_member(n) for n in (None, "", "1234567", "12AB5678", "123456789"))
    assert ema_pack.date_text(date(2026, 6, 5), date(2026, 6, 5)) == "5 June 2026"
    assert ema_pack.date_text(date(2026, 6, 5), None) == "5 June 2026"
    assert ema_pack.date_text(date(2026, 5, 31), date(2026, 6, 2)) == "31 May - 2 June 2026"
    assert ema_pack.date_text(date(2026, 12, 30), date(2027, 1, 2)) == "30 December 2026 - 2 January 2027"
    assert ema_pack.date_text(None, None) == ""


def test_observer_report(pack):
    t, _, _ = pack
    t.country = "GER"
    document = ema_pack.observer_report(t)
    assert document.mimetype == "application/pdf"
    text = "\n".join(pdf_text(document.data))
    for expected in ("EMA observer report (draft)", "Helsinki Open", "5-7 June 2026", "MERS weight: 3.5",
                     "EMA (Green Book)", "Germany (GER)", "NED", "Netherlands", "Observer"):
        assert expected in text, expected


def test_text_that_looks_like_a_formula_stays_text(pack):
    # openpyxl writes any text starting with "=" as a formula, whatever the number format: a first name
    # =HYPERLINK(...) was a live link in the organiser's Excel, a venue =cmd|... a command.
    t, _, _ = pack
    link, command = '=HYPERLINK("http://x","y")', "=cmd|' /C calc'!A0"
    t.name, t.venue = "=1+1", command
    first = db.session.get(Player, standings(t).rows[0].player_id)
    first.first_name, first.last_name = link, "=SUM(A1:A9)"
    db.session.commit()
    sheet = load_workbook(io.BytesIO(ema_pack.results_workbook(t).data))["Results"]
    cells = [c for row in sheet.iter_rows() for c in row if c.value is not None]
    assert not [c.coordinate for c in cells if c.data_type == "f"]
    for rowx, colx, text in ((2, 0, "=1+1"), (2, 12, command), (1, 3, link), (1, 4, "=SUM(A1:A9)")):
        found = sheet.cell(row=rowx + 1, column=colx + 1)
        assert (found.value, found.data_type) == (text, "s")
    # numbers stay numbers: the position, the player count, the MERS weight, the score
    assert all(sheet.cell(row=r + 1, column=c + 1).data_type == "n" for r, c in ((1, 2), (2, 1), (2, 13), (1, 7)))
    assert all(c.data_type == "s" for c in cells if isinstance(c.value, str))


# ----------------------------------------------------------------------------- who played, read back, warnings


def test_substitutes_who_came_in_count_and_a_late_player_replaced_from_hand_1_does_not(seated):
    from tests.helpers import add_players
    from tournament.services.seating import substitutions

    t, ids = seated
    t.country = "FIN"
    ill, late = add_players(t, 2, substitute=True, start=8)
    ill.country, late.country = "JP", "CN"   # countries no player has
    substitutions.substitute(t, 1, 1, out_player_id=ids[2], in_player_id=ill.id, from_hand=9, reason="ill",
                             user=None)
    other = play.table_players(play.get_session(t, 1), 2)[0].player_id
    substitutions.substitute(t, 1, 2, out_player_id=other, in_player_id=late.id, from_hand=1, reason="late",
                             user=None)
    db.session.commit()
    played = ema.who_played(t).where
    assert played[ill.id] == [(1, 1, 9)] and played[late.id] == [(1, 2, 1)]
    assert ids[2] in played and other not in played   # replaced from hand 1: no hand of the session
    weight = ema_pack.mers(t)
    # 2 substitutes played a hand; the countries of all who played: FI, and JP and CN of the substitutes
    assert (weight.substitutes, weight.players, weight.countries_played) == (2, weight.ranked + 2, 3)
    assert weight.countries_ranked == 1 and weight.countries == 3
    problems = [p.message for p in ema.check(t) if "Substitute" in p.message]
    assert any(f"Substitute {ill.full_name} played at table 1 of session 1 from hand 9" in m for m in problems)
    assert any(f"Substitute {late.full_name} played at table 2 of session 1:" in m for m in problems)


def test_the_checks_reading_of_the_workbook_agrees_with_openpyxls(pack):
    t, _, _ = pack
    t.country = "NED"
    data = ema_pack.results_workbook(t, qualification=True).data
    ours = ema_pack.SheetCells(data).cells
    book = load_workbook(io.BytesIO(data))["Results"]
    theirs = {}
    for row in book.iter_rows():
        for c in row:
            if c.value is None:
                continue
            value = c.value
            theirs[(c.row - 1, c.column - 1)] = int(value) if isinstance(value, bool) else (
                float(value) if isinstance(value, int | float) else value)
    assert ours == theirs and len(ours) > 80
    # and what EMA's reader takes from it, read with openpyxl as tests/ reads it and with the check's reader
    head, players = read_like_the_importer(data)
    reading = ema_pack.read_as_ema(data)
    assert reading.error == ""
    assert (reading.header["title"], reading.header["players"], reading.header["country3"], reading.header["mers"],
            reading.header["dates"], reading.header["days"]) == (
        head["title"], head["player_count"], head["country3"], head["mers"], head["raw_date"], head["days"])
    assert [(p["position"], p["first_name"], p["last_name"], p["member"], p["table_points"], p["score"],
             p["country3"]) for p in reading.players] == [
        (p["position"], p["first_name"], p["last_name"], p["is_ema"], p["table_points"], p["score"], p["country3"])
        for p in players]
    assert [p["ema_number"] for p in reading.players if p["member"]] == [p["ema_id"] for p in players if p["is_ema"]]
    assert ema_pack.check(t).problems == ema.check(t)   # the workbook says what the results say


def test_the_check_reports_what_ema_would_read_otherwise(pack, monkeypatch):
    t, _, _ = pack
    t.country = "NED"
    first = db.session.get(Player, standings(t).rows[1].player_id)
    number, first.ema_number = first.ema_number, "00123456"   # int() drops both zeros; EMA's reader pads only a 7-digit number
    db.session.commit()
    found = [p for p in ema_pack.check(t).problems if p not in ema.check(t)]
    assert [(p.player_id, p.message) for p in found] == [(first.id, (
        f"EMA's reader takes the EMA number of {first.full_name} (row 3) as '123456', not '00123456'."))]
    first.ema_number = number
    db.session.commit()
    real = ema_pack.workbook_bytes

    def wrong(title, place, country, weight, rules, rows):  # a writer that puts the weight in the wrong cell
        return real(title, place, country, replace(weight, weight=weight.weight + 1), rules, rows)

    monkeypatch.setattr(ema_pack, "workbook_bytes", wrong)
    found = [p.message for p in ema_pack.check(t).problems if p not in ema.check(t)]
    assert found == ["EMA's reader takes the MERS weight in the workbook as 4.5, not 3.5."]


def test_band_edge_warnings():
    def weight(players, played, ranked=None):
        return ema_pack.Mers(weight=ema_pack.mers_weight(2, players, played), days=2, players=players,
                             countries=played, qualification=False, ranked=players, substitutes=0,
                             start_date=None, end_date=None, countries_played=played,
                             countries_ranked=played if ranked is None else ranked)

    assert ema_pack.band_warnings(weight(30, 7)) == []
    messages = [w.message for w in ema_pack.band_warnings(weight(41, 10, ranked=9))]
    assert messages == [
        "The weight is one player from a band edge: 41 players count (the ranked, and the substitutes who played "
        "up to 3); with 40 it would be 3, not 3.5.",
        "The weight is one country from a band edge: 10 countries count; with 9 it would be 3, not 3.5.",
        "10 countries played a hand and 9 are those of the ranked players: the weight counts 10, every country "
        "that took part, substitutes included (MERS: EMA's Basics for ranking system counts the participants)."]
    assert len(ema_pack.band_warnings(weight(80, 5))) == 2   # 81 players, 6 countries: both +0.5
