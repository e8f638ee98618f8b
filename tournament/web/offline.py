"""Whose hands the offline queue keeps (issue 31): static/js/offline-queue.js keeps the hands saved with no network
per owner, and sends or shows a page only its own owner's. The page names its owner on <html data-offline-owner>
(templates/_offline_texts.html): a staff page the logged-in account, a player's page the player's link. The value
is opaque (an HMAC with the app's secret key): it names no one, and a page cannot guess another account's.

The script keeps, for each staff owner with hands not sent, a cookie sent only to /logout: `mcr_offline_<owner>`,
the count. The logout then asks first whether to send them or discard them (tournament/web/auth/routes.py), from
whichever page it is sent, and without any script on the pages that keep no hands.
"""

from __future__ import annotations

import hashlib
import hmac

from flask import abort, current_app, has_request_context, request
from flask_login import current_user

# The pages that load the offline queue (templates/base.html, templates/auth/logout.html): only they name an owner,
# so the pages shared between readers (the live pages, micro-cached by nginx) never carry one.
QUEUE_PAGES = {"hands.table", "hands.new_hand", "player_page.page", "player_page.new_hand", "auth.logout_page"}
HAND_FORMS = {"hands.new_hand", "player_page.new_hand"}
COOKIE_PREFIX = "mcr_offline_"


def _owner(kind: str, value: str) -> str:
    key = str(current_app.secret_key).encode()
    return hmac.new(key, f"offline-queue:{kind}:{value}".encode(), hashlib.sha256).hexdigest()[:32]


def account_owner(user_id: int) -> str:
    return _owner("account", str(user_id))


def link_owner(token: str) -> str:
    return _owner("link", token)


def page_owner() -> str | None:
    """The owner of the hands this page keeps, or None on a page that keeps none (a Jinja global)."""
    if not has_request_context() or request.endpoint not in QUEUE_PAGES:
        return None
    token = (request.view_args or {}).get("link_token")
    if token:
        return link_owner(str(token))
    if current_user.is_authenticated:
        return account_owner(current_user.id)
    return None


def refuse_another_owners_hand() -> None:
    """A hand form carries its page's owner (offline_owner): one sent under another login (a page kept for the
    account logged in before, should one ever be shown to the next) is refused, never saved as the sender's."""
    if request.method != "POST" or request.endpoint not in HAND_FORMS:
        return
    sent, mine = request.form.get("offline_owner", ""), page_owner()
    if sent and mine and not hmac.compare_digest(sent, mine):
        abort(403)


def hands_not_sent(user_id: int) -> int:
    """How many hands the logged-in account has kept in this browser and not sent, as the script last counted."""
    value = request.cookies.get(COOKIE_PREFIX + account_owner(user_id), "")
    return int(value) if value.isdigit() and len(value) < 6 else 0
