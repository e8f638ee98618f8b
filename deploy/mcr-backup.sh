#!/bin/sh
# Backup of the tournament database, run by deploy/mcr-backup.timer on a Debian server and by the backup
# service of deploy/compose.yaml (deploy/README.md, "Backups"): a pg_dump of the whole database and every
# tournament's backup document (the API's export.json, written by `flask backup`), in
# BACKUP_DIR/<date-time>/; folders older than KEEP_DAYS days are removed. A backup is written into
# <date-time>.partial and renamed when whole: a folder with its final name is always complete.
set -eu
: "${DATABASE_URL:?DATABASE_URL is not set (it comes from /etc/mcr-tournament.env)}"
BACKUP_DIR=${BACKUP_DIR:-/var/backups/mcr-tournament}
KEEP_DAYS=${KEEP_DAYS:-14}
APP_DIR=${APP_DIR:-/srv/mcr-tournament}

name=$(date +%Y%m%d-%H%M%S)
target="$BACKUP_DIR/$name"
mkdir -p "$target.partial"
# pg_dump reads a libpq URL: without SQLAlchemy's driver name (postgresql+psycopg://).
url=$(printf '%s' "$DATABASE_URL" | sed -e 's#^postgresql+psycopg://#postgresql://#' -e 's#^postgres://#postgresql://#')
pg_dump --format=custom --no-owner --file="$target.partial/database.dump" "$url"
# The app's command line: the checkout's virtualenv (make install), else the installed `mcr-tournament`
# (the Docker image, a wheel).
if [ -x "$APP_DIR/.venv/bin/flask" ]; then
    "$APP_DIR/.venv/bin/flask" --app "$APP_DIR/app.py" backup "$target.partial/json"
else
    mcr-tournament backup "$target.partial/json"
fi
mv "$target.partial" "$target"
# Backups older than KEEP_DAYS days (their folders' names are their dates), and a .partial left by a run
# that was stopped, once it is a day old.
find "$BACKUP_DIR" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*-[0-9]*' ! -name '*.partial' \
    -mmin +$((KEEP_DAYS * 24 * 60)) -exec rm -rf {} +
find "$BACKUP_DIR" -mindepth 1 -maxdepth 1 -type d -name '*.partial' -mmin +$((24 * 60)) -exec rm -rf {} +
echo "backup written to $target"
