"""A tournament in Europe/Helsinki through its pages, PDFs and API: UTC stores 08:00 on 16 January, every page
shows 10:00 (EET); the settings form and the API take the zone and refuse an unknown one naming the field; the
organiser's timetable is entered in local time and shown on the schedule, seating, player and card pages."""

from __future__ import annotations

import re
from datetime import datetime

from sqlalchemy import update

from tests.helpers import (
    Api,
    add_players,
    assert_error,
    check_in_all,
    csrf_token,
    form_fields,
    make_tournament,
    pdf_text,
    token_for,
)
from tournament import timezones
from tournament.extensions import db
from tournament.models import ClockEvent, Player, ScoreChange, Tournament
from tournament.services.people import player_links
from tournament.services.play import clock, penalties
from tournament.services.play import session as play
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle, schedule

HELSINKI = "Europe/Helsinki"
STORED = datetime(2026, 1, 16, 8, 0)  # UTC, as every timestamp is stored
SHOWN = "10:00"                       # in Helsinki in January (EET, UTC+2)


def in_helsinki(t: Tournament) -> Tournament:
    """The tournament moved to Helsinki, and every time it recorded set to 08:00 UTC on 16 January."""
    t.time_zone = HELSINKI
    db.session.execute(update(ScoreChange).values(at=STORED))
    db.session.execute(update(Player).where(Player.tournament_id == t.id).values(checked_in_at=STORED))
    db.session.commit()
    return t


def test_history_checkin_and_players_show_the_tournaments_time(organiser_client, played):
    t = in_helsinki(played)
    history = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/history").get_data(as_text=True)
    assert "When (Europe/Helsinki)" in history
    assert "2026-01-16 10:00:00" in history and "2026-01-16 08:00:00" not in history
    assert 'datetime="2026-01-16T10:00:00+02:00"' in history

    desk = organiser_client.get(f"/manage/tournaments/{t.id}/checkin").get_data(as_text=True)
    assert re.search(r"data-time>\s*10:00\s*<", desk) and not re.search(r"data-time>\s*08:00\s*<", desk)
    listing = organiser_client.get(f"/manage/tournaments/{t.id}/players").get_data(as_text=True)
    assert f'<span class="meta">{SHOWN}</span>' in listing
    player = db.session.scalars(db.select(Player).where(Player.tournament_id == t.id)).first()
    form = organiser_client.get(f"/manage/tournaments/{t.id}/players/{player.id}/edit").get_data(as_text=True)
    assert f"Checked in at {SHOWN} (Europe/Helsinki)" in form


def test_penalty_list_and_its_pdf_stamp_in_the_tournaments_zone(organiser_client, played, organiser):
    t = played
    player_id = play.get_session(t, 1).seats[0].player_id
    penalty = penalties.give_penalty(t, player_id=player_id, session_number=1, amount=10, reason="Slow play",
                                     user=organiser)
    penalty.given_at = STORED
    db.session.commit()
    in_helsinki(t)
    page = organiser_client.get(f"/manage/tournaments/{t.id}/play/penalties").get_data(as_text=True)
    assert f"{SHOWN} EET" in page and "08:00 UTC" not in page

    # Words as read back, whatever line a narrow column broke them onto.
    text = " ".join(" ".join(pdf_text(organiser_client.get(f"/manage/tournaments/{t.id}/exports/penalties.pdf")
                                      .data)).split())
    assert "2026-01-16 10:00 EET" in text and "08:00" not in text
    # The "Generated" stamp: now, in Helsinki (EET or EEST), never UTC.
    stamp = re.search(r"Generated (\d{4}-\d\d-\d\d \d\d:\d\d) (\w+)", text)
    assert stamp and stamp.group(2) in ("EET", "EEST")
    now_there = timezones.to_local(datetime.now(), HELSINKI)
    generated = datetime.strptime(stamp.group(1), "%Y-%m-%d %H:%M").replace(tzinfo=now_there.tzinfo)
    assert abs((generated - now_there).total_seconds()) < 120


def test_clock_pages_say_when_the_session_ends_in_the_tournaments_zone(client, organiser_client, in_play):
    t = in_play
    t.time_zone = HELSINKI
    state = clock.start(t, 1, None)
    db.session.commit()
    local_end = timezones.format_local(state.ends_at, HELSINKI, "%H:%M")
    utc_end = f"{state.ends_at:%H:%M}"
    assert local_end != utc_end
    for url in (f"/t/{t.id}/sessions/1/clock", f"/manage/tournaments/{t.id}/play/1/clock",
                f"/manage/tournaments/{t.id}/play/1/board"):
        html = organiser_client.get(url).get_data(as_text=True)
        ends = re.search(r'data-clock-ends data-time-zone="Europe/Helsinki">Ends at <time data-clock-ends-time '
                         r'datetime="([^"]+)">(\d\d:\d\d)</time>', html)
        assert ends, url
        assert ends.group(2) == local_end and ends.group(1).endswith(("+02:00", "+03:00")), url
    # The staff's event list: the start in Helsinki time.
    started = db.session.scalars(db.select(ClockEvent)).one()
    staff = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/clock").get_data(as_text=True)
    assert timezones.format_local(started.at, HELSINKI, "%H:%M:%S %Z") in staff


def test_clock_ends_at_is_hidden_until_the_clock_runs(organiser_client, in_play):
    html = organiser_client.get(f"/manage/tournaments/{in_play.id}/play/1/clock").get_data(as_text=True)
    assert re.search(r'data-clock-ends data-time-zone="UTC" hidden>', html)


