#!/bin/sh
# The backup service of deploy/compose.yaml: deploy/mcr-backup.sh (a pg_dump of the database and every
# tournament's backup document in BACKUP_DIR/<date-time>/, folders older than KEEP_DAYS days removed) every
# day at BACKUP_AT (HH:MM, the container's clock: UTC), and once at start when the newest backup is a day old
# or more (a stack that was down over night catches up; a restart does not pile up copies).
#   compose-backup.sh           the service: catch up, then every day at BACKUP_AT
#   compose-backup.sh --once    catch up only, then exit
#   compose-backup.sh --check   the health check: a backup younger than 26 hours exists
set -eu
here=$(cd "$(dirname "$0")" && pwd)
BACKUP_DIR=${BACKUP_DIR:-/var/backups/mcr-tournament}
BACKUP_AT=${BACKUP_AT:-03:00}
BACKUP_SCRIPT=${BACKUP_SCRIPT:-$here/mcr-backup.sh}

newer_than() {  # a finished backup folder modified less than $1 minutes ago exists
    [ -n "$(find "$BACKUP_DIR" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*-[0-9]*' ! -name '*.partial' \
        -mmin -"$1" 2>/dev/null | head -n 1)" ]
}

back_up() {
    "$BACKUP_SCRIPT" || echo "backup failed at $(date -u '+%Y-%m-%d %H:%M') UTC: the next try is at $BACKUP_AT" >&2
}

case ${1:-} in
    --check)
        newer_than $((26 * 60))
        exit
        ;;
esac

newer_than $((24 * 60)) || back_up
[ "${1:-}" != --once ] || exit 0

while :; do
    now=$(date +%s)
    next=$(date -d "today $BACKUP_AT" +%s)
    [ "$next" -gt "$now" ] || next=$(date -d "tomorrow $BACKUP_AT" +%s)
    echo "next backup at $(date -u -d "@$next" '+%Y-%m-%d %H:%M') UTC"
    sleep $((next - now))
    back_up
done
