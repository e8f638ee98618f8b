import pytest
from sqlalchemy import func, select

from tournament.extensions import db
from tournament.models import Player, PlayerStatus
from tournament.services import ConflictError, NotFound, ServiceError
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData


def add(tournament, first="Aino", last="Virtanen", **kwargs):
    return reg.add_player(tournament, PlayerData(first_name=first, last_name=last, **kwargs))


def player_count() -> int:
    return db.session.scalar(select(func.count(Player.id)))


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "stored"),
    [("fi", "FI"), ("FIN", "FI"), ("Finland", "FI"), ("  germany ", "DE"), ("GBR", "GB"), ("", "")],
)
def test_country_accepts_codes_and_english_names(given, stored):
    data = PlayerData("Aino", "Virtanen", country=given)
    assert reg.validate(data) == {}
    assert data.country == stored


@pytest.mark.parametrize("given", ["XX", "Atlantis", "F1", "ABCD", "DDR", "EU"])
def test_unknown_country_is_refused_with_a_clear_message(given):
    errors = reg.validate(PlayerData("Aino", "Virtanen", country=given))
    assert errors["country"].startswith(f"Unknown country '{given}'")


@pytest.mark.parametrize("ema", ["1234567", "123456789", "1234567a", "１２３４５６７８"])
def test_ema_number_must_be_exactly_eight_digits(ema):
    errors = reg.validate(PlayerData("Aino", "Virtanen", ema_number=ema))
    assert "exactly 8 digits" in errors["ema_number"]


def test_valid_data_is_normalised():
    data = PlayerData("  Aino ", " Virtanen  Jr ", club=" Helsinki ", ema_number=" 0400 0123 ")
    assert reg.validate(data) == {}
    assert (data.first_name, data.last_name, data.club, data.ema_number) == ("Aino", "Virtanen Jr", "Helsinki", "04000123")
    empty = PlayerData("Aino", "Virtanen", ema_number="")
    reg.validate(empty)
    assert empty.ema_number is None


def test_names_are_required_and_limited():
    errors = reg.validate(PlayerData(" ", "", status="sleeping"))
    assert errors["first_name"] == "The first name is required."
    assert errors["last_name"] == "The last name is required."
    assert "Unknown status" in errors["status"]
    errors = reg.validate(PlayerData("A" * 81, "B" * 80))
    assert "at most 80" in errors["first_name"]
    assert "last_name" not in errors


# --- adding, duplicates, editing --------------------------------------------------------------


def test_add_player_stores_everything(tournament):
    p = add(tournament, country="FIN", club="Helsinki MC", team="Team FI", ema_number="04000123",
            is_substitute=True, notes="Vegetarian")
    db.session.expire_all()
    p = db.session.get(Player, p.id)
    assert (p.country, p.club, p.team, p.ema_number, p.is_substitute, p.status, p.notes) == (
        "FI", "Helsinki MC", "Team FI", "04000123", True, "registered", "Vegetarian"
    )
    assert p.checked_in_at is None


def test_same_name_and_ema_number_is_a_duplicate(tournament):
    add(tournament, ema_number="04000123")
    with pytest.raises(ServiceError) as exc:
        add(tournament, first="AINO", last="virtanen", ema_number="04000123")
    assert "Aino Virtanen with EMA number 04000123 is already registered" in exc.value.message
    assert player_count() == 1


def test_same_name_without_ema_numbers_is_a_duplicate(tournament):
    add(tournament)
    with pytest.raises(ServiceError) as exc:
        add(tournament, first="aino", last="VIRTANEN")
    assert "without an EMA number is already registered" in exc.value.errors["first_name"]
    assert player_count() == 1


def test_same_name_with_different_ema_numbers_is_two_people(tournament):
    add(tournament, ema_number="04000123")
    add(tournament, ema_number="04000999")
    assert player_count() == 2


def test_an_ema_number_belongs_to_one_player(tournament):
    add(tournament, ema_number="04000123")
    with pytest.raises(ServiceError) as exc:
        add(tournament, first="Mikko", last="Korhonen", ema_number="04000123")
    assert exc.value.errors["ema_number"] == "EMA number 04000123 already belongs to Aino Virtanen."
    assert player_count() == 1


def test_the_same_player_may_play_in_another_tournament(tournament, organiser):
    from tournament.services.people.tournaments import TournamentData, create_tournament

    other = create_tournament(organiser, TournamentData(name="Tampere Open"))
    add(tournament, ema_number="04000123")
    add(other, ema_number="04000123")
    assert player_count() == 2


def test_team_spelling_follows_the_existing_team(tournament):
    add(tournament, team="Team Finland")
    p = add(tournament, first="Mikko", team="team finland")
    assert p.team == "Team Finland"
    assert list(reg.team_members(tournament)) == ["Team Finland"]


