"""Score entry under races (issue 13's standard for the pages and API added with score entry): the same hand
sent twice at once from one table (web and API, with and without the same idempotency key), two corrections
made from the same version, a penalty cancelled from two screens. Real concurrent requests against a live
threaded server on PostgreSQL, released together by a barrier, several rounds each.
"""

from __future__ import annotations

import re
import uuid
from functools import partial

import pytest
from sqlalchemy import func, select

from tests.web.race_harness import POSTGRES_ONLY, ROUNDS, Browser, live_server, statuses, together
from tournament.extensions import db
from tournament.models import Hand, Penalty, ScoreAction, ScoreChange, Tournament
from tournament.services.people.users import create_api_token
from tournament.services.play import penalties, scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData
from tournament.services.seating import draws as draw_service

pytestmark = [pytest.mark.postgres, POSTGRES_ONLY]

WIN = "123456789m123s5p5p"  # 22 points


def token(user) -> str:
    _, plain = create_api_token(user, "race")
    db.session.commit()
    return plain


def stored(t, number: int, table: int = 1) -> int:
    db.session.expire_all()
    session = play.get_session(t, 1)
    return db.session.scalar(select(func.count()).select_from(Hand).where(
        Hand.session_id == session.id, Hand.table_number == table, Hand.number == number))


def history(action: str) -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(ScoreChange).where(ScoreChange.action == action))


def win_form(ids, number: int) -> dict:
    data = {"number": number, "result": "win", "winner_id": ids[0], "discarder_id": ids[1], "hand": WIN,
            "flowers": 0}
    for i, pid in enumerate(ids):
        data.update({f"false_mahjongs-{i}-player_id": pid, f"false_mahjongs-{i}-kind": "",
                     f"false_mahjongs-{i}-hand": ""})
    return data


def draw_form(ids, number: int) -> dict:
    return {**win_form(ids, number), "result": "draw", "winner_id": "", "discarder_id": "", "hand": ""}


def test_same_hand_from_two_forms_at_once_is_stored_once(app, staffed_table):
    t, ids, organiser, referee = staffed_table
    new = f"/manage/tournaments/{t.id}/play/1/tables/1/hands/new"
    with live_server(app) as url:
        phone_a, phone_b = Browser(url).login(organiser.email), Browser(url).login(referee.email)
        for number in range(1, ROUNDS + 1):
            form_a, form_b = phone_a.form(new), phone_b.form(new)
            assert form_a["idempotency_key"] != form_b["idempotency_key"]
            if number % 2:  # two referees disagree on how hand `number` ended: the second is told
                answers = together(partial(phone_a.post, new, {**form_a, **win_form(ids, number)}),
                                   partial(phone_b.post, new, {**form_b, **draw_form(ids, number)}))
                assert statuses(answers) == [302, 409], statuses(answers)
                assert "already entered" in next(a for a in answers if a.status == 409).body
            else:  # the same hand sent from two screens: both told it is saved
                answers = together(partial(phone_a.post, new, {**form_a, **win_form(ids, number)}),
                                   partial(phone_b.post, new, {**form_b, **win_form(ids, number)}))
                assert statuses(answers) == [302, 302], statuses(answers)
            assert stored(t, number) == 1
        assert history(ScoreAction.HAND_ENTERED) == ROUNDS


def test_double_click_on_one_hand_form_replays_the_first_answer(app, staffed_table):
    t, ids, organiser, _ = staffed_table
    new = f"/manage/tournaments/{t.id}/play/1/tables/2/hands/new"
    table_2 = [sp.player_id for sp in play.table_players(play.get_session(t, 1), 2)]
    with live_server(app) as url:
        phone = Browser(url).login(organiser.email)
        for number in range(1, ROUNDS + 1):
            form = {**phone.form(new), **win_form(table_2, number)}
            answers = together(partial(phone.post, new, form), partial(phone.post, new, form))
            assert statuses(answers) == [302, 302]
            assert answers[0].location == answers[1].location
            assert [a.headers.get("Idempotent-Replayed") for a in answers].count("true") == 1
            assert stored(t, number, table=2) == 1
        assert history(ScoreAction.HAND_ENTERED) == ROUNDS


