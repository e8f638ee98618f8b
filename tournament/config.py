"""Settings from the environment, with safe defaults for a laptop install.

DATABASE_URL   SQLAlchemy URL; default SQLite at instance/tournament.db
SECRET_KEY     session signing key; default: generated once and kept in the instance folder
EXPORT_DIR     where PDFs and CSVs are written; default: exports/ at the project root (installed from the wheel:
               exports/ in the instance folder)
INSTANCE_PATH  the instance folder (the secret key when SECRET_KEY is unset, the SQLite database by default);
               default: instance/ at the project root, or, installed from the wheel, Flask's
               <virtualenv>/var/tournament-instance
SECURE_COOKIES unset or "auto" (default): session and remember cookies are Secure when the request came over
               HTTPS (behind nginx: its X-Forwarded-Proto, with TRUSTED_PROXIES); 1 forces Secure, 0 never
REMEMBER_DAYS  how long "keep me logged in" lasts; default 30
TRUSTED_PROXIES number of reverse proxies in front (nginx: 1), whose X-Forwarded-For/-Proto are believed
PUBLIC_URL     the site's address as its users type it (https://tournament.example.org, with a port if not the
               scheme's own): every absolute link (a player's link and its QR code, invitations, password-reset
               mails, calendars) is built from it, never from the Host a client sends (tournament/web/public_url.py)
MAIL_SERVER    an SMTP server: invitations and password-reset links are then also sent by e-mail (unset: the
               organiser copies the link; "Forgot your password?" asks to see an organiser). With it:
               MAIL_PORT (25), MAIL_USERNAME, MAIL_PASSWORD, MAIL_USE_TLS, MAIL_USE_SSL, MAIL_DEFAULT_SENDER
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

PROJECT_ROOT = Path(__file__).resolve().parent.parent
# Installed from the wheel, the package carries the project's templates, static files and migrations here
# (setup.py copies them in when it builds); from a checkout they are read where they are, at the project root.
BUNDLED = Path(__file__).resolve().parent / "_bundled"


def from_checkout() -> bool:
    """Whether the package runs from the project's checkout (an editable install, `make run`) rather than
    from an installed wheel (the checkout has its pyproject.toml next to the package)."""
    return (PROJECT_ROOT / "pyproject.toml").is_file() and (PROJECT_ROOT / "templates").is_dir()


def site_folder(name: str) -> Path:
    """The folder `templates`, `static` or `migrations`: the checkout's own, else the wheel's copy."""
    return PROJECT_ROOT / name if from_checkout() else BUNDLED / name


def default_instance_path() -> str | None:
    """instance/ of the checkout; installed from the wheel, None: Flask's own default for an installed
    package (<prefix>/var/tournament-instance), never a folder inside site-packages."""
    return str(PROJECT_ROOT / "instance") if from_checkout() else None
# Under TESTING, passwords are hashed cheaply (setup was most of the web tests' time); never in production.
TEST_PASSWORD_HASH_METHOD = "pbkdf2:sha256:1000"


def normalise_database_url(url: str) -> str:
    """Use the psycopg 3 driver for plain postgres URLs (Heroku-style and libpq-style)."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def instance_secret_key(instance_path: str) -> str:
    """Read the secret key kept in the instance folder, creating it on first run."""
    path = Path(instance_path) / "secret_key"
    if path.exists():
        key = path.read_text().strip()
        if key:
            return key
    key = secrets.token_hex(32)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written with owner-only permissions: the key signs every session cookie.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key)
    return key


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def _mail_settings(env) -> dict:
    """Flask-Mail's settings, only when MAIL_SERVER is set: without it no mail is sent (the links are shown)."""
    if not (env.get("MAIL_SERVER") or "").strip():
        return {}
    return {
        "MAIL_SERVER": env["MAIL_SERVER"].strip(),
        "MAIL_PORT": int(env.get("MAIL_PORT") or 25),
        "MAIL_USERNAME": env.get("MAIL_USERNAME") or None,
        "MAIL_PASSWORD": env.get("MAIL_PASSWORD") or None,
        "MAIL_USE_TLS": _flag(env.get("MAIL_USE_TLS")),
        "MAIL_USE_SSL": _flag(env.get("MAIL_USE_SSL")),
        "MAIL_DEFAULT_SENDER": env.get("MAIL_DEFAULT_SENDER") or env.get("MAIL_USERNAME") or None,
    }


