"""Accounts, passwords, login sessions and API tokens."""

from __future__ import annotations

import functools
import re
import secrets
from datetime import timedelta
from importlib.resources import files

from email_validator import EmailNotValidError, validate_email
from flask import current_app, has_app_context
from sqlalchemy import delete, func, select, update
from werkzeug.security import check_password_hash, generate_password_hash

from tournament.constants import LANGUAGES
from tournament.extensions import db
from tournament.messages import msg
from tournament.models import ApiToken, Role, User
from tournament.models._common import utcnow
from tournament.models.users import LoginSession, hash_token
from tournament.services.core.db import changes
from tournament.services.core.errors import ServiceError
from tournament.services.core.records import get_or_404

MIN_PASSWORD_LENGTH = 8
MAX_PASSWORD_LENGTH = 200  # hashing a megabyte-long "password" is work an attacker could make us do
# A login without "keep me logged in" ends after a long event day even if the browser keeps its cookie.
LOGIN_LIFETIME = timedelta(hours=24)
TOKEN_USE_RESOLUTION = timedelta(minutes=1)  # how precisely an API token's last use is recorded


def normalise_email(email: str) -> str:
    try:
        return validate_email(email.strip(), check_deliverability=False).normalized.lower()
    except EmailNotValidError as exc:
        raise ServiceError(msg("Not a valid email address: %(reason)s", reason=str(exc)), field="email") from exc


def find_user_by_email(email: str) -> User | None:
    return db.session.scalar(select(User).where(func.lower(User.email) == email.strip().lower()))


def create_user(email: str, password: str, role: str = Role.REFEREE, name: str = "") -> User:
    email = normalise_email(email)
    if role not in {r.value for r in Role}:
        raise ServiceError(msg("Unknown role %(role)r: use organiser or referee.", role=role), field="role")
    check_new_password(password, email)
    if find_user_by_email(email):
        raise ServiceError(msg("An account for %(email)s already exists.", email=email), field="email")
    with changes():
        user = User(email=email, role=str(role), name=name.strip())
        user.set_password(password)
        db.session.add(user)
    return user


def _word_list(name: str) -> frozenset[str]:
    text = files("tournament.services").joinpath(f"data/{name}").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


@functools.cache
def common_passwords() -> frozenset[str]:
    """The shipped list of very common passwords (lowercase), see data/common_passwords.txt."""
    return _word_list("common_passwords.txt")


@functools.cache
def common_password_words() -> frozenset[str]:
    """Common passwords of 4-7 characters: the cores of longer ones (monkey2024), see data/."""
    return _word_list("common_password_words.txt")


# The words an attacker of a mahjong tournament site tries first, with digits, a year or symbols added.
PRODUCT_WORDS = frozenset({
    "mahjong", "mahjongg", "majong", "mahjon", "majiang", "mcr", "ema", "riichi", "tournament", "tourney",
    "referee", "referees", "organiser", "organizer", "organisers", "organizers", "pung", "kong", "chow",
    "chinese", "official", "greenbook", "tiles", "dealer", "admin", "staff", "mcrtournament",
})
# Digits and symbols written for the letters they look like (p@ssw0rd); "1" is tried as i and as l.
_LEET = {ch: to for ch, to in zip("0134578@$!|+", "oieastbasilt", strict=True)}
_LEET_I = str.maketrans(_LEET)
_LEET_L = str.maketrans({**_LEET, "1": "l"})
_AROUND = re.compile(r"^[\W\d_]+|[\W\d_]+$")  # digits, a year, symbols before or after the word
_AFTER = re.compile(r"[\W\d_]+$")
MIN_DISTINCT_CHARACTERS = 4


