"""Players at the table under races (issue 23): four phones confirming one hand at the same moment, a player's
hand resent at once with the same key (an offline queue's retry), a confirmation racing a staff correction. Real
concurrent requests against a live threaded server on PostgreSQL, released together, several rounds each."""

from __future__ import annotations

import uuid
from functools import partial

import pytest
from sqlalchemy import func, select

from tests.web.race_harness import POSTGRES_ONLY, ROUNDS, Browser, live_server, statuses, together
from tournament.extensions import db
from tournament.models import EntryMode, Hand, ScoreAction, ScoreChange
from tournament.services.people import player_links
from tournament.services.people.users import create_api_token
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData

pytestmark = [pytest.mark.postgres, POSTGRES_ONLY]

WIN = "123456789m123s5p5p"  # 22 points


def _tokens(t, ids) -> dict[int, str]:
    tokens = {pid: player_links.token_of(player_links.link_of(t, pid)) for pid in ids}
    db.session.commit()
    return tokens


def _hand(t, number: int) -> Hand:
    db.session.expire_all()
    return scoring.get_hand(t, 1, 1, number)


def test_four_phones_confirm_one_hand_at_once(app, staffed_table):
    t, ids, organiser, referee = staffed_table
    t.entry_mode = EntryMode.PLAYERS
    db.session.commit()
    tokens = _tokens(t, ids)
    with live_server(app) as url:
        phones = {pid: Browser(url) for pid in ids}
        for number in range(1, ROUNDS + 1):
            body = {"number": number, "result": "win", "winner_id": ids[0], "discarder_id": ids[1], "hand": WIN}
            entered = phones[ids[0]].api("POST", f"/p/{tokens[ids[0]]}/hands", body, str(uuid.uuid4()))
            assert entered.status == 201, entered.body
            path = f"/p/{{}}/tables/1/hands/{number}/confirm"
            answers = together(*(partial(phones[pid].api, "POST", path.format(tokens[pid]), {}) for pid in ids))
            assert statuses(answers) == [200] * 4, [a.body for a in answers]
            hand = _hand(t, number)
            assert sorted(hand.confirmed_by) == sorted(ids) and hand.status == "confirmed" and hand.counted
    db.session.expire_all()
    confirmed = db.session.scalar(select(func.count()).select_from(ScoreChange).where(
        ScoreChange.action == ScoreAction.HAND_CONFIRMED))
    assert confirmed == ROUNDS  # the change the standings follow, once per hand whatever the order


def test_a_players_hand_resent_at_once_with_its_key_is_stored_once(app, staffed_table):
    t, ids, organiser, referee = staffed_table
    t.entry_mode = EntryMode.PLAYERS
    db.session.commit()
    tokens = _tokens(t, ids)
    with live_server(app) as url:
        phone = Browser(url)
        for number in range(1, ROUNDS + 1):
            body = {"number": number, "result": "win", "winner_id": ids[0], "discarder_id": ids[1], "hand": WIN}
            key = str(uuid.uuid4())
            send = partial(phone.api, "POST", f"/p/{tokens[ids[0]]}/hands", body, key)
            answers = together(send, send)
            assert statuses(answers) == [201, 201], [a.body for a in answers]
            assert answers[0].json()["id"] == answers[1].json()["id"]
            assert len([h for h in scoring.table_hands(t, 1, 1) if h.number == number]) == 1


def test_a_confirmation_racing_a_correction_never_confirms_what_was_not_seen(app, staffed_table):
    t, ids, organiser, referee = staffed_table
    for number in range(1, ROUNDS + 1):
        scoring.enter_hand(t, 1, 1, HandData(number=number, result="draw"), None)
    db.session.commit()
    tokens = _tokens(t, ids)
    _, plain = create_api_token(referee, "race")
    db.session.commit()
    with live_server(app) as url:
        phone, staff = Browser(url), Browser(url, plain)
        for number in range(1, ROUNDS + 1):
            correction = {"number": number, "result": "win", "winner_id": ids[0], "discarder_id": ids[1],
                          "hand": WIN}
            answers = together(
                partial(phone.api, "POST", f"/p/{tokens[ids[2]]}/tables/1/hands/{number}/confirm", {}),
                partial(staff.api, "PUT", f"/tournaments/{t.id}/sessions/1/tables/1/hands/{number}", correction))
            assert statuses(answers) == [200, 200], [a.body for a in answers]
            hand = _hand(t, number)
            assert hand.result == "win"
            # Confirmed before the correction: the correction cleared it. After: it confirms the corrected hand.
            confirmed_after = answers[0].json()["result"] == "win"
            assert hand.confirmed_by == ([ids[2]] if confirmed_after else [])
    assert play.get_session(t, 1).status == "in_play"
