"""The offline queue belongs to who made it (issue 31): the pages that keep hands name their owner, opaque, on
<html data-offline-owner> and in the hand forms; a hand form sent with another owner is refused; and the logout
asks first while this account's hands kept on the device are not sent (the script's cookie, sent to /logout)."""

from __future__ import annotations

import re

from tests.helpers import PASSWORD, csrf_token, hand_count, hand_form, login, play_url, players_of, post_form
from tournament.extensions import db
from tournament.models import EntryMode
from tournament.services.people import player_links
from tournament.services.people.tournaments import add_staff
from tournament.web import offline

OWNER = re.compile(r'<html\b[^>]*\sdata-offline-owner="([0-9a-f]{32})"')


def owner_of(client, url: str) -> str | None:
    answer = client.get(url)
    assert answer.status_code == 200, url
    found = OWNER.search(answer.get_data(as_text=True))
    return found.group(1) if found else None


def link_of(t, player) -> str:
    return "/p/" + player_links.token_of(player_links.link_of(t, player.id))


def test_the_pages_that_keep_hands_name_their_owner_and_no_other_page_does(client, organiser, referee, seated):
    t, ids = seated
    t.entry_mode = EntryMode.PLAYERS  # the players' own hand forms
    add_staff(t, referee.email, "referee")
    first, second = players_of(t)[:2]
    table = play_url(t) + "/tables/1"
    assert owner_of(client, "/login") is None
    player = owner_of(client, link_of(t, first))
    assert player and player == owner_of(client, link_of(t, first) + "/hands/new")
    assert owner_of(client, link_of(t, second)) not in (None, player)  # each link its own
    assert owner_of(client, f"/t/{t.id}/standings") is None  # a page every reader shares

    login(client, organiser.email, PASSWORD)
    mine = owner_of(client, table)
    assert mine and mine == owner_of(client, table + "/hands/new") and mine != player
    assert owner_of(client, "/manage") is None and owner_of(client, f"/t/{t.id}/standings") is None
    form = client.get(table + "/hands/new").get_data(as_text=True)
    assert f'name="offline_owner" value="{mine}"' in form  # the form carries it to the service worker's page
    assert mine == offline.account_owner(organiser.id)  # an HMAC with the app's secret key, not the account's id
    post_form(client, "/logout", {"offline": "none"}, form_url=table)

    login(client, referee.email, PASSWORD)
    assert owner_of(client, table) not in (None, mine)  # another account, another owner


def test_a_hand_sent_with_another_owner_is_refused(client, organiser, referee, seated):
    t, ids = seated
    add_staff(t, referee.email, "referee")
    url = play_url(t) + "/tables/1/hands/new"
    login(client, organiser.email, PASSWORD)
    referees = offline.account_owner(referee.id)
    answer = post_form(client, url, hand_form(ids, offline_owner=referees), form_url=url)
    assert answer.status_code == 403 and hand_count() == 0  # the referee's hand is not saved as the organiser's
    answer = post_form(client, url, hand_form(ids, offline_owner=offline.account_owner(organiser.id)), form_url=url)
    assert answer.status_code == 302 and hand_count() == 1


def test_the_logout_asks_first_while_this_accounts_hands_are_not_sent(client, organiser, referee, seated):
    t, _ = seated
    login(client, organiser.email, PASSWORD)
    mine, other = offline.account_owner(organiser.id), offline.account_owner(referee.id)
    client.set_cookie(f"mcr_offline_{other}", "3", path="/logout")  # another account's: not this logout's business
    client.set_cookie(f"mcr_offline_{mine}", "0", path="/logout")
    answer = post_form(client, "/logout", {}, form_url="/account")
    assert answer.status_code == 302 and client.get("/manage").status_code == 302  # logged out at once

    login(client, organiser.email, PASSWORD)
    client.set_cookie(f"mcr_offline_{mine}", "2", path="/logout")
    answer = post_form(client, "/logout", {}, form_url="/account")
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/logout")
    assert client.get("/manage").status_code == 200  # still logged in: the hands can still be sent
    page = client.get("/logout").get_data(as_text=True)
    assert "data-offline-logout" in page and "js/offline-queue.js" in page
    assert OWNER.search(page).group(1) == mine
    assert "Send now" in page and "Discard" in page
    # The page's own form (the script has sent or discarded them): logged out.
    answer = post_form(client, "/logout", {"offline": "discarded"}, form_url="/logout")
    assert answer.status_code == 302 and client.get("/manage").status_code == 302
    assert client.get("/logout").status_code == 302  # nobody to log out


def test_a_count_that_is_not_one_logs_out_at_once(client, organiser):
    login(client, organiser.email, PASSWORD)
    client.set_cookie(f"mcr_offline_{offline.account_owner(organiser.id)}", "lots", path="/logout")
    assert post_form(client, "/logout", {}, form_url="/account").status_code == 302
    assert client.get("/manage").status_code == 302


def test_a_players_hand_form_sent_with_another_links_owner_is_refused(client, in_play):
    t = in_play
    t.entry_mode = EntryMode.PLAYERS
    db.session.commit()
    player = players_of(t)[0]
    link = link_of(t, player)
    fields = {"csrf_token": csrf_token(client, link + "/hands/new")}
    owner = owner_of(client, link + "/hands/new")
    assert owner == offline.link_owner(link.removeprefix("/p/"))
    # another link's owner on this link's form: refused before the view runs
    answer = client.post(link + "/hands/new", data={**fields, "offline_owner": offline.link_owner("x" * 20)})
    assert answer.status_code == 403
