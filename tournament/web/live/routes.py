"""Live public pages: a page per player, statistics and awards, the projector, and the live data.

    GET /t/<id>/players/<player_id>      a player's tables, opponents, results and rank chart
    GET /t/<id>/statistics               highest hands, fan counts, wins and deal-ins, penalties
    GET /t/<id>/projector                the big-screen loop: standings pages, then the next seating
    GET /t/<id>/live/standings.json      the standings for the projector (hidden ones refused)
    GET /t/<id>/live/seating.json        the next session's seating by name and by table

Every live page (these and the public standings, session results and seating pages) answers a
conditional GET cheaply: its ETag comes from one small "what changed" query, so a poll that finds
nothing new costs that query and a 304, before the view runs. static/js/live.js polls them.

A client that takes gzip gets them compressed by the app, once per page, language and state
(web/live/cache.py), with an ETag of their own: nginx keeps that compressed copy in its micro-cache
and serves it as it is (deploy/nginx-site.conf), instead of compressing a 170 KB standings page for every
answer.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, render_template, request, url_for
from flask_login import current_user

from tournament.i18n import current_language
from tournament.models import SessionStatus, Tournament
from tournament.services.play import session as play
from tournament.services.results import progress as progress_service
from tournament.services.results import standings as standings_service
from tournament.services.results import statistics as statistics_service
from tournament.services.results.ranking import points_number
from tournament.services.results.visibility import standings_visible_to
from tournament.services.seating import draws as draw_service
from tournament.web.helpers import tournament_or_404, visible_standings_or_404
from tournament.web.live import cache as live_cache
from tournament.web.live.chart import rank_chart

bp = Blueprint("live", __name__)

# Pages whose content follows the recorded facts of one tournament, and so may answer 304.
LIVE_ENDPOINTS = frozenset({
    "standings.index", "standings.session", "standings.teams", "seating.index", "seating.session",
    "live.player", "live.statistics", "live.standings_json", "live.seating_json",
})
# Seating pages show the draw, the players and the sessions' states, never a score: their ETag leaves out
# what hands and penalties change, so a poll during play costs a 304, not a page of 400 seats.
SEATING_ENDPOINTS = frozenset({"seating.index", "seating.session", "live.seating_json"})
# The live data speaks no language (names, numbers, codes): one copy for every reader, which nginx's
# micro-cache then keeps once instead of once per Accept-Language (a fifth of the app's renders of them).
LANGUAGE_FREE_ENDPOINTS = frozenset({"live.standings_json", "live.seating_json"})
POLL_SECONDS = 10
# How long a shared cache (nginx's micro-cache, deploy/nginx-site.conf) may answer a live page for everyone
# without asking again: 2,000 phones polling every 10 s cost the app one revalidation per page every 2 s.
SHARED_CACHE_SECONDS = 2


# ----------------------------------------------------------------------------- conditional GET


def _viewer() -> str:
    """Staff and the public may see different pages (hidden standings, staff links)."""
    return str(current_user.id) if current_user.is_authenticated else ""


@bp.before_app_request
def answer_unchanged() -> Response | None:
    """A 304 before the view runs when the client's copy is current."""
    if request.method != "GET" or request.endpoint not in LIVE_ENDPOINTS:
        return None
    # A live endpoint matched: its `int` converter gave an id the database can hold.
    marker = progress_service.change_marker(request.view_args["tournament_id"])
    if marker is None:  # no such tournament: the view answers 404
        return None
    if request.endpoint in SEATING_ENDPOINTS:
        marker = progress_service.seating_marker(marker)
    g.live_marker = marker
    g.live_etag = _etag(marker)
    return _not_modified()


def _gzip_wanted() -> bool:
    """Whether the answer goes gzip-compressed: the client says it takes gzip (behind nginx, the phone's own
    Accept-Encoding, passed on)."""
    return request.accept_encodings["gzip"] > 0


