"""MCR tournament manager: the application factory."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

from tournament.version import __version__  # noqa: F401 - tournament.__version__, as packages have it


def create_app(config: dict | None = None) -> Flask:
    """Build the app. `config` overrides settings read from the environment (tests use it)."""
    # Imported here so that the pure packages (tournament.mcr, tournament.draws) load without Flask.
    from tournament.config import default_instance_path, load_config, site_folder
    from tournament.web.public_url import TournamentFlask  # links built from PUBLIC_URL

    app = TournamentFlask(
        __name__,
        instance_path=os.environ.get("INSTANCE_PATH") or default_instance_path(),
        instance_relative_config=True,
        template_folder=str(site_folder("templates")),
        static_folder=str(site_folder("static")),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(load_config(app.instance_path, config))
    Path(app.config["EXPORT_DIR"]).mkdir(parents=True, exist_ok=True)

    from tournament.extensions import csrf, db, login_manager, mail, migrate

    db.init_app(app)
    migrate.init_app(app, db, directory=str(site_folder("migrations")), render_as_batch=True)
    csrf.init_app(app)
    login_manager.init_app(app)
    mail.init_app(app)

    from tournament.i18n import init_i18n
    from tournament.web.languages import tournament_language

    init_i18n(app, tournament_language)  # before the blueprints: their templates use the translations

    from tournament import models  # noqa: F401 - register the models with the metadata
    from tournament.web import init_web

    init_web(app)

    from tournament.cli import init_cli

    init_cli(app)
    return app