def test_update_player_and_stale_version(tournament):
    p = add(tournament)
    version = p.version
    reg.update_player(p, PlayerData("Aino", "Lindqvist", country="SE"), expected_version=version)
    assert (p.last_name, p.country, p.version) == ("Lindqvist", "SE", version + 1)
    with pytest.raises(ConflictError) as exc:
        reg.update_player(p, PlayerData("Aino", "Berg"), expected_version=version)
    assert "changed by someone else" in exc.value.message
    db.session.expire_all()
    assert db.session.get(Player, p.id).last_name == "Lindqvist"


def test_update_may_keep_its_own_name_and_ema_number(tournament):
    p = add(tournament, ema_number="04000123")
    reg.update_player(p, PlayerData("Aino", "Virtanen", ema_number="04000123", club="New club"), p.version)
    assert p.club == "New club"


def test_update_cannot_take_another_players_ema_number(tournament):
    add(tournament, ema_number="04000123")
    p = add(tournament, first="Mikko", last="Korhonen")
    with pytest.raises(ServiceError):
        reg.update_player(p, PlayerData("Mikko", "Korhonen", ema_number="04000123"), p.version)
    db.session.expire_all()
    assert db.session.get(Player, p.id).ema_number is None


def test_concurrent_change_in_another_session_is_a_conflict(tournament, app):
    """Two desks change the same player: the database-level version check refuses the second."""
    p = add(tournament)
    db.session.commit()
    from sqlalchemy.orm import Session

    with Session(db.engine) as other:
        same = other.get(Player, p.id)
        same.notes = "changed elsewhere"
        other.commit()
    with pytest.raises(ConflictError):
        reg.update_player(p, PlayerData("Aino", "Virtanen", club="Mine"), p.version)  # the form's (stale) version
    db.session.expire_all()
    fresh = db.session.get(Player, p.id)
    assert (fresh.notes, fresh.club) == ("changed elsewhere", "")


def test_update_without_a_version_is_refused_and_writes_nothing(tournament):
    p = add(tournament)
    db.session.commit()
    with pytest.raises(ServiceError, match="did not say which version") as exc:
        reg.update_player(p, PlayerData("Aino", "Berg"), expected_version=None)
    assert exc.value.field == "version"
    db.session.expire_all()
    fresh = db.session.get(Player, p.id)
    assert (fresh.last_name, fresh.version) == ("Virtanen", 1)


def test_get_player_of_another_tournament_is_not_found(tournament, organiser):
    from tests.helpers import make_tournament

    other = make_tournament(organiser, name="Other Open")
    p = add(other)
    with pytest.raises(NotFound):
        reg.get_player(tournament, p.id)
    with pytest.raises(NotFound):
        reg.get_player(tournament, 2**40)  # past the database's integer range: no query, no overflow
    assert reg.get_player(other, p.id) is p


# --- status ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "target", "allowed"),
    [
        (PlayerStatus.REGISTERED, PlayerStatus.PRESENT, True),
        (PlayerStatus.PRESENT, PlayerStatus.WITHDRAWN, True),
        (PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED, True),
        (PlayerStatus.DISQUALIFIED, PlayerStatus.REGISTERED, True),
        (PlayerStatus.DISQUALIFIED, PlayerStatus.PRESENT, False),
        (PlayerStatus.DISQUALIFIED, PlayerStatus.WITHDRAWN, False),
        (PlayerStatus.WITHDRAWN, PlayerStatus.PRESENT, False),
    ],
)
def test_status_moves_follow_the_table(tournament, start, target, allowed):
    assert reg.can_move(start, target) is allowed
    p = add(tournament)
    p.status = start
    db.session.commit()
    if allowed:
        reg.set_status(p, target)
        assert p.status == target
    else:
        with pytest.raises(ServiceError):
            reg.set_status(p, target)
        db.session.expire_all()
        assert db.session.get(Player, p.id).status == start


def test_edit_cannot_move_a_disqualified_player_straight_to_present(tournament):
    p = add(tournament)
    reg.disqualify(p, "cheating")
    db.session.commit()
    data = PlayerData.from_player(p)
    data.status, data.club = PlayerStatus.PRESENT, "Sneaky club"
    with pytest.raises(ServiceError, match="reinstate") as exc:
        reg.update_player(p, data, p.version)
    assert exc.value.field == "status"
    db.session.expire_all()
    fresh = db.session.get(Player, p.id)
    assert (fresh.status, fresh.club, fresh.checked_in_at) == (PlayerStatus.DISQUALIFIED, "", None)


