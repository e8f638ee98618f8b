#!/bin/sh
# Backup of the tournament database, run by deploy/mcr-backup.timer (see deploy/README.md, "Backups"):
# a pg_dump of the whole database and every tournament's backup document (the API's export.json, written
# by `flask backup`), in BACKUP_DIR/<date-time>/; folders older than KEEP_DAYS days are removed.
set -eu
: "${DATABASE_URL:?DATABASE_URL is not set (it comes from /etc/mcr-tournament.env)}"
BACKUP_DIR=${BACKUP_DIR:-/var/backups/mcr-tournament}
KEEP_DAYS=${KEEP_DAYS:-14}
APP_DIR=${APP_DIR:-/srv/mcr-tournament}

target="$BACKUP_DIR/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$target"
# pg_dump reads a libpq URL: without SQLAlchemy's driver name (postgresql+psycopg://).
url=$(printf '%s' "$DATABASE_URL" | sed -e 's#^postgresql+psycopg://#postgresql://#' -e 's#^postgres://#postgresql://#')
pg_dump --format=custom --no-owner --file="$target/database.dump" "$url"
"$APP_DIR/.venv/bin/flask" --app "$APP_DIR/app.py" backup "$target/json"
find "$BACKUP_DIR" -mindepth 1 -maxdepth 1 -type d -mtime +"$KEEP_DAYS" -exec rm -rf {} +
echo "backup written to $target"