def test_settings_form_takes_the_zone_and_refuses_an_unknown_one(organiser_client, tournament):
    url = f"/manage/tournaments/{tournament.id}/edit"
    fields = form_fields(organiser_client, url)
    assert fields["time_zone"] in ("UTC", ["UTC"])
    response = organiser_client.post(url, data={**fields, "time_zone": HELSINKI})
    assert response.status_code == 302
    db.session.refresh(tournament)
    assert tournament.time_zone == HELSINKI
    refused = organiser_client.post(url, data={**form_fields(organiser_client, url), "time_zone": "Mars/Olympus"})
    assert refused.status_code == 400
    assert 'id="time_zone-error"' in refused.get_data(as_text=True)
    db.session.refresh(tournament)
    assert tournament.time_zone == HELSINKI


def test_api_time_zone_and_planned_start(client, organiser):
    api = Api(client, token_for(organiser))
    created = api.post("/tournaments", {"name": "Helsinki Open", "time_zone": HELSINKI, "session_count": 2},
                       expect=201).get_json()
    assert created["time_zone"] == HELSINKI
    assert api.get(f"/tournaments/{created['id']}", expect=200).get_json()["time_zone"] == HELSINKI
    default = api.post("/tournaments", {"name": "Somewhere"}, expect=201).get_json()
    assert default["time_zone"] == "UTC"
    assert_error(api.post("/tournaments", {"name": "Nowhere", "time_zone": "Europe/Atlantis"}), 400, "time_zone")
    assert_error(api.post("/tournaments", {"name": "Nowhere", "time_zone": 3}), 422, "time_zone")

    t = db.session.get(Tournament, created["id"])
    for i in range(4):
        api.post(f"/tournaments/{t.id}/players", {"first_name": f"P{i}", "last_name": "Player", "country": "FI"},
                 expect=201)
    ids = [p["id"] for p in api.get(f"/tournaments/{t.id}/players", expect=200).get_json()["players"]]
    check_in_all(api, t.id, ids)
    drawn = api.post(f"/tournaments/{t.id}/sessions/1/draw", {"seed": 1}, expect=201).get_json()
    assert drawn["planned_start"] is None and drawn["tables"]  # the keys of before are all there
    assert {"session", "status", "seed", "tables"} <= drawn.keys()
    schedule.set_planned_starts(t, {1: datetime(2026, 1, 16, 10, 0)})
    db.session.commit()
    session = api.get(f"/tournaments/{t.id}/sessions/1", expect=200).get_json()
    assert session["planned_start"] == "2026-01-16T10:00:00+02:00"


def test_timetable_form_in_local_time_and_where_it_is_shown(client, organiser_client, organiser):
    t = make_tournament(organiser, name="Helsinki Open", time_zone=HELSINKI, session_count=3, session_minutes=120)
    url = f"/manage/tournaments/{t.id}/schedule"
    page = organiser_client.get(url)
    assert page.status_code == 200 and 'type="datetime-local"' in page.get_data(as_text=True)
    token = csrf_token(organiser_client, url)
    response = organiser_client.post(url, data={"csrf_token": token, "session_1": "2026-01-16T10:00",
                                                "session_2": "2026-01-16T13:00", "session_3": ""})
    assert response.status_code == 302
    assert schedule.planned_starts(t) == {1: STORED, 2: datetime(2026, 1, 16, 11, 0)}
    again = organiser_client.get(url).get_data(as_text=True)
    assert 'value="2026-01-16T10:00"' in again  # the form shows the local time it was given

    refused = organiser_client.post(url, data={"csrf_token": token, "session_1": "2026-03-29T03:30"})
    assert refused.status_code == 400 and 'id="session_1-error"' in refused.get_data(as_text=True)
    assert schedule.planned_start(t, 1) == STORED

    public = client.get(f"/t/{t.id}/schedule").get_data(as_text=True)
    assert f'datetime="2026-01-16T10:00:00+02:00">{SHOWN}</time>' in public and "Not planned yet" in public
    assert f"/t/{t.id}/schedule.ics" in public

    # Seating: the published session says when it starts; the player's schedule has the column.
    players = add_players(t, 4)
    session = draw_service.draw_next(t, seed=1)
    lifecycle.set_status(session, "published")
    db.session.commit()
    seating = client.get(f"/t/{t.id}/seating/1").get_data(as_text=True)
    assert f"Starts Fri 16 Jan {SHOWN} (Europe/Helsinki)" in seating
    mine = client.get(f"/t/{t.id}/seating/player/{players[0].id}").get_data(as_text=True)
    assert f"<td>Fri {SHOWN}</td>" in mine

    token = player_links.token_of(player_links.link_of(t, players[0].id))
    db.session.commit()
    own = client.get(f"/p/{token}").get_data(as_text=True)
    assert f"<td>Fri {SHOWN}</td>" in own and f"/p/{token}/schedule.ics" in own
    # The weekday and month in the reader's language and order.
    assert "pe 16.1. 10.00" in client.get(f"/t/{t.id}/seating/1?lang=fi").get_data(as_text=True)
    assert "<td>周五10:00</td>" in client.get(f"/p/{token}?lang=zh").get_data(as_text=True)
    assert "vie, 16 ene 2026" in client.get(f"/t/{t.id}/schedule?lang=es").get_data(as_text=True)

    cards = "\n".join(pdf_text(organiser_client.get(f"/manage/tournaments/{t.id}/exports/schedule-cards.pdf").data))
    assert "Starts" in cards and f"Fri {SHOWN}" in cards and "Fri 13:00" in cards
