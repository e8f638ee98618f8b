"""The new-tournament form says everything wrong in one round (issue 21 item 10): a missing name and the rules
the service checks across fields (dates in order, the warning before the end, table points not increasing,
a tie-break used once) come back together, each next to its field, instead of the second lot only after the
first was fixed."""

from __future__ import annotations

import re

from sqlalchemy import select

from tests.helpers import post_form
from tournament.extensions import db
from tournament.models import Tournament

ALL_WRONG = {
    "name": "  ",  # a field validator's error
    "venue": "Stockholm",
    "start_date": "2027-05-02",
    "end_date": "2027-05-01",  # the service's: before the first day
    "ruleset": "ema",
    "session_count": "7",
    "session_minutes": "60",
    "warning_minutes": "60",  # the service's: not before the end of the session
    "end_rule": "finish_hand",
    "false_mahjong_under_minimum": "10",
    "false_mahjong_not_winning": "20",
    "points_first": "1", "points_second": "2", "points_third": "1", "points_fourth": "0",  # increasing
    "tie_break_1": "firsts", "tie_break_2": "firsts", "tie_break_3": "",  # used twice
}


def error_of(html: str, field: str) -> str | None:
    match = re.search(rf'id="{field}-error"[^>]*>([^<]*)<', html)
    return match.group(1).strip() if match else None


def test_every_problem_in_one_round(organiser_client, app_ctx):
    response = post_form(organiser_client, "/manage/tournaments/new", ALL_WRONG)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert error_of(html, "name") == "The tournament needs a name."
    assert error_of(html, "end_date") == "The last day cannot be before the first day."
    assert error_of(html, "warning_minutes") == "The warning must come before the end of the session."
    assert error_of(html, "points_first") == "Table points must not increase from 1st to 4th place."
    assert error_of(html, "tie_break_1") == "Each tie-break may be used once."
    assert "Please correct 5 fields" in html
    assert db.session.scalar(select(Tournament)) is None


def test_a_field_already_refused_is_not_told_twice(organiser_client, app_ctx):
    html = post_form(organiser_client, "/manage/tournaments/new",
                     {**ALL_WRONG, "name": "Open", "session_minutes": "lots"}).get_data(as_text=True)
    assert error_of(html, "session_minutes") == "Not a valid integer value. From 30 to 300."  # not the service's too
    # The warning is not compared with a length that is not a number.
    assert error_of(html, "warning_minutes") is None
    assert error_of(html, "name") is None