def test_same_hand_through_the_api_at_once(app, staffed_table):
    t, ids, organiser, referee = staffed_table
    path = f"/tournaments/{t.id}/sessions/1/tables/1/hands"
    with live_server(app) as url:
        script_a, script_b = Browser(url, token(organiser)), Browser(url, token(referee))
        for number in range(1, ROUNDS + 1):
            body = {"number": number, "result": "win", "winner_id": ids[0], "discarder_id": ids[1], "hand": WIN}
            if number % 2:  # two clients, each its own key (or none): one 201, one 409
                answers = together(partial(script_a.api, "POST", path, body, str(uuid.uuid4())),
                                   partial(script_b.api, "POST", path, body))
                assert statuses(answers) == [201, 409], [a.body for a in answers]
                assert "already entered" in next(a for a in answers if a.status == 409).json()["error"]
            else:  # one client retrying with the same key: the first answer twice
                key = str(uuid.uuid4())
                answers = together(partial(script_a.api, "POST", path, body, key),
                                   partial(script_a.api, "POST", path, body, key))
                assert statuses(answers) == [201, 201], [a.body for a in answers]
                assert answers[0].json() == answers[1].json()
            assert stored(t, number) == 1
        assert history(ScoreAction.HAND_ENTERED) == ROUNDS


def test_two_corrections_from_the_same_version_one_wins(app, staffed_table):
    t, ids, organiser, referee = staffed_table
    for number in range(1, ROUNDS + 1):
        scoring.enter_hand(t, 1, 1, HandData(number=number, result="draw"), None)
    db.session.commit()
    with live_server(app) as url:
        script_a, script_b = Browser(url, token(organiser)), Browser(url, token(referee))
        phone_a, phone_b = Browser(url).login(organiser.email), Browser(url).login(referee.email)
        for number in range(1, ROUNDS + 1):
            if number % 2:
                path = f"/tournaments/{t.id}/sessions/1/tables/1/hands/{number}"
                body = {"result": "win", "winner_id": ids[0], "discarder_id": ids[1], "hand": WIN, "version": 1}
                other = {**body, "winner_id": ids[2]}
                answers = together(partial(script_a.api, "PUT", path, body), partial(script_b.api, "PUT", path, other))
                assert statuses(answers) == [200, 409], [a.body for a in answers]
            else:
                edit = f"/manage/tournaments/{t.id}/play/1/tables/1/hands/{number}/edit"
                form_a, form_b = phone_a.form(edit), phone_b.form(edit)
                assert form_a["version"] == form_b["version"] == "1"
                answers = together(partial(phone_a.post, edit, {**form_a, **win_form(ids, number)}),
                                   partial(phone_b.post, edit, {**form_b, **win_form(ids[::-1], number)}))
                assert statuses(answers) == [302, 409], statuses(answers)
                conflict = next(a for a in answers if a.status == 409).body
                assert "changed by someone else" in conflict, re.findall(r"flash-\w+\">([^<]*)", conflict)
            db.session.expire_all()
            assert scoring.get_hand(t, 1, 1, number).version == 2
        assert history(ScoreAction.HAND_CORRECTED) == ROUNDS


