"""Every route answers junk input with a page or a 4xx, never a 500."""

import pytest

from tests.helpers import add_players, csrf_token
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

JUNK_FORMS = [
    {},
    {"name": "x" * 5000, "seed": "-1", "version": "abc", "status": "exploded", "player_a": "zz", "player_b": "0"},
    {"first_name": "", "last_name": "", "country": "Atlantis", "ema_number": "12", "session_count": "1e9",
     "points_first": "NaN", "csv_text": "first_name\n\x00\x01", "q": "%", "note": "n" * 5000},
]


def _urls(app, ids):
    for rule in app.url_map.iter_rules():
        if rule.endpoint in ("static", "auth.logout"):  # logging out would end the organiser's run early
            continue
        for values in ids:
            params = {arg: values.get(arg, 1) for arg in rule.arguments}
            try:
                url = rule.build(params, append_unknown=False)[1]
            except Exception:  # noqa: BLE001 - a converter refused the value: nothing to request
                continue
            yield rule, url


@pytest.mark.parametrize("as_organiser", [True, False])
def test_no_route_answers_500(app, client, organiser, tournament, as_organiser):
    from tests.helpers import login

    players = add_players(tournament, 8)
    session = draw_service.draw_next(tournament, seed=1)
    lifecycle.set_status(session, "published")
    # The session in play with a hand and a penalty, and another tournament whose ids must not leak in.
    from tournament.services.people.tournaments import TournamentData, create_tournament
    from tournament.services.play import penalties, scoring
    from tournament.services.play.scoring import HandData

    lifecycle.start_session(tournament, 1)
    scoring.enter_hand(tournament, 1, 1, HandData(number=1, result="draw"), None)
    penalties.give_penalty(tournament, player_id=session.tables()[0][0], session_number=1, amount=5,
                           reason="noise", user=None)
    other = create_tournament(organiser, TournamentData(name="Other Open"))
    other_players = add_players(other, 4)
    draw_service.draw_next(other, seed=2)
    lifecycle.start_session(other, 1)
    other_penalty = penalties.give_penalty(other, player_id=other_players[0].id, session_number=1, amount=5,
                                           reason="noise", user=None)
    if as_organiser:
        login(client, organiser.email)
    real = {"tournament_id": tournament.id, "player_id": players[0].id, "number": 1, "member_id": 1,
            "token_id": 1, "action": "check-in", "p": players[0].id, "table": 1, "hand_number": 1,
            "penalty_id": 1}
    missing = {"tournament_id": 99999, "player_id": 99999, "number": 99, "member_id": 99999, "token_id": 99999,
               "action": "explode", "p": 99999, "table": 2**31, "hand_number": 17, "penalty_id": 2**31}
    foreign = {**real, "player_id": other_players[0].id, "p": other_players[0].id, "penalty_id": other_penalty.id}
    token = csrf_token(client, "/login") if not as_organiser else csrf_token(client, "/account")
    failures = []
    requested = 0
    for rule, url in _urls(app, [real, missing, foreign]):
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if method == "GET":
                responses = [client.get(url), client.get(url + "?q=%25&status=nope&by=x&view=1")]
            else:
                responses = [client.open(url, method=method, data={"csrf_token": token, **form})
                             for form in JUNK_FORMS]
                responses.append(client.open(url, method=method, json={"junk": [1, {"a": None}]},
                                             headers={"Authorization": "Bearer nope"}))
            requested += len(responses)
            for response in responses:
                if response.status_code >= 500:
                    failures.append((method, url, response.status_code))
    assert requested > 150  # every route, with real and missing ids
    assert failures == []
    from tournament.extensions import db
    from tournament.models import Penalty

    db.session.expire_all()
    assert not db.session.get(Penalty, other_penalty.id).is_cancelled  # another tournament's: untouched