def test_check_in_and_undo(tournament):
    p = add(tournament)
    reg.check_in(p)
    assert p.status == PlayerStatus.PRESENT
    assert p.checked_in_at is not None
    first_time = p.checked_in_at
    reg.check_in(p)  # a second click changes nothing
    assert p.checked_in_at == first_time
    reg.undo_check_in(p)
    assert p.status == PlayerStatus.REGISTERED
    assert p.checked_in_at is None


def test_withdraw_with_note_and_reinstate(tournament):
    p = add(tournament, notes="Arrives by train")
    reg.withdraw(p, "ill")
    assert p.status == PlayerStatus.WITHDRAWN
    assert p.notes == "Arrives by train\nWithdrawn: ill"
    with pytest.raises(ServiceError, match="already withdrawn"):
        reg.withdraw(p)
    with pytest.raises(ServiceError, match="reinstate them before check-in"):
        reg.check_in(p)
    reg.reinstate(p)
    assert p.status == PlayerStatus.REGISTERED
    with pytest.raises(ServiceError, match="nothing to reinstate"):
        reg.reinstate(p)


def test_disqualify(tournament):
    p = add(tournament)
    reg.check_in(p)
    reg.disqualify(p, "cheating")
    assert p.status == PlayerStatus.DISQUALIFIED
    assert p.notes.endswith("Disqualified: cheating")
    with pytest.raises(ServiceError):
        reg.undo_check_in(p)


def test_set_status_refuses_unknown_status(tournament):
    p = add(tournament)
    with pytest.raises(ServiceError):
        reg.set_status(p, "asleep")
    assert p.status == PlayerStatus.REGISTERED


# --- lists -----------------------------------------------------------------------------------


def test_list_players_sorted_by_last_name_with_filters(tournament, field):
    names = [p.last_name for p in reg.list_players(tournament)]
    assert names == ["Aalto", "Berg", "García", "Korhonen", "Virtanen", "Zimmer"]
    assert [p.first_name for p in reg.list_players(tournament, status="withdrawn")] == ["Mikko"]
    assert [p.first_name for p in reg.list_players(tournament, search="garcia")] == ["José"]
    assert [p.first_name for p in reg.list_players(tournament, search="aino helsinki")] == ["Aino"]
    assert [p.first_name for p in reg.list_players(tournament, search="1234")] == ["José"]
    assert [p.first_name for p in reg.list_players(tournament, search="sweden")] == ["Lars"]
    with pytest.raises(ServiceError):
        reg.list_players(tournament, status="asleep")


def test_withdrawn_and_absent_players_are_not_active(tournament, field):
    active = reg.active_players(tournament)
    assert [p.first_name for p in active] == ["José", "Aino"]
    assert field["mikko"] not in active  # withdrawn after checking in
    assert field["lars"] not in active  # not checked in yet
    reg.check_in(field["lars"])  # a late arrival joins the next draw
    assert field["lars"] in reg.active_players(tournament)


def test_substitutes_are_listed_separately(tournament, field):
    assert [p.first_name for p in reg.available_substitutes(tournament)] == ["Sanna"]
    assert all(not p.is_substitute for p in reg.active_players(tournament))


def test_team_members_and_counts(tournament, field):
    teams = reg.team_members(tournament)
    assert {team: [p.first_name for p in members] for team, members in teams.items()} == {
        "Team FI": ["Mikko", "Aino"]
    }
    assert [p.first_name for p in reg.team_members(tournament, statuses=["present"])["Team FI"]] == ["Aino"]
    assert reg.counts(tournament) == {
        "registered": 1, "present": 2, "withdrawn": 1, "disqualified": 0,
        "players": 4, "substitutes": 2, "substitutes_present": 1,
    }


# --- CSV -------------------------------------------------------------------------------------

GOOD_CSV = (
    "first_name,last_name,country,club,team,ema_number,substitute,notes\n"
    "Aino,Virtanen,FI,Helsinki MC,Team FI,04000123,no,\n"
    "Mikko,Korhonen,Finland,,Team FI,,yes,Late on Saturday\n"
)


def test_parse_good_csv(tournament):
    preview = reg.parse_csv(GOOD_CSV, tournament)
    assert preview.ok
    assert [r.number for r in preview.rows] == [2, 3]
    mikko = preview.rows[1].data
    assert (mikko.country, mikko.is_substitute, mikko.ema_number, mikko.notes) == ("FI", True, None, "Late on Saturday")
    assert player_count() == 0  # a preview saves nothing