def test_a_penalty_cancelled_from_two_screens_is_cancelled_once(app, staffed_table):
    t, ids, organiser, referee = staffed_table
    given = [penalties.give_penalty(t, player_id=ids[0], session_number=1, amount=10, reason="slow", user=None)
             for _ in range(ROUNDS)]
    db.session.commit()
    with live_server(app) as url:
        script_a, script_b = Browser(url, token(organiser)), Browser(url, token(referee))
        phone_a, phone_b = Browser(url).login(organiser.email), Browser(url).login(referee.email)
        for round_number, penalty in enumerate(given):
            if round_number % 2:
                path = f"/tournaments/{t.id}/penalties/{penalty.id}"
                answers = together(partial(script_a.api, "DELETE", path, {"reason": "wrong player"}),
                                   partial(script_b.api, "DELETE", path, {"reason": "wrong table"}))
                assert statuses(answers) == [200, 409], [a.body for a in answers]
                assert "already cancelled" in next(a for a in answers if a.status == 409).json()["error"]
            else:
                page = f"/manage/tournaments/{t.id}/play/penalties"
                csrf_a, csrf_b = phone_a.csrf(page), phone_b.csrf(page)
                answers = together(
                    partial(phone_a.post, f"{page}/{penalty.id}/cancel", {"csrf_token": csrf_a, "reason": "a"}),
                    partial(phone_b.post, f"{page}/{penalty.id}/cancel", {"csrf_token": csrf_b, "reason": "b"}))
                assert statuses(answers) == [302, 302]
                shown = phone_a.get(page).body + phone_b.get(page).body
                assert "Penalty cancelled" in shown and "already cancelled" in shown, re.findall(r"flash-\w+\">([^<]*)", shown)
            db.session.expire_all()
            assert db.session.get(Penalty, penalty.id).is_cancelled
            assert history(ScoreAction.PENALTY_CANCELLED) == round_number + 1


def test_a_session_started_from_two_screens_at_once_is_started_once(app, staffed_table):
    t, _, organiser, _ = staffed_table
    with live_server(app) as url:
        script_a, script_b = Browser(url, token(organiser)), Browser(url, token(organiser))
        for number in range(2, t.session_count + 1):
            draw_service.draw_next(t, seed=number)
            db.session.commit()
            path = f"/tournaments/{t.id}/sessions/{number}/start"
            answers = together(partial(script_a.api, "POST", path, {}), partial(script_b.api, "POST", path, {}))
            # Starting a session already in play is a 200: the second start finds it started.
            assert statuses(answers) == [200, 200], [a.body for a in answers]
            assert all(a.json()["status"] == "in_play" for a in answers)


def test_a_backup_imported_twice_at_once_with_one_key_is_restored_once(app, staffed_table):
    t, ids, organiser, _ = staffed_table
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], discarder_id=ids[1],
                                         hand=WIN), organiser)
    db.session.commit()

    def tournaments() -> int:
        db.session.expire_all()
        return db.session.scalar(select(func.count()).select_from(Tournament))

    with live_server(app) as url:
        first, second = Browser(url, token(organiser)), Browser(url, token(organiser))
        backup = first.api("GET", f"/tournaments/{t.id}/export.json").json()
        before = tournaments()
        for _ in range(ROUNDS // 2):
            key = str(uuid.uuid4())  # one client sending again (a timeout, a double click): one restore
            answers = together(partial(first.api, "POST", "/tournaments/import", backup, key),
                               partial(first.api, "POST", "/tournaments/import", backup, key))
            assert statuses(answers) == [201, 201], [a.body for a in answers]
            assert answers[0].json() == answers[1].json()
            # Two clients, each its own key: two restores, both whole (the backup is not a unique thing).
            answers = together(partial(first.api, "POST", "/tournaments/import", backup, str(uuid.uuid4())),
                               partial(second.api, "POST", "/tournaments/import", backup, str(uuid.uuid4())))
            assert statuses(answers) == [201, 201], [a.body for a in answers]
            assert answers[0].json()["id"] != answers[1].json()["id"]
            for answer in answers:
                copy = first.api("GET", f"/tournaments/{answer.json()['id']}/export.json").json()
                assert len(copy["hands"]) == len(backup["hands"]) == 1
        assert tournaments() == before + 3 * (ROUNDS // 2)
