"""The refusal flag: set by the web edge when a view shows a service's refusal, never by building an error."""

from __future__ import annotations

from flask import g
from sqlalchemy import func, select

from tests.helpers import post_form
from tournament.extensions import db
from tournament.models import Tournament
from tournament.services import ServiceError
from tournament.services.people import tournaments as tournament_service


def test_building_a_service_error_has_no_side_effect(app):
    with app.test_request_context("/"):
        app.preprocess_request()
        ServiceError("only built, never raised", field="name")
        assert g.unit_refused is False


def _rename_then_refuse(monkeypatch, name: str) -> None:
    def refuse_after_a_change(t, *args, **kwargs):
        t.name = name
        db.session.flush()
        raise ServiceError("refused after the change was flushed")

    monkeypatch.setattr(tournament_service, "remove_staff", refuse_after_a_change)


def test_a_refusal_flashed_on_a_redirect_rolls_back_what_was_flushed(organiser_client, tournament, monkeypatch):
    _rename_then_refuse(monkeypatch, "Renamed")
    response = post_form(organiser_client, f"/manage/tournaments/{tournament.id}/staff/1/remove", {},
                         form_url=f"/manage/tournaments/{tournament.id}")
    assert response.status_code == 302
    db.session.expire_all()
    assert db.session.get(Tournament, tournament.id).name == "Helsinki Open"
    page = organiser_client.get(response.headers["Location"]).get_data(as_text=True)
    assert "refused after the change was flushed" in page


def test_an_api_refusal_rolls_back_what_was_flushed(api, monkeypatch):
    real_create = tournament_service.create_tournament

    def create_then_refuse(*args, **kwargs):
        real_create(*args, **kwargs)
        db.session.flush()
        raise ServiceError("refused after the tournament was flushed", field="name")

    monkeypatch.setattr(tournament_service, "create_tournament", create_then_refuse)
    response = api.post("/tournaments", {"name": "Never Open"}, expect=400)
    assert response.get_json() == {"error": "refused after the tournament was flushed", "field": "name"}
    db.session.expire_all()
    assert db.session.scalar(select(func.count()).select_from(Tournament)) == 0
