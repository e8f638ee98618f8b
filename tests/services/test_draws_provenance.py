"""Issue 25, honest provenance: every draw, plan, re-plan and swap is recorded with who and when; the seed of a
session reproduces its seating until a swap changes it by hand."""

from tests.helpers import add_players
from tournament import draws as engine
from tournament.extensions import db
from tournament.models import DrawAction
from tournament.services.people import registration
from tournament.services.seating import ahead
from tournament.services.seating import draws as draw_service


def _events(t):
    return [(e.session_number, e.action, e.seed) for e in draw_service.draw_events(t)]


def test_draws_and_redraws_are_recorded_with_who_and_their_seed(tournament, organiser):
    add_players(tournament, 8)
    draw_service.draw_next(tournament, seed=5, user=organiser)
    session = draw_service.redraw(tournament, draw_service.get_session(tournament, 1),
                                  draw_service.get_session(tournament, 1).version, seed=6, user=organiser)
    db.session.commit()
    assert _events(tournament) == [(1, DrawAction.DRAWN, 5), (1, DrawAction.REDRAWN, 6)]
    assert {e.who for e in draw_service.draw_events(tournament)} == {organiser.display_name}
    prov = draw_service.provenance(tournament, session)
    assert prov.drawn.action == DrawAction.REDRAWN and prov.seed_reproduces


def test_the_seed_shown_reproduces_the_published_seating(tournament):
    tournament.session_count = 4
    players = add_players(tournament, 16, team=lambda i: f"T{i % 4}")
    first = draw_service.draw_next(tournament, seed=41)
    second = draw_service.draw_next(tournament, seed=42)
    db.session.commit()
    groups = draw_service.groups_for(tournament)
    ids = [p.id for p in players]
    again = engine.draw_session(engine.Entrants(ids, groups=groups), seed=second.seed, history=[first.tables()],
                                total_sessions=4, history_seeds=[first.seed])
    assert [tuple(t) for t in again] == second.tables()


def test_a_swap_is_listed_and_the_seed_no_longer_claims_the_seating(tournament, organiser):
    add_players(tournament, 8)
    session = draw_service.draw_next(tournament, seed=5, user=organiser)
    db.session.commit()
    a, b = session.tables()[0][0], session.tables()[1][0]
    draw_service.swap(tournament, session, a, b, session.version, user=organiser)
    db.session.commit()
    prov = draw_service.provenance(tournament, session)
    assert not prov.seed_reproduces
    (swap,) = prov.swaps
    assert swap.action == DrawAction.SWAPPED and swap.who == organiser.display_name and "⇄" in swap.detail
    # a redraw draws from the seed again: nothing by hand since
    session = draw_service.redraw(tournament, session, session.version, seed=9)
    assert draw_service.provenance(tournament, session).seed_reproduces


def test_a_replan_after_a_withdrawal_is_recorded_per_session(tournament, organiser):
    tournament.session_count = 3
    players = add_players(tournament, 16)
    add_players(tournament, 1, substitute=True, start=100)
    draw_service.plan_all(tournament, seed=4, user=organiser)
    db.session.commit()
    ahead.change_field(tournament, lambda: registration.withdraw(players[0], "ill"), user=organiser)
    db.session.commit()
    events = draw_service.draw_events(tournament)
    assert [(e.session_number, e.action) for e in events] == [
        (1, DrawAction.PLANNED), (2, DrawAction.PLANNED), (3, DrawAction.PLANNED),
        (1, DrawAction.MENDED), (2, DrawAction.MENDED), (3, DrawAction.MENDED)]
    assert all(players[0].full_name in e.detail and e.who == organiser.display_name for e in events[3:])


def test_a_replan_keeps_the_other_players_at_their_tables(tournament):
    # the plan in force is repaired: the substitute takes the withdrawn player's seats, nobody else moves
    tournament.session_count = 3
    players = add_players(tournament, 16)
    (sub,) = add_players(tournament, 1, substitute=True, start=100)
    planned = [s.tables() for s in draw_service.plan_all(tournament, seed=4)]
    db.session.commit()
    registration.withdraw(players[0], "ill")
    said = ahead.mend_ahead(tournament)
    db.session.commit()
    assert said == (f"Sessions 1–3 mended without {players[0].full_name} and with {sub.full_name} (everyone else "
                    "keeps their table).")
    after = [s.tables() for s in draw_service.drawn_sessions(tournament)]
    gone = players[0].id
    for before, now in zip(planned, after, strict=True):
        assert {frozenset(sub.id if p == gone else p for p in t) for t in before} == {frozenset(t) for t in now}


def test_the_history_is_worded_for_each_reader(app, tournament, organiser):
    """A line of the draw history keeps its facts (a message), not an English sentence: a Finnish reader reads
    it in Finnish, the API and backups keep the English detail."""
    from flask_babel import force_locale

    from tournament.i18n.labels import translated

    tournament.session_count = 3
    players = add_players(tournament, 16)
    add_players(tournament, 1, substitute=True, start=100)
    draw_service.plan_all(tournament, seed=4, user=organiser)
    db.session.commit()
    ahead.change_field(tournament, lambda: registration.withdraw(players[0], "ill"), user=organiser)
    db.session.commit()
    planned, mended = draw_service.draw_events(tournament)[0], draw_service.draw_events(tournament)[3]
    assert planned.detail == "sessions 1–3 planned up front" and planned.detail_words
    with app.test_request_context("/"), force_locale("fi"):
        assert translated(planned.detail_shown) == "kierrokset 1–3 suunniteltu etukäteen"
        finnish = translated(mended.detail_shown)
    assert players[0].full_name in finnish and finnish != mended.detail and "without" not in finnish
