"""`mcr-tournament ...` (the wheel's console script) and `python -m tournament ...`: the app's flask command
line without --app, wherever the package is installed: flask's own `db upgrade`, `run`, `routes`, and the
app's `users`, `demo`, `backup` (tournament/cli.py). The settings come from the environment as for gunicorn
(DATABASE_URL, SECRET_KEY, PUBLIC_URL, INSTANCE_PATH ...: tournament/config.py)."""

from __future__ import annotations

import click
from flask.cli import FlaskGroup

from tournament import create_app
from tournament.version import __version__


def _version_line(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"mcr-tournament {__version__}")
        ctx.exit()


def command_line() -> FlaskGroup:
    cli = FlaskGroup(name="mcr-tournament", create_app=lambda: create_app(), add_version_option=False,
                     help="The MCR tournament manager: `db upgrade`, `users create EMAIL --role organiser`, "
                          "`run`, `backup DIR` ...")
    cli.params.append(click.Option(["--version"], is_flag=True, expose_value=False, is_eager=True,
                                   callback=_version_line, help="Show the version and exit."))
    return cli


def main() -> None:
    command_line().main(prog_name="mcr-tournament")


if __name__ == "__main__":
    main()
