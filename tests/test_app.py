import os

import pytest
from sqlalchemy import text

from tournament import create_app
from tournament.config import instance_secret_key, normalise_database_url


def test_secret_key_is_generated_once_and_kept(tmp_path):
    first = instance_secret_key(str(tmp_path))
    second = instance_secret_key(str(tmp_path))
    assert first == second
    assert len(first) >= 64
    assert oct(os.stat(tmp_path / "secret_key").st_mode & 0o777) == "0o600"


def test_default_database_is_sqlite_in_instance_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path))
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///" + str(tmp_path / "tournament.db")
    assert app.config["SECRET_KEY"] == (tmp_path / "secret_key").read_text()


def test_environment_configures_database_secret_and_exports(monkeypatch, tmp_path):
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", "postgres://u@db.example/mcr")
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("EXPORT_DIR", str(tmp_path / "out"))
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://u@db.example/mcr"
    assert app.config["SECRET_KEY"] == "from-env"
    assert (tmp_path / "out").is_dir()


def test_normalise_database_url_leaves_other_urls_alone():
    assert normalise_database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert normalise_database_url("postgresql+psycopg://a/b") == "postgresql+psycopg://a/b"


@pytest.mark.postgres
def test_backend_matches_test_database_url(app_ctx):
    from tournament.extensions import db

    expected = "postgresql" if os.environ.get("TEST_DATABASE_URL") else "sqlite"
    assert db.engine.dialect.name == expected
    assert db.session.execute(text("select 1")).scalar() == 1
