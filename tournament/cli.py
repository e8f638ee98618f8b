"""Command-line tools: `flask users ...`, `flask demo`, `flask backup DIR` (`mcr-tournament ...` too:
tournament/__main__.py)."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import click
from flask import Flask
from flask.cli import AppGroup, with_appcontext

from tournament.models import Role
from tournament.services import ServiceError
from tournament.services.people import users as user_service

users_cli = AppGroup("users", help="Manage accounts.")


@users_cli.command("create")
@click.argument("email")
@click.option("--role", type=click.Choice([r.value for r in Role]), default=Role.REFEREE.value, show_default=True)
@click.option("--name", default="", help="Display name.")
@click.option(
    "--password",
    prompt=True,
    hide_input=True,
    confirmation_prompt=True,
    help="Prompted for when not given.",
)
def create_user_command(email: str, role: str, name: str, password: str) -> None:
    """Create an account (e.g. the first organiser)."""
    try:
        user = user_service.create_user(email, password, role, name=name)
    except ServiceError as exc:
        raise click.ClickException(exc.message) from exc
    click.echo(f"Created {user.role} {user.email}.")


@users_cli.command("password")
@click.argument("email")
@click.option("--password", prompt="New password", hide_input=True, confirmation_prompt=True,
              help="Prompted for when not given.")
def reset_password_command(email: str, password: str) -> None:
    """Set a new password for an account (forgotten password); every login and API token of the account ends."""
    user = user_service.find_user_by_email(email)
    if user is None:
        raise click.ClickException(f"No account with the email {email!r}.")
    try:
        ended, revoked = user_service.reset_password(user, password)
    except ServiceError as exc:
        raise click.ClickException(exc.message) from exc
    click.echo(f"New password set for {user.email}; {ended} login{'s' if ended != 1 else ''} ended, "
               f"{revoked} API token{'s' if revoked != 1 else ''} revoked.")


@users_cli.command("list")
def list_users_command() -> None:
    """List accounts."""
    from sqlalchemy import select

    from tournament.extensions import db
    from tournament.models import User

    for user in db.session.scalars(select(User).order_by(User.email)):
        click.echo(f"{user.email}\t{user.role}\t{'active' if user.active else 'disabled'}")


@users_cli.command("token")
@click.argument("email")
@click.option("--name", default="command line", show_default=True, help="What the token is for.")
def create_token_command(email: str, name: str) -> None:
    """Create an API token for an account; the token is printed alone on the last line (shown once)."""
    user = user_service.find_user_by_email(email)
    if user is None:
        raise click.ClickException(f"No account with the email {email!r}.")
    try:
        _, plain = user_service.create_api_token(user, name)
    except ServiceError as exc:
        raise click.ClickException(exc.message) from exc
    click.echo(f"API token {name!r} for {user.email} (shown once, keep it secret):", err=True)
    click.echo(plain)


@click.command("demo")
@click.option("--players", default=32, show_default=True, type=click.IntRange(8, 400))
@click.option("--seed", default=2026, show_default=True, type=int)
@click.option("--owner", "owner_email", default=None, help="Email of an existing organiser to own it.")
@click.option("--if-empty", is_flag=True, help="Only when the database holds no tournament yet.")
def demo_command(players: int, seed: int, owner_email: str | None, if_empty: bool) -> None:
    """Load a sample tournament with players."""
    from tournament.services.documents.demo import DEMO_EMAIL, demo_substitutes, load_demo
    from tournament.services.people.tournaments import list_tournaments

    if if_empty and list_tournaments():
        return
    try:
        t, password = load_demo(players=players, seed=seed, owner_email=owner_email)
    except ServiceError as exc:
        raise click.ClickException(exc.message) from exc
    click.echo(f"Created demo tournament {t.name!r} (id {t.id}) with {players} players and "
               f"{demo_substitutes(players)} substitutes;"
               f" all {t.session_count} sessions drawn; session 1 played and closed, session 2 in play"
               " (8 hands entered per table).")
    if password:
        click.echo(f"Log in as {owner_email or DEMO_EMAIL} with password: {password}")


@click.command("backup")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def backup_command(directory: Path) -> None:
    """Write every tournament's backup document (as GET .../export.json) to DIRECTORY/tournament-<id>.json."""
    from flask import current_app

    from tournament.services.documents.backup import export_tournament
    from tournament.services.people.tournaments import list_tournaments

    directory.mkdir(parents=True, exist_ok=True)
    for t in list_tournaments():
        target = directory / f"tournament-{t.id}.json"
        partial = target.with_suffix(".json.partial")
        # The app's own JSON encoder (dates, decimals) as the API answers it; renamed whole so that a backup
        # stopped halfway never replaces the previous good file.
        partial.write_text(current_app.json.dumps(export_tournament(t)), encoding="utf-8")
        os.replace(partial, target)
        click.echo(f"{target} ({t.name})")


def _one_unit_of_work(command: click.Command) -> None:
    """Services only flush: each command commits once when it succeeds (the edge of the unit of work)."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _one_unit_of_work(sub)
        return
    callback = command.callback
    if callback is None or getattr(callback, "_commits", False):
        return

    @functools.wraps(callback)
    def run(*args, **kwargs):
        from tournament.services.core.db import commit, rollback

        try:
            result = callback(*args, **kwargs)
        except BaseException:
            rollback()
            raise
        try:
            commit()
        except ServiceError as exc:
            raise click.ClickException(exc.message) from exc
        return result

    run._commits = True  # type: ignore[attr-defined]
    # The app context must outlive the command so that the commit runs inside it.
    command.callback = with_appcontext(run)
    command.callback._commits = True  # type: ignore[attr-defined]


def init_cli(app: Flask) -> None:
    for command in (users_cli, demo_command, backup_command):
        _one_unit_of_work(command)
        app.cli.add_command(command)

