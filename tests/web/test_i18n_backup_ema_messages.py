"""A refused backup and the EMA pack's refusals are services' messages (issue 24): English to the letter for the
API and the command line, in the reader's language wherever a page says them (i18n.service_messages)."""

from __future__ import annotations

import pytest

from tournament.i18n.service_messages import translate
from tournament.services.core.errors import ServiceError
from tournament.services.documents import ema_pack
from tournament.services.documents.backup import ImportRefused, export_tournament, import_tournament


def in_language(app, lang: str, message) -> str:
    with app.test_request_context(f"/?lang={lang}"):
        app.preprocess_request()  # the app's own before_request hooks, Flask-Babel's refresh among them
        return str(translate(message))


def test_a_refused_backup_reads_in_english_and_in_finnish(app, demo_tournament, organiser):
    document = export_tournament(demo_tournament)
    document["hands"][0]["fan_points"] += 1
    with pytest.raises(ImportRefused) as exc:
        import_tournament(document, organiser)
    assert exc.value.message == "hands[0].fan_points: does not equal the sum of the hand's fans."
    assert in_language(app, "fi", exc.value.message) == "hands[0].fan_points: ei ole sama kuin käden fanien summa."
    assert in_language(app, "en", exc.value.message) == exc.value.message


def test_a_backups_settings_problem_keeps_the_path_and_says_the_forms_message(app, demo_tournament, organiser):
    document = export_tournament(demo_tournament)
    document["tournament"]["name"] = " "
    with pytest.raises(ImportRefused) as exc:
        import_tournament(document, organiser)
    assert (exc.value.message, exc.value.field) == ("tournament.name: The tournament needs a name.", "tournament.name")
    assert in_language(app, "zh", exc.value.message).startswith("tournament.name: ")
    assert in_language(app, "fi", exc.value.message) == "tournament.name: Turnaus tarvitsee nimen."


def test_the_ema_packs_refusals_read_in_swedish(app):
    with pytest.raises(ServiceError) as flag:
        ema_pack.parse_flag("maybe", "qualification")
    assert flag.value.message == "qualification is 1 or 0 (true or false), not 'maybe'."
    assert in_language(app, "sv", flag.value.message) == "qualification är 1 eller 0 (sant eller falskt), inte 'maybe'."
    with pytest.raises(ServiceError) as days:
        ema_pack.mers_parts(0, 8, 2)
    assert in_language(app, "sv", days.value.message) == "En turnering varar minst en dag."