def _etag(marker: tuple[int, ...]) -> str:
    # As a plain tuple: the same ETags as before the marker had named parts. The reader's language is part of
    # it: a reader who switches language (cookie, Accept-Language) must not get a 304 for the other one's page.
    language = "" if request.endpoint in LANGUAGE_FREE_ENDPOINTS else current_language()
    state = (tuple(marker), _viewer(), request.full_path, language)
    tag = hashlib.blake2b(repr(state).encode(), digest_size=10).hexdigest()
    # The compressed answer is another representation of the page: an ETag of its own, so that a 304 always
    # confirms the very bytes the client holds (a cache never answers a plain client's ETag with gzip).
    return f"{tag}-gzip" if _gzip_wanted() else tag


def _not_modified() -> Response | None:
    """The 304 when the client already holds the content of `g.live_etag`."""
    # Weak comparison, as If-None-Match requires (nginx's gzip and gunzip turn an ETag into W/"...").
    if not request.if_none_match.contains_weak(g.live_etag):
        return None
    response = Response(status=304)
    _cache_headers(response)
    return response


def _cache_headers(response: Response) -> None:
    response.set_etag(g.live_etag)
    # A browser always revalidates (max-age=0: a stale standings is worse than a 304); a shared cache may
    # answer everyone for a second or two. Only for the public: staff see other pages (hidden standings,
    # staff links), so a logged-in user's copy, or one asked for with a token, is no-store and never shared.
    if current_user.is_authenticated or "Authorization" in request.headers:
        response.headers["Cache-Control"] = "no-store"
    else:
        seconds = current_app.config.get("LIVE_SHARED_CACHE_SECONDS", SHARED_CACHE_SECONDS)
        response.headers["Cache-Control"] = f"public, max-age=0, s-maxage={seconds}"
    response.vary.update(("Cookie", "Accept-Encoding"))


@bp.after_app_request
def tag_live_page(response: Response) -> Response:
    if g.get("live_etag") and response.status_code == 200 and request.endpoint in LIVE_ENDPOINTS:
        _cache_headers(response)
        _compress(response)
    return response


def _compress(response: Response) -> None:
    """The body gzip-compressed for a client that takes it, compressed once per distinct body (kept in
    web/live/cache.py): nginx keeps the compressed copy and sends it as it is, without compressing it again."""
    if (not _gzip_wanted() or response.direct_passthrough or response.is_streamed
            or "Content-Encoding" in response.headers):
        return
    response.set_data(live_cache.gzipped(response.get_data()))
    response.headers["Content-Encoding"] = "gzip"


@bp.app_context_processor
def live_globals() -> dict[str, Any]:
    return {"live_etag": lambda: g.get("live_etag", ""),
            "live_poll_seconds": current_app.config.get("LIVE_POLL_SECONDS", POLL_SECONDS)}


# ----------------------------------------------------------------------------- shared


# While hands pour in (a 1,000-player event enters one every second or so), each state lasts too little
# for a cache keyed by state alone: what took a second to compute is served for this long at least.
MIN_RECOMPUTE_SECONDS = 5.0


def _cached(name: str, t: Tournament, build: Callable[[Tournament], Any]) -> Any:
    """Computed once per state of the tournament (its change marker) and per process, and at most once
    every MIN_RECOMPUTE_SECONDS. Content from an earlier state carries that state's ETag, so the next poll
    asks again instead of keeping it."""
    marker = g.get("live_marker")
    if marker is None:
        return build(t)
    key = (name, t.id)
    now = time.monotonic()
    least = current_app.config.get("LIVE_MIN_RECOMPUTE_SECONDS", MIN_RECOMPUTE_SECONDS)
    entry = live_cache.lookup(key, lambda kept: kept.marker == marker or now - kept.at < least)
    if entry is not None:
        if entry.marker != marker:
            g.live_etag = _etag(entry.marker)
        return entry.value
    value = build(t)
    live_cache.keep(key, live_cache.LiveEntry(marker=marker, at=now, value=value))
    return value


