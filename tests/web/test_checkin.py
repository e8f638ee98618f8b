import re

from tests.helpers import csrf_token
from tournament.extensions import db
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData


def desk(tournament, path=""):
    return f"/manage/tournaments/{tournament.id}/checkin{path}"


def add(tournament, first, last, **kwargs):
    return reg.add_player(tournament, PlayerData(first_name=first, last_name=last, **kwargs))


def post_json(client, url, token):
    return client.post(url, headers={"X-CSRFToken": token, "Accept": "application/json"})


def test_desk_lists_players_and_substitutes_with_counts(organiser_client, tournament, players, app_ctx):
    reg.check_in(players["mikko"])
    html = organiser_client.get(desk(tournament)).get_data(as_text=True)
    assert '<meta name="csrf-token"' in html
    assert re.search(r'data-count="present">1<', html)
    assert re.search(r'data-count="registered">1<', html)
    assert re.search(r'data-count="substitutes">1<', html)
    players_part, substitutes_part = html.split('id="desk-substitutes-heading"')
    assert "Virtanen, Aino" in players_part and "Aalto, Sanna" not in players_part
    assert "Aalto, Sanna" in substitutes_part
    assert 'data-search="aino virtanen helsinki mc"' in html  # folded search text for the script
    assert "js/checkin.js" in html


def test_search_without_javascript(organiser_client, tournament, players):
    html = organiser_client.get(desk(tournament, "?q=helsinki")).get_data(as_text=True)
    assert "Virtanen, Aino" in html
    assert "Korhonen, Mikko" not in html


def test_referee_checks_in_with_json(desk_referee, tournament, players, app_ctx):
    token = csrf_token(desk_referee, desk(tournament))
    response = post_json(desk_referee, desk(tournament, f"/{players['aino'].id}"), token)
    assert response.status_code == 200
    body = response.get_json()
    assert body["player"]["status"] == "present"
    assert body["player"]["status_label"] == "Present"
    assert re.fullmatch(r"\d\d:\d\d", body["player"]["checked_in_at"])
    assert body["counts"]["present"] == 1 and body["counts"]["registered"] == 1
    assert body["message"] == "Aino Virtanen is checked in."
    db.session.expire_all()
    assert players["aino"].status == "present"
    assert [p.first_name for p in reg.active_players(tournament)] == ["Aino"]
    # Undo puts the player back.
    response = post_json(desk_referee, desk(tournament, f"/{players['aino'].id}/undo"), token)
    assert response.get_json()["player"]["status"] == "registered"
    assert response.get_json()["counts"]["present"] == 0


def test_checkin_without_csrf_token_is_refused(desk_referee, tournament, players, app_ctx):
    response = desk_referee.post(desk(tournament, f"/{players['aino'].id}"), headers={"Accept": "application/json"})
    assert response.status_code == 400
    assert "security token" in response.get_json()["error"]
    db.session.expire_all()
    assert players["aino"].status == "registered"


def test_checkin_fallback_form_post_redirects_back_to_the_search(organiser_client, tournament, players, app_ctx):
    token = csrf_token(organiser_client, desk(tournament))
    response = organiser_client.post(desk(tournament, f"/{players['mikko'].id}"), data={"csrf_token": token, "q": "korh"})
    assert response.status_code == 302
    assert response.headers["Location"].endswith(desk(tournament, "?q=korh"))
    html = organiser_client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Mikko Korhonen is checked in." in html
    db.session.expire_all()
    assert players["mikko"].status == "present"


def test_withdrawn_player_cannot_be_checked_in_at_the_desk(desk_referee, tournament, players, app_ctx):
    reg.withdraw(players["mikko"])
    token = csrf_token(desk_referee, desk(tournament))
    response = post_json(desk_referee, desk(tournament, f"/{players['mikko'].id}"), token)
    assert response.status_code == 400
    assert "reinstate" in response.get_json()["error"]
    assert response.get_json()["player"]["status"] == "withdrawn"


def test_referee_may_not_edit_but_may_use_the_desk(desk_referee, tournament, players):
    assert desk_referee.get(desk(tournament)).status_code == 200
    assert desk_referee.get(f"/manage/tournaments/{tournament.id}/players/{players['aino'].id}/edit").status_code == 403
    html = desk_referee.get(desk(tournament)).get_data(as_text=True)
    assert ">Players</a>" not in html  # the organiser-only tab is not offered
    assert ">Check-in</a>" in html


def test_staff_of_another_tournament_gets_403(referee_client, tournament, players):
    assert referee_client.get(desk(tournament)).status_code == 403
    token = csrf_token(referee_client, "/account")
    response = post_json(referee_client, desk(tournament, f"/{players['aino'].id}"), token)
    assert response.status_code == 403


def test_anonymous_user_is_sent_to_login(client, tournament, players):
    response = client.get(desk(tournament))
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


def test_player_of_another_tournament_is_404(organiser_client, organiser, tournament, app_ctx):
    from tournament.services.people.tournaments import TournamentData, create_tournament

    other = create_tournament(organiser, TournamentData(name="Other Open"))
    stranger = add(other, "Lars", "Berg")
    token = csrf_token(organiser_client, desk(tournament))
    assert post_json(organiser_client, desk(tournament, f"/{stranger.id}"), token).status_code == 404
    db.session.expire_all()
    assert stranger.status == "registered"


def test_withdraw_everyone_not_checked_in_before_a_draw(organiser_client, tournament, players, app_ctx):
    # Issue 20: a no-show registered but never checked in was ranked and exported; before a draw the desk
    # withdraws them in one action (substitutes apart), each can be reinstated.
    from tournament.models import Player, PlayerStatus

    registered = [p for p in reg.list_players(tournament) if p.status == PlayerStatus.REGISTERED and not p.is_substitute]
    assert registered
    page = organiser_client.get(desk(tournament)).get_data(as_text=True)
    assert f"Withdraw everyone not checked in (<span data-absent-count>{len(registered)}</span>)" in page
    token = csrf_token(organiser_client, desk(tournament))
    response = organiser_client.post(desk(tournament, "/withdraw-absent"), data={"csrf_token": token})
    assert response.status_code == 302
    db.session.expire_all()
    for p in registered:
        assert db.session.get(Player, p.id).status == PlayerStatus.WITHDRAWN
    assert all(p.status != PlayerStatus.WITHDRAWN for p in reg.list_players(tournament)
               if p.id not in {r.id for r in registered})
    page = organiser_client.get(desk(tournament)).get_data(as_text=True)
    assert "Withdraw everyone not checked in" not in page


def test_a_referee_cannot_withdraw_the_absent(desk_referee, tournament, players, app_ctx):
    token = csrf_token(desk_referee, desk(tournament))
    assert desk_referee.post(desk(tournament, "/withdraw-absent"), data={"csrf_token": token}).status_code == 403


def test_the_desks_messages_are_in_the_readers_language(desk_referee, tournament, players, app_ctx):
    token = csrf_token(desk_referee, desk(tournament))
    said = {}
    for lang in ("fi", "zh"):
        for path in (f"/{players['aino'].id}", f"/{players['aino'].id}/undo"):
            response = post_json(desk_referee, desk(tournament, path) + f"?lang={lang}", token)
            assert response.status_code == 200
            said[lang, path.endswith("undo")] = response.get_json()["message"]
    assert said["fi", False] == "Aino Virtanen on merkitty paikalle."
    assert said["fi", True] == "Aino Virtanen ei ole enää merkitty paikalle."
    assert said["zh", False] == "Aino Virtanen 已签到。"
