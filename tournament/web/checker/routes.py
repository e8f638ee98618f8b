"""The public hand checker (no login).

    GET /check               the page: tile picker, flags, and the result explained fan by fan
                             (the GET form renders server-side too, so it works without JavaScript)
    GET /check/score.json    the check as JSON, for the page's live result and the referee's hand entry:
                             200 for every verdict (a hand that is no win is an answer, not an error);
                             400 {"error", "field"} for a parameter value the checker cannot take.
                             The engine's fields stay English (fan names, reason); "result_html" (the
                             result as the page draws it) and "reason_text" are in the reader's language
"""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, get_template_attribute, jsonify, render_template, request, url_for

from tournament.services.play.hand_check import Verdict, check_hand
from tournament.web.checker import tiles
from tournament.web.checker.forms import (
    FLAG_LABELS,
    FLAGS,
    RULESET_LABELS,
    WIND_LABELS,
    read_check_args,
)
from tournament.web.checker.messages import reason_text
from tournament.web.checker.picker import picker_texts

bp = Blueprint("checker", __name__, url_prefix="/check")


@bp.record_once
def tile_helpers(state) -> None:
    # a Jinja global, so the macros of checker/_result.html find it when imported (without context) by
    # any template: the referee's hand entry renders results with them too
    state.app.jinja_env.globals["checker_tiles"] = tiles
    state.app.jinja_env.globals["checker_reason"] = reason_text


@bp.route("")
def page():
    check_request, errors = read_check_args(request.args)
    # a hand is checked once the form was submitted (the hand parameter is present), even empty
    submitted = "hand" in request.args
    result = check_hand(check_request.hand, **check_request.flags()) if submitted and not errors else None
    # a hand the engine cannot read: its reason also goes next to the field to blame
    notes = {result.field: reason_text(result)} if result is not None and result.verdict == Verdict.INVALID and result.field else {}
    share_url = url_for("checker.page", _external=True) + "?" + urlencode(check_request.query())
    return render_template(
        "checker/page.html",
        req=check_request,
        errors=errors,
        notes=notes,
        result=result,
        share_url=share_url if result is not None else "",
        flag_labels=FLAG_LABELS,
        flags=FLAGS,
        wind_labels=WIND_LABELS,
        ruleset_labels=RULESET_LABELS,
        picker_texts=picker_texts(),
    )


@bp.route("/score.json")
def score_json():
    check_request, errors = read_check_args(request.args)
    if errors:
        field, message = next(iter(errors.items()))
        return jsonify({"error": message, "field": field, "errors": errors}), 400
    result = check_hand(check_request.hand, **check_request.flags())
    hand_result = get_template_attribute("checker/_result.html", "hand_result")
    response = jsonify({**result.to_json(), "result_html": str(hand_result(result)),
                        "reason_text": reason_text(result)})
    response.cache_control.public = True  # same query, same answer: caches may keep it a while
    response.cache_control.max_age = 60
    return response
