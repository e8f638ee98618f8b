"""The interface in the reader's language: English, Finnish, Swedish, Spanish and Simplified Chinese.

Flask-Babel translates with the gettext catalogues of ``tournament/translations`` (README "Languages" says
how to add or update one). The language of a request, first found wins:

1. ``?lang=xx`` in the address (remembered in the ``lang`` cookie for the pages that follow);
2. the ``lang`` cookie;
3. the browser's Accept-Language, among the languages offered;
4. English.

An account's own language and a tournament's default language come between 2 and 4 once the models store
them (a migration this first slice does not add).
"""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Flask, g, has_request_context, request
from flask_babel import Babel, format_decimal, get_locale

# Native names: a reader looking for their own language finds it whatever the page's language.
LANGUAGES = {"en": "English", "fi": "Suomi", "sv": "Svenska", "es": "Español", "zh": "中文"}
DEFAULT_LANGUAGE = "en"
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


def select_locale() -> str:
    """Flask-Babel's locale selector: the language of this request (see the module's docstring)."""
    if not has_request_context():  # a command line's documents: the default until a tournament says
        return DEFAULT_LANGUAGE
    g.locale_chosen = True  # the answer depends on the language: after_request says so in Vary
    chosen = offered(request.args.get("lang")) or offered(request.cookies.get(COOKIE))
    if chosen:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT_LANGUAGE


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


def number(value) -> str:
    """A number in the reader's format (1,75 in Finnish, 1.75 in English)."""
    return format_decimal(value)


def _remember_language(response):
    code = offered(request.args.get("lang"))
    if code and request.cookies.get(COOKIE) != code:
        response.set_cookie(COOKIE, code, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=True,
                            secure=request.is_secure)
    if g.get("locale_chosen"):
        response.vary.update(("Accept-Language", "Cookie"))
    return response


def init_i18n(app: Flask) -> None:
    from tournament.i18n.fans import fan_name

    babel.init_app(app, locale_selector=select_locale, default_locale=DEFAULT_LANGUAGE)
    app.after_request(_remember_language)
    app.jinja_env.filters["number"] = number
    app.jinja_env.globals.update(
        languages=LANGUAGES,
        current_language=current_language,
        language_url=language_url,
        fan_name=fan_name,
    )