def public_url(value: str | None) -> str | None:
    """PUBLIC_URL checked and made canonical ("https://name[:port]", no trailing slash), None when unset.

    Only a site's address: the app is served at the root of its host (nginx sends it every path), so a path,
    a query or a user name would make every link wrong; a ValueError says so at start, not in a mail."""
    value = (value or "").strip()
    if not value:
        return None
    parts = urlsplit(value)
    example = "such as https://tournament.example.org or http://192.168.1.10:8080"
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise ValueError(f"PUBLIC_URL must start with http:// or https:// and name the site, {example}: {value!r}")
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number from 0 to 65535
    except ValueError:
        raise ValueError(f"PUBLIC_URL has a port that is not a number up to 65535, {example}: {value!r}") from None
    if not parts.hostname or "@" in parts.netloc:
        raise ValueError(f"PUBLIC_URL must name a host (and no user name), {example}: {value!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or value.endswith(("?", "#")):
        raise ValueError(f"PUBLIC_URL is the site's address alone, without a path, query or #, {example}: {value!r}")
    scheme, netloc = parts.scheme.lower(), parts.netloc.lower()
    if parts.port == {"http": 80, "https": 443}[scheme]:  # as a browser writes it: no port of the scheme's own
        netloc = netloc.rpartition(":")[0]
    return f"{scheme}://{netloc}"


def load_config(instance_path: str, overrides: dict | None = None) -> dict:
    overrides = overrides or {}
    env = os.environ
    database_url = overrides.get("SQLALCHEMY_DATABASE_URI") or env.get("DATABASE_URL")
    if not database_url:
        database_url = "sqlite:///" + str(Path(instance_path) / "tournament.db")
    config = {
        "SQLALCHEMY_DATABASE_URI": normalise_database_url(database_url),
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
        "SECRET_KEY": env.get("SECRET_KEY") or None,
        "EXPORT_DIR": env.get("EXPORT_DIR") or str(PROJECT_ROOT / "exports" if from_checkout()
                                                    else Path(instance_path) / "exports"),
        "WTF_CSRF_TIME_LIMIT": None,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": _flag(env.get("SECURE_COOKIES")),
        "REMEMBER_COOKIE_SECURE": _flag(env.get("SECURE_COOKIES")),
        # A volunteer's plain-HTTP site before certbot must still log in: follow the request's scheme unless told.
        "SECURE_COOKIES_AUTO": (env.get("SECURE_COOKIES") or "auto").strip().lower() == "auto",
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_DURATION": timedelta(days=int(env.get("REMEMBER_DAYS") or 30)),
        "TRUSTED_PROXIES": int(env.get("TRUSTED_PROXIES") or 0),
        "PUBLIC_URL": env.get("PUBLIC_URL"),
        # Login throttle (tournament.services.core.throttle): after LOGIN_FREE_FAILURES failures for an account (or
        # a trusted device) within LOGIN_THROTTLE_WINDOW, each attempt waits 1, 2, 4 ... s (at most
        # LOGIN_MAX_DELAY) after the last failure; one address may fail 300 times in 15 minutes (a venue's NAT),
        # after which its wrong passwords are answered 429 (a right one still logs in). Unknown player links
        # from one address have their own count, with the same window.
        "LOGIN_THROTTLE_WINDOW": timedelta(hours=24),
        "LOGIN_FREE_FAILURES": 5,
        "LOGIN_MAX_DELAY": timedelta(minutes=15),
        "LOGIN_ADDRESS_WINDOW": timedelta(minutes=15),
        "LOGIN_FAILURES_PER_ADDRESS": 300,
        "PLAYER_LINK_FAILURES_PER_ADDRESS": 300,
        "MAX_CONTENT_LENGTH": 4 * 1024 * 1024,
        # One form field (Werkzeug's default is 500 KB): a players CSV of 1.5 MB pasted into the import box.
        "MAX_FORM_MEMORY_SIZE": 4 * 1024 * 1024,
        **_mail_settings(env),
    }
    config.update(overrides)
    config["PUBLIC_URL"] = public_url(config.get("PUBLIC_URL"))
    if config.get("TESTING"):
        config.setdefault("PASSWORD_HASH_METHOD", TEST_PASSWORD_HASH_METHOD)
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = instance_secret_key(instance_path)
    return config