def test_bad_rows_are_all_reported_and_nothing_is_saved(tournament):
    add(tournament, "Lars", "Berg", ema_number="11111111")
    text = (
        "first_name;last_name;country;ema_number;substitute\n"  # semicolons, as Excel writes them in Europe
        "Aino;Virtanen;FI;04000123;no\n"
        "Mikko;Korhonen;XX;;\n"
        "Jonas;Lindqvist;SE;1234;\n"
        "\n"
        ";Dubois;FR;;\n"
        "Aino;VIRTANEN;FI;04000123;\n"
        "Lars;Berg;SE;11111111;\n"
        "Pierre;Martin;FR;;maybe\n"
        "Camille;Martin;FR;04000123;\n"
    )
    preview = reg.parse_csv(text, tournament)
    assert not preview.ok
    problems = {r.number: " ".join(r.errors) for r in preview.bad_rows}
    assert set(problems) == {3, 4, 6, 7, 8, 9, 10}
    assert problems[3].startswith("Unknown country 'XX'")
    assert "exactly 8 digits" in problems[4]
    assert problems[6] == "The first name is required."
    assert "already registered on row 2" in problems[7]
    assert "already registered in this tournament" in problems[8]
    assert "Substitute must be yes or no (got 'maybe')" in problems[9]
    assert "EMA number 04000123 already belongs to Aino Virtanen on row 2" in problems[10]
    with pytest.raises(ServiceError) as exc:
        reg.import_csv(tournament, text)
    assert exc.value.message == "7 rows have problems; nothing was imported."
    assert exc.value.errors["row 3"].startswith("Unknown country 'XX'")
    assert player_count() == 1  # only Lars, added before


def test_header_problems(tournament):
    preview = reg.parse_csv("first_name,surname,country\nAino,Virtanen,FI\n", tournament)
    assert not preview.ok
    assert preview.errors[0].startswith("Unknown column 'surname' in row 1")
    assert "Missing required column last_name in row 1" in preview.errors[1]
    assert "empty" in reg.parse_csv("  \n", tournament).errors[0]
    assert "no players" in reg.parse_csv("first_name,last_name\n\n", tournament).errors[0]
    duplicate = reg.parse_csv("first_name,last_name,last_name\nA,B,C\n", tournament)
    assert "appears more than once" in duplicate.errors[0]


def test_bom_blank_lines_headers_and_extra_cells(tournament):
    text = "\ufeffFirst Name,Last Name,EMA Number\r\n\r\nAino,Virtanen,04000123\r\nMikko,Korhonen,,surplus\r\n"
    preview = reg.parse_csv(text, tournament)
    assert [r.number for r in preview.rows] == [3, 4]
    assert preview.rows[0].ok and preview.rows[0].data.ema_number == "04000123"
    assert "has 4 cells but the header names 3 columns" in preview.rows[1].errors[0]


def test_import_saves_every_row_in_one_go(tournament):
    players = reg.import_csv(tournament, GOOD_CSV)
    assert [p.full_name for p in players] == ["Aino Virtanen", "Mikko Korhonen"]
    assert player_count() == 2
    # Importing the same file again duplicates every row: refused, nothing added.
    with pytest.raises(ServiceError, match="2 rows have problems"):
        reg.import_csv(tournament, GOOD_CSV)
    assert player_count() == 2


def test_export_round_trips_through_import(tournament, organiser):
    from tournament.services.people.tournaments import TournamentData, create_tournament

    reg.import_csv(tournament, GOOD_CSV)
    add(tournament, "Élodie", "=Formula", country="FR", notes='Says "hi", twice\nsecond line')
    text = reg.export_csv(tournament)
    assert text.splitlines()[0] == ",".join(reg.CSV_COLUMNS)
    assert "'=Formula" in text  # not run as a formula by spreadsheets
    copy = create_tournament(organiser, TournamentData(name="Copy Open"))
    reg.import_csv(copy, text)

    def rows(t):
        return [
            (p.first_name, p.last_name, p.country, p.club, p.team, p.ema_number, p.is_substitute, p.notes)
            for p in reg.list_players(t)
        ]

    assert rows(copy) == rows(tournament)
    assert len(rows(copy)) == 3


def test_search_folds_letters_without_a_decomposition_as_the_name_order_does(tournament):
    # 'Ł' has no Unicode decomposition: the lists sorted 'Łukasz' as 'Lukasz' but a search for 'lukasz'
    # missed him. One fold for searching and sorting.
    add(tournament, "Łukasz", "Żółć", country="PL")
    add(tournament, "Søren", "Ødegaard", country="DK")
    assert [p.first_name for p in reg.list_players(tournament, search="lukasz zolc")] == ["Łukasz"]
    assert [p.first_name for p in reg.list_players(tournament, search="soren odegaard")] == ["Søren"]
    assert reg.fold("Łukasz") == "lukasz"