def _repeated_piece(text: str) -> str | None:
    """The shortest piece the text is made of, written twice or more (org3org3 -> org3), else None."""
    for size in range(1, len(text) // 2 + 1):
        if len(text) % size == 0 and text[:size] * (len(text) // size) == text:
            return text[:size]
    return None


def _cores(lowered: str) -> set[str]:
    """What a guesser would start from: the password, its repeated piece, without the digits and symbols
    around it, with look-alike digits read as letters (both orders: mahj0ng2025 -> mahjong)."""
    forms = {lowered}
    piece = _repeated_piece(lowered)
    if piece:
        forms.add(piece)
    cores: set[str] = set()
    for form in forms:
        for core in (form, _AROUND.sub("", form), _AFTER.sub("", form)):  # 0livia1987: the 0 is a letter
            for read in (core, core.translate(_LEET_I), core.translate(_LEET_L)):
                cores.update({read, _AROUND.sub("", read)})
    return {core for core in cores if core}


def _product_words_only(letters: str) -> bool:
    """Whether the letters are one or two of the product words (mahjong, riichimahjong, mcrreferee)."""
    if letters in PRODUCT_WORDS:
        return True
    return any(letters[:cut] in PRODUCT_WORDS and letters[cut:] in PRODUCT_WORDS for cut in range(3, len(letters)))


def check_new_password(password: str, email: str, field: str = "password") -> None:
    """Refuse a password that is short, very common, or the account's own email (or the part before @)."""
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ServiceError(msg("The password needs at least %(min_password_length)s characters.", min_password_length=MIN_PASSWORD_LENGTH), field=field)
    if len(password) > MAX_PASSWORD_LENGTH:
        raise ServiceError(msg("The password can have at most %(max_password_length)s characters.", max_password_length=MAX_PASSWORD_LENGTH), field=field)
    lowered = password.strip().lower()
    email = email.strip().lower()
    if lowered in {email, email.partition("@")[0]}:
        raise ServiceError(msg("The password cannot be your email address or its first part."), field=field)
    if lowered in common_passwords():
        raise ServiceError(msg("That is one of the most common passwords, which attackers try first. "
                               "Choose another: a few unrelated words work well."), field=field)
    piece = _repeated_piece(lowered)
    if len(set(lowered)) < MIN_DISTINCT_CHARACTERS or (piece and len(piece) < MIN_PASSWORD_LENGTH):
        raise ServiceError(msg("A few characters repeated are as easy to guess as those few characters. "
                               "Choose another: a few unrelated words work well."), field=field)
    cores = _cores(lowered)
    local = email.partition("@")[0]
    if any(_product_words_only(re.sub(r"[^a-z]", "", core)) for core in cores):
        raise ServiceError(msg("Mahjong and tournament words (mahjong, MCR, riichi, referee, organiser "
                               "...), even with digits, a year or symbols added, are what attackers of "
                               "this site try first. Choose another: a few unrelated words work well."), field=field)
    if cores & common_passwords() or cores & common_password_words() or (len(local) >= 3 and local in cores):
        raise ServiceError(msg("That is a common password (or your email's first part) with digits, a "
                               "year or symbols added or letters written as digits: attackers try those "
                               "first. Choose another: a few unrelated words work well."), field=field)


def _hash_method() -> str | None:
    return current_app.config.get("PASSWORD_HASH_METHOD") if has_app_context() else None


_dummy_hashes: dict[str | None, str] = {}


def _dummy_hash() -> str:
    """A hash made like real ones, to check a password against when the email has no account: a login
    takes the same time whether or not the account exists."""
    method = _hash_method()
    if method not in _dummy_hashes:
        plain = secrets.token_urlsafe(16)
        _dummy_hashes[method] = (generate_password_hash(plain, method=method) if method
                                 else generate_password_hash(plain))
    return _dummy_hashes[method]


def authenticate(email: str, password: str) -> User | None:
    """The user when email and password match an active account, else None (same answer and same hashing
    work for an unknown email, a wrong password and a disabled account)."""
    user = find_user_by_email(email)
    if user is None:
        check_password_hash(_dummy_hash(), password)
        return None
    if not user.check_password(password) or not user.active:
        return None
    return user


def change_password(user: User, current: str, new: str) -> int:
    """Set a new password after checking the current one; every login session and every API token of the
    user ends (a token is a login too: a leaked one must not outlive the password). The tokens revoked."""
    if not user.check_password(current):
        raise ServiceError(msg("That is not your current password."), field="current_password")
    check_new_password(new, user.email, field="new_password")
    with changes():
        user.set_password(new)
    return log_out_everywhere(user)[1]


def reset_password(user: User, new: str) -> tuple[int, int]:
    """An administrator's reset (the CLI), for a forgotten password: same rules, every login and API token
    ends. The logins ended and the tokens revoked."""
    check_new_password(new, user.email)
    with changes():
        user.set_password(new)
    return log_out_everywhere(user)


# --- login sessions: the revocable "user id" Flask-Login keeps in session and remember cookies -------------


def start_login(user: User, remember: bool = False) -> str:
    """Open a login session for `user` and return its token (also set as `user.login_token`).

    A new token on every login: the remember cookie, which carries it, is never the same twice."""
    now = utcnow()
    lifetime = current_app.config["REMEMBER_COOKIE_DURATION"] if remember else LOGIN_LIFETIME
    token = secrets.token_urlsafe(32)
    with changes():
        db.session.execute(
            delete(LoginSession).where(LoginSession.user_id == user.id, LoginSession.expires_at <= now)
        )
        db.session.add(LoginSession(user_id=user.id, token_hash=hash_token(token), remember=remember,
                                    created_at=now, expires_at=now + lifetime))
        user.last_login_at = now  # the organisers see their staff's last activity
    user.login_token = token
    return token


def user_for_login(token: str) -> User | None:
    """The active user whose unexpired login session has this token, else None (logged out or revoked)."""
    if not token or len(token) > 100:
        return None
    user = db.session.scalar(
        select(User)
        .join(LoginSession, LoginSession.user_id == User.id)
        .where(LoginSession.token_hash == hash_token(token), LoginSession.expires_at > utcnow())
    )
    if user is None or not user.active:
        return None
    user.login_token = token
    return user


def login_remembered(token: str) -> bool:
    """Whether the login session was opened with "keep me logged in"."""
    remember = select(LoginSession.remember).where(LoginSession.token_hash == hash_token(token))
    return bool(db.session.scalar(remember))


def end_login(token: str | None) -> None:
    """Log out one device: its session and remember cookies stop working on every worker."""
    if token:
        with changes():
            db.session.execute(delete(LoginSession).where(LoginSession.token_hash == hash_token(token)))


def end_all_logins(user: User) -> int:
    """Log the user out everywhere (every device, every remember cookie); the number of sessions ended."""
    with changes():
        result = db.session.execute(delete(LoginSession).where(LoginSession.user_id == user.id))
    return result.rowcount or 0


def revoke_all_api_tokens(user: User) -> int:
    """Revoke every API token of the user still valid; the number revoked (the list keeps them, struck)."""
    with changes():
        result = db.session.execute(
            update(ApiToken).where(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
            .values(revoked_at=utcnow()).execution_options(synchronize_session="fetch")
        )
    return result.rowcount or 0


def log_out_everywhere(user: User) -> tuple[int, int]:
    """End every login and API token of the user (a lost phone, a leaked password): (logins, tokens)."""
    return end_all_logins(user), revoke_all_api_tokens(user)


def login_count(user: User) -> int:
    """The user's login sessions still open (devices logged in)."""
    return db.session.scalar(
        select(func.count()).select_from(LoginSession)
        .where(LoginSession.user_id == user.id, LoginSession.expires_at > utcnow())
    ) or 0


def set_language(user: User, code: str | None) -> None:
    """The language the account reads the pages in (a code of tournament.constants.LANGUAGES); None or "": the
    browser's, as before one was chosen."""
    if code and code not in LANGUAGES:
        raise ServiceError(msg("Choose a language: %(choices)s, or none for the browser's.", choices=", ".join(LANGUAGES)), field="language")
    with changes():
        user.language = code or None


def create_api_token(user: User, name: str) -> tuple[ApiToken, str]:
    """A new token for `user`; the plain token is returned once and never stored."""
    name = name.strip()
    if not name:
        raise ServiceError(msg("Give the token a name, e.g. the device that will use it."), field="name")
    if len(name) > 80:
        raise ServiceError(msg("Token names are at most 80 characters."), field="name")
    plain = "mcr_" + secrets.token_urlsafe(32)
    with changes():
        token = ApiToken(user_id=user.id, name=name, token_hash=hash_token(plain), prefix=plain[:10])
        db.session.add(token)
    return token, plain


def revoke_api_token(user: User, token_id: int) -> None:
    token = get_or_404(ApiToken, token_id, "No such token.", user_id=user.id)
    with changes():
        token.revoked_at = token.revoked_at or utcnow()


def user_for_token(plain: str) -> User | None:
    token = db.session.scalar(select(ApiToken).where(ApiToken.token_hash == hash_token(plain)))
    if token is None or token.is_revoked or not token.user.active:
        return None
    now = utcnow()
    # Recorded at most once a minute: a write on every request would make every poll a write.
    if token.last_used_at is None or now - token.last_used_at >= TOKEN_USE_RESOLUTION:
        with changes():
            token.last_used_at = now
    return token.user