def standings_visible(t: Tournament) -> bool:
    """Hidden standings are hidden from everyone but the tournament's staff: ranks, scores, table points."""
    return standings_visible_to(current_user, t)


# ----------------------------------------------------------------------------- pages


@bp.route("/t/<int:tournament_id>/players/<int:player_id>")
def player(tournament_id: int, player_id: int):
    t = tournament_or_404(tournament_id)
    visible = standings_visible(t)
    result = _cached("progress", t, progress_service.progress)
    unchanged = _not_modified() if g.get("live_etag") else None
    if unchanged is not None:
        return unchanged
    record = progress_service.player_record(t, player_id, result)
    return render_template("live/player.html", tournament=t, record=record, visible=visible,
                           chart=rank_chart(record.history) if visible else None)


@bp.route("/t/<int:tournament_id>/statistics")
def statistics(tournament_id: int):
    # Per-player wins and top hands tell the ranking too: hidden with the standings.
    t = visible_standings_or_404(tournament_or_404(tournament_id))
    stats = _cached("statistics", t, statistics_service.statistics)
    unchanged = _not_modified() if g.get("live_etag") else None
    if unchanged is not None:
        return unchanged
    return render_template("live/statistics.html", tournament=t, stats=stats,
                           top_fan=max((f.hands for f in stats.fans), default=0))


@bp.route("/t/<int:tournament_id>/projector")
def projector(tournament_id: int):
    t = tournament_or_404(tournament_id)
    rows = request.args.get("rows", type=int) or 0
    seconds = request.args.get("seconds", type=int) or 15
    return render_template("live/projector.html", tournament=t, rows=max(0, min(rows, 60)),
                           seconds=max(3, min(seconds, 120)))


# ----------------------------------------------------------------------------- live data


@bp.route("/t/<int:tournament_id>/live/standings.json")
def standings_json(tournament_id: int):
    t = tournament_or_404(tournament_id)
    visible_standings_or_404(t)
    result = standings_service.standings(t)
    last = result.session_numbers[-1] if result.session_numbers else None
    rows = []
    for row in result.rows:
        cell = row.cell(last) if last is not None else None
        rows.append({
            "player_id": row.player_id, "rank": row.rank, "rank_label": row.rank_label, "name": row.name,
            "country": row.country, "team": row.team, "table_points": points_number(row.table_points),
            "score": row.score,
            "last": {"session": last, "table_points": points_number(cell.table_points), "score": cell.score}
            if cell is not None and cell.played else None,
        })
    return jsonify({"tournament": t.name, "session_numbers": list(result.session_numbers), "rows": rows,
                    "generated_at": result.generated_at.isoformat() + "Z"})


@bp.route("/t/<int:tournament_id>/live/seating.json")
def seating_json(tournament_id: int):
    t = tournament_or_404(tournament_id)
    sessions = draw_service.drawn_sessions(t)
    in_play = next((s for s in sessions if s.status == SessionStatus.IN_PLAY), None)
    # The session in play's clock, for the projector's corner (the clock's own page has the details).
    clock_url = url_for("clock.clock_data", tournament_id=t.id, number=in_play.number) if in_play else None
    session = play.session_to_find(sessions, coming_first=True)  # the next seating
    if session is None:
        return jsonify({"session": None, "status": None, "by_name": [], "tables": [], "clock_url": clock_url,
                        "in_play": None})
    page = draw_service.seating_page(session)
    return jsonify({
        "session": session.number, "status": str(session.status), "clock_url": clock_url,
        "in_play": in_play.number if in_play else None,
        "by_name": [{"player_id": s.player_id, "name": s.sort_name, "table": s.table, "wind": s.wind}
                    for s in page.by_name],
        "tables": [{"table": number, "seats": [{"wind": s.wind, "name": s.name} for s in seats]}
                   for number, seats in page.tables],
    })
