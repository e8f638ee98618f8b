"""Players' private links: no account and no password; whoever holds the link is that player on their own
page (their table, the hands to confirm or dispute, their schedule and standing).

A token is an HMAC-SHA256 of the link's random nonce under the app's secret key, 256 bits written in URL-safe
base64: unguessable, printable again whenever the desk needs it (the schedule card's QR code, the links
sheet), and not in the database, which keeps only the nonce and the token's SHA-256 to look it up by. A
lookup compares the token found in constant time. Renewing draws a new nonce, so the old link answers 404.
Changing the secret key renews every link at once (the printed cards must then be printed again).
`open_link` is the check the player's page and the players' API routes both make: the lookup first (a valid
link always opens, whatever was guessed from its address), then for an unknown token the per-address throttle
of the links (apart from the logins') and the failure counted.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import timedelta

from flask import current_app
from sqlalchemy import select

from tournament.constants import is_id
from tournament.extensions import db
from tournament.messages import msg, msg_n
from tournament.models import Player, PlayerLink, Tournament
from tournament.models._common import utcnow
from tournament.services.core import throttle
from tournament.services.core.db import changes
from tournament.services.core.errors import NotFound, ServiceError

TOKEN_CHARACTERS = 43  # 256 bits in URL-safe base64, no padding
USE_RESOLUTION = timedelta(minutes=1)  # last use recorded at most once a minute: a page's polls are not writes
NOT_VALID = "This link is not valid (it may have been renewed): ask the desk for your current link."


class LinkThrottled(ServiceError):
    """This address has tried too many unknown links lately: refused for `retry_after` seconds."""

    status_code = 429

    def __init__(self, retry_after: int):
        super().__init__(msg_n("Too many unknown links from your network address. Wait %(num)d second.",
                               "Too many unknown links from your network address. Wait %(num)d seconds.", retry_after))
        self.retry_after = retry_after


def token_of(link: PlayerLink) -> str:
    key = current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else key
    digest = hmac.new(key, b"player-link\0" + link.nonce.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _player(t: Tournament, player_id: int) -> Player:
    player = db.session.get(Player, player_id) if is_id(player_id) else None
    if player is None or player.tournament_id != t.id:
        raise NotFound(msg("Player %(player_id)s is not registered in this tournament.", player_id=player_id))
    return player


def _set_nonce(link: PlayerLink) -> None:
    link.nonce = secrets.token_urlsafe(24)
    link.token_hash = _digest(token_of(link))
    link.created_at = utcnow()
    link.last_used_at = None


def link_of(t: Tournament, player_id: int) -> PlayerLink:
    """The player's link, made on first request (every player has one from then on)."""
    player = _player(t, player_id)
    link = db.session.scalar(select(PlayerLink).where(PlayerLink.player_id == player.id))
    if link is None:
        with changes():
            link = PlayerLink(player_id=player.id)
            _set_nonce(link)
            db.session.add(link)
    return link


def renew(t: Tournament, player_id: int) -> PlayerLink:
    """A new token for the player: the old link stops working at once."""
    link = link_of(t, player_id)
    with changes():
        _set_nonce(link)
    return link


def links_of(t: Tournament, players: list[Player]) -> dict[int, PlayerLink]:
    """Every listed player's link (made where missing), for the links sheet and the schedule cards."""
    found = {link.player_id: link for link in db.session.scalars(
        select(PlayerLink).where(PlayerLink.player_id.in_([p.id for p in players])))}
    missing = [p for p in players if p.id not in found]
    if missing:
        with changes():
            for player in missing:
                link = PlayerLink(player_id=player.id)
                _set_nonce(link)
                db.session.add(link)
                found[player.id] = link
    return found


def player_for_token(token: str) -> Player | None:
    """The player a link token opens, or None for an unknown, renewed or malformed one."""
    if not isinstance(token, str) or len(token) != TOKEN_CHARACTERS:
        return None
    link = db.session.scalar(select(PlayerLink).where(PlayerLink.token_hash == _digest(token)))
    if link is None or not hmac.compare_digest(token_of(link), token):
        return None
    now = utcnow()
    if link.last_used_at is None or now - link.last_used_at >= USE_RESOLUTION:
        with changes():
            link.last_used_at = now
    return link.player


def chosen_language(player_id: int) -> str | None:
    """The language the player chose on their page (kept with their link: their other phone reads it too)."""
    return db.session.scalar(select(PlayerLink.language).where(PlayerLink.player_id == player_id))


def choose_language(player_id: int, code: str) -> None:
    """Keeps `code` (an offered language, checked by the caller) as the player's own, if it is a change."""
    link = db.session.scalar(select(PlayerLink).where(PlayerLink.player_id == player_id))
    if link is not None and link.language != code:
        with changes():
            link.language = code


def open_link(token: str, address: str) -> Player:
    """The player a request from `address` opens with `token` (the page and the API's routes alike).

    For an unknown, renewed or malformed token: LinkThrottled when the address has tried too many unknown links
    lately (nothing counted then), else NotFound, counted against the address at once (throttle.link_failed).
    The throttle only slows the guesses down: a valid token is looked up first and always opens."""
    player = player_for_token(token)
    if player is not None:
        return player
    throttled = throttle.link_throttled(address)
    if throttled is not None:
        raise LinkThrottled(throttled.retry_after)
    throttle.link_failed(address)
    raise NotFound(NOT_VALID)
