"""Web layer: thin blueprints that parse input, call a service and render."""

from __future__ import annotations

from flask import Flask

from tournament.web import (
    converters,
    errors,
    helpers,
    idempotency,
    input_guard,
    log_privacy,
    mailer,
    public_url,
    security,
    static_files,
    unit,
)


def init_web(app: Flask) -> None:
    from tournament.i18n import per_render
    from tournament.i18n.fans import fan_name
    from tournament.i18n.labels import action_text, status_text, translated
    from tournament.i18n.service_messages import inside
    from tournament.i18n.winds import wind_initial, wind_name

    app.jinja_env.filters.update(tr=per_render(translated), tr_inside=per_render(inside),
                                 status_text=per_render(status_text),
                                 action_text=per_render(action_text), wind_name=per_render(wind_name),
                                 wind_initial=per_render(wind_initial))
    app.jinja_env.globals.update(fan_name=fan_name)
    from tournament.version import __version__

    app.jinja_env.globals["app_version"] = __version__  # every page's footer
    from tournament.web.account.invitations import bp as invitations_bp
    from tournament.web.account.routes import bp as account_bp
    from tournament.web.api.routes import bp as api_bp
    from tournament.web.appeals.routes import bp as appeals_bp
    from tournament.web.auth.password_reset import bp as password_reset_bp
    from tournament.web.auth.routes import bp as auth_bp
    from tournament.web.checker.routes import bp as checker_bp
    from tournament.web.clock.routes import bp as clock_bp
    from tournament.web.draws.routes import bp as draws_bp
    from tournament.web.exports.routes import bp as exports_bp
    from tournament.web.hands.routes import bp as hands_bp
    from tournament.web.late_arrivals.routes import bp as late_arrivals_bp
    from tournament.web.live.routes import bp as live_bp
    from tournament.web.player_page.routes import bp as player_page_bp
    from tournament.web.players.routes import bp as players_bp
    from tournament.web.public.routes import bp as public_bp
    from tournament.web.schedule.routes import bp as schedule_bp
    from tournament.web.seating.routes import bp as seating_bp
    from tournament.web.standings.routes import bp as standings_bp
    from tournament.web.tournaments.routes import bp as tournaments_bp

    converters.init_app(app)  # before any blueprint: rules bind their converters when added
    input_guard.init_app(app)
    app.register_blueprint(public_bp)
    app.register_blueprint(auth_bp)
    app.register_blueprint(account_bp)
    app.register_blueprint(invitations_bp)
    app.register_blueprint(password_reset_bp)
    app.register_blueprint(tournaments_bp)
    app.register_blueprint(players_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(draws_bp)
    app.register_blueprint(hands_bp)
    app.register_blueprint(late_arrivals_bp)
    app.register_blueprint(appeals_bp)
    app.register_blueprint(standings_bp)
    app.register_blueprint(seating_bp)
    app.register_blueprint(checker_bp)
    app.register_blueprint(clock_bp)
    app.register_blueprint(exports_bp)
    app.register_blueprint(live_bp)
    app.register_blueprint(player_page_bp)
    app.register_blueprint(schedule_bp)
    errors.init_app(app)
    mailer.init_app(app)  # before the unit of work: its mail goes only once the request has committed
    unit.init_app(app)
    idempotency.init_app(app)  # after the unit of work: answers recorded before its commit
    helpers.init_app(app)
    security.init_app(app)
    public_url.init_app(app)
    log_privacy.init_app(app)
    static_files.init_app(app)
