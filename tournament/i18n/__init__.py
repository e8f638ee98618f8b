"""The interface in the reader's language: English, Finnish, Swedish, Spanish and Simplified Chinese.

Flask-Babel translates with the gettext catalogues of ``tournament/translations`` (README "Languages" says
how to add or update one). The language of a request, first found wins:

1. ``?lang=xx`` in the address (remembered in the ``lang`` cookie for the pages that follow);
2. the ``lang`` cookie: the reader's own choice, made with the footer's switcher;
3. the logged-in account's language (``User.language``, chosen on the account page), on every page they read;
   on a player's private page, the language the player chose there (kept with their link, so the QR code
   opened on another phone reads the same: ``use_player_language``);
4. the browser's Accept-Language, among the languages offered;
5. the tournament's default language (``Tournament.language``) on that tournament's pages (a
   ``tournament_id`` in the address, or a player's link: ``use_tournament_language``): a browser that asks
   for none of the languages offered (German only, or nothing) reads the tournament in the organiser's;
6. English.

The reader's own signals come first: a Swedish visitor at a Finnish tournament reads Swedish, as their browser
asks; the organiser's default is for those whose browser names none of ours. Printed documents have no
reader: the standings PDF and the score sheets are in the tournament's language (services/documents/exports.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from urllib.parse import urlencode

from babel.dates import format_interval
from babel.numbers import get_decimal_symbol
from flask import Flask, g, has_request_context, request
from flask_babel import Babel, format_date, get_locale, refresh
from flask_login import current_user
from jinja2 import pass_context
from sqlalchemy.exc import SQLAlchemyError

from tournament.constants import DEFAULT_LANGUAGE, LANGUAGES
from tournament.text import local_number, local_points

# Native names: a reader looking for their own language finds it whatever the page's language.
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600

babel = Babel()


def N_(message: str) -> str:  # noqa: N802 - the gettext convention pybabel looks for
    """Marks a text for the catalogues where it is defined; it is translated where it is shown."""
    return message


def offered(code: str | None) -> str | None:
    """The offered language a code names ('fi', 'FI', 'fi-FI', 'zh_CN' -> 'zh'), else None."""
    if not code:
        return None
    primary = code.strip().replace("_", "-").split("-", 1)[0].lower()
    return primary if primary in LANGUAGES else None


def _account_language() -> str | None:
    """The logged-in account's own language, if it chose one."""
    try:
        user = current_user._get_current_object()
    except SQLAlchemyError:  # an error page after the database failed: the other signals decide
        return None
    return offered(getattr(user, "language", None)) if getattr(user, "is_authenticated", False) else None


# The live pages' polls: their 304 costs the change marker's one query (tournament/web/live), which starts with
# the tournament's version (a settings edit bumps it); the standings' cache module keeps (tournament id,
# version) -> its default language, so the poll needs no second query.


# How a tournament's default language is found from its id (and the live marker the request found, or None):
# handed in at start-up by init_i18n (the web layer's tournament.web.languages, which reads the database and
# its cache); this package reads neither.
TournamentLanguage = Callable[[int, object], "str | None"]
_language_of: TournamentLanguage = lambda tournament_id, marker: None  # noqa: E731 - until init_i18n


def _tournament_language() -> str | None:
    """The default language of the tournament this request is about (see use_tournament_language)."""
    if "tournament_language" in g:
        return offered(g.tournament_language)
    tournament_id = (request.view_args or {}).get("tournament_id")
    if not isinstance(tournament_id, int):
        return None
    try:
        return offered(_language_of(tournament_id, g.get("live_marker")))
    except SQLAlchemyError:  # an error page after the database failed: it still gets a language
        return None


def use_tournament_language(t) -> None:
    """A page about tournament `t` without its id in the address (a player's link): its default language
    applies (step 5 of the module's docstring), even if something asked for the language already."""
    g.tournament_language = getattr(t, "language", None)
    refresh()


def use_player_language(lookup: Callable[[], str | None]) -> None:
    """A player's private page: `lookup` gives the language the player chose (step 3), asked only when no
    address or cookie has decided."""
    g.player_language = lookup
    refresh()


def _player_language() -> str | None:
    lookup = g.get("player_language")
    if lookup is None:
        return None
    try:
        return offered(lookup())
    except SQLAlchemyError:  # an error page after the database failed: the other signals decide
        return None


def select_locale() -> str:
    """Flask-Babel's locale selector: the language of this request (see the module's docstring)."""
    if not has_request_context():  # a command line's documents: the default until a tournament says
        return DEFAULT_LANGUAGE
    g.locale_chosen = True  # the answer depends on the language: after_request says so in Vary
    # The page that says the database is down asks it nothing: the request's own signals decide.
    stored = not g.get("database_down")
    chosen = (offered(request.args.get("lang")) or offered(request.cookies.get(COOKIE))
              or (stored and (_account_language() or _player_language())))
    if chosen:
        return chosen
    return (request.accept_languages.best_match(LANGUAGES) or (stored and _tournament_language())
            or DEFAULT_LANGUAGE)


