"""A new tournament's form starts where the organiser is (issue 32 item 11): the language of their account, else
their browser's; the time zone of their last tournament, else the browser's (a script fills it in: the page marks
the field for it); its rules help links to a page the app serves (/rules/event-day), not a repository path."""

from __future__ import annotations

from tests.helpers import make_tournament
from tournament.extensions import db
from tournament.web.public import rules


def test_the_account_s_language_and_the_browser_zone(organiser_client, organiser):
    organiser.language = "fi"
    db.session.commit()
    html = organiser_client.get("/manage/tournaments/new").get_data(as_text=True)
    assert 'selected value="fi"' in html.split('name="language"')[1].split("</select>")[0]
    assert "data-browser-zone" in html and "js/time-zone.js" in html
    assert "docs/rules" not in html and 'href="/rules/event-day#penalties-and-table-points-a-setting"' in html


def test_the_browser_s_language_without_an_account_language(organiser_client):
    html = organiser_client.get("/manage/tournaments/new", headers={"Accept-Language": "sv-SE,sv;q=0.9"}).get_data(
        as_text=True)
    assert 'selected value="sv"' in html.split('name="language"')[1].split("</select>")[0]


def test_the_zone_of_the_organiser_s_last_tournament(organiser_client, organiser):
    make_tournament(organiser, "Helsinki Open", time_zone="Europe/Helsinki")
    db.session.commit()
    html = organiser_client.get("/manage/tournaments/new").get_data(as_text=True)
    assert 'selected value="Europe/Helsinki"' in html.split('name="time_zone"')[1].split("</select>")[0]
    assert "data-browser-zone" not in html and "js/time-zone.js" not in html


def test_the_long_choices_are_radio_buttons_and_still_save(organiser_client):
    from tests.helpers import csrf_token

    html = organiser_client.get("/manage/tournaments/new").get_data(as_text=True)
    for name in ("end_rule", "entry_mode", "penalties_affect_table_points"):
        assert 'type="radio"' in html.split(f'id="{name}"')[1].split("</fieldset>")[0], name
    data = {"csrf_token": csrf_token(organiser_client, "/manage/tournaments/new"), "name": "Oulu Cup",
            "time_zone": "Europe/Helsinki", "language": "fi", "ruleset": "ema", "session_count": "5",
            "session_minutes": "120", "end_rule": "stop_immediately", "entry_mode": "players",
            "penalties_affect_table_points": "0", "false_mahjong_under_minimum": "10", "false_mahjong_not_winning": "20", "points_first": "4", "points_second": "2", "points_third": "1",
            "points_fourth": "0", "tie_break_1": "", "tie_break_2": "", "tie_break_3": ""}
    answer = organiser_client.post("/manage/tournaments/new", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)[:2000]
    from tournament.models import Tournament

    t = db.session.scalars(db.select(Tournament).where(Tournament.name == "Oulu Cup")).one()
    assert (t.end_rule, t.entry_mode, t.penalties_affect_table_points) == ("stop_immediately", "players", False)


def test_the_rules_pages_are_served(client):
    page = client.get("/rules/event-day")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "<h1>Event-day rules: what the software does, and why</h1>" in html
    assert '<h2 id="penalties-and-table-points-a-setting">' in html and "<li><strong>No-shows" in html
    assert client.get("/rules/players-entry").status_code == 200
    assert client.get("/rules/README").status_code == 404
    assert client.get("/rules/..%2F..%2FREADME").status_code == 404
    fi = client.get("/rules/event-day?lang=fi").get_data(as_text=True)
    assert '<html lang="fi"' in fi and '<article class="panel rules-page" lang="en">' in fi


def test_the_rules_converter_escapes_what_it_reads():
    title, body = rules.to_html("# T <b>\n\nA <script>x</script> **bold** `a<b` [x](players-entry.md) [y](../z.py)\n"
                                "- one\n  two\n- three\n")
    assert title == "T <b>"
    html = str(body)
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<strong>bold</strong>" in html and "<code>a&lt;b</code>" in html
    assert '<a href="/rules/players-entry">x</a>' in html and "../z.py" not in html and " y" in html
    assert "<ul><li>one two</li><li>three</li></ul>" in html