def current_language() -> str:
    """The language code of this request ('en' outside a request)."""
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def language_url(code: str) -> str:
    """This page's address with ?lang=code (its other query parameters kept): the footer's switcher."""
    args = request.args.to_dict(flat=False)
    args[COOKIE] = [code]
    # one leading slash: a 404 page for "//other.example/x" must not link to another site
    path = "/" + request.path.lstrip("/")
    return f"{request.script_root}{path}?{urlencode(args, doseq=True)}"


# The pages' number formats are the printed documents' (tournament.text: cached there, the Locale itself the key).
_decimal = local_number


def _locale():
    # the Locale itself (hashable) as the key: its str() costs as much again as the lookup
    return get_locale() or DEFAULT_LANGUAGE


def number(value) -> str:
    """A number in the reader's format (1,75 in Finnish, 1.75 in English)."""
    return _decimal(value, _locale())


def table_points(value) -> str:
    """Table points in the reader's format (1,75 in Finnish), rounded as everywhere (text.format_points);
    empty for none. Only the pages use it: the JSON, CSV and API keep format_points' "1.75"."""
    if value is None or value == "":
        return ""
    return _points(value, _locale())


_points = local_points


def score(value) -> str:
    """A score in the reader's format (the minus sign and digit grouping of the language); '–' for none."""
    return "–" if value is None else _decimal(value, _locale())


def day(value: date | None) -> str:
    """A date in the reader's format: 9 May 2026 -> "May 9, 2026", "9.5.2026", "9 maj 2026", "2026年5月9日"."""
    return format_date(value, "medium") if value else ""


def days(start: date | None, end: date | None) -> str:
    """A tournament's dates in the reader's format, a range written once ("9.–11. toukokuuta 2026")."""
    if not start:
        return ""
    if not end or end == start:
        return day(start)
    return format_interval(start, end, "yMMMd", locale=get_locale() or DEFAULT_LANGUAGE)


def decimal_separator() -> str:
    """The reader's decimal separator ("," in Finnish): scripts that format numbers from JSON use it."""
    return get_decimal_symbol(get_locale() or DEFAULT_LANGUAGE)


def country(code: str | None) -> str:
    """A country's name in the reader's language from its alpha-2 code (Babel's territory names); the code
    itself when Babel does not know it."""
    if not code:
        return ""
    locale = get_locale()
    return (locale.territories.get(code.upper()) if locale is not None else None) or code


def remember_language(response, code: str | None):
    """The reader's choice kept in the ``lang`` cookie (step 2 of the module's docstring); None forgets it."""
    if code:
        response.set_cookie(COOKIE, code, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=True,
                            secure=request.is_secure)
    else:
        response.delete_cookie(COOKIE, samesite="Lax", httponly=True, secure=request.is_secure)
    return response


def _remember_language(response):
    code = offered(request.args.get("lang"))
    if code and request.cookies.get(COOKIE) != code:
        remember_language(response, code)
    if g.get("locale_chosen"):
        response.vary.update(("Accept-Language", "Cookie"))
    return response


def per_render(f: Callable) -> Callable:
    """The filter `f`, run at each render: Jinja works out a filter of a constant (`'playing'|tr`) when it
    compiles the template, once per app, in the language of whoever came first; it leaves alone a filter
    that takes the render's context."""

    @pass_context
    def run(_context, value, *args, **kwargs):
        return f(value, *args, **kwargs)

    return run


def init_i18n(app: Flask, tournament_language: TournamentLanguage | None = None) -> None:
    global _language_of
    if tournament_language is not None:
        _language_of = tournament_language
    babel.init_app(app, locale_selector=select_locale, default_locale=DEFAULT_LANGUAGE)
    # Flask-Babel keeps the chosen locale on `g`, which outlives a request wherever an app context does (tests,
    # a command's requests): every request chooses afresh, before any other hook asks (the live ETags do).
    app.before_request_funcs.setdefault(None, []).insert(0, refresh)
    app.after_request(_remember_language)
    # (the words of labels and fans, which import this package, are the web layer's filters: tournament.web)
    filters = dict(number=number, points=table_points, score=score, day=day, country=country)
    app.jinja_env.filters.update({name: per_render(f) for name, f in filters.items()})
    app.jinja_env.globals.update(
        languages=LANGUAGES,
        current_language=current_language,
        language_url=language_url,
        days=days,
        decimal_separator=decimal_separator,
    )
