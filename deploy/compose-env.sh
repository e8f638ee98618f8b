#!/bin/sh
# deploy/.env for deploy/compose.yaml, written ONCE: PUBLIC_URL (the site's address as its users type it),
# HTTP_PORT (its port, published by nginx), SECRET_KEY (signs every login) and POSTGRES_PASSWORD. Run again,
# it keeps the file as it is, so an upgrade never logs anybody out; edit the file to change PUBLIC_URL.
#
#   deploy/compose-env.sh http://192.168.1.10:8080      # a machine of the club's network, port 8080
#   deploy/compose-env.sh https://tournament.example.org
#   deploy/compose-env.sh                               # http://localhost:8080, this machine only
set -eu
here=$(cd "$(dirname "$0")" && pwd)
env_file=${ENV_FILE:-$here/.env}

if [ -s "$env_file" ]; then
    echo "$env_file is there already: kept as it is (its SECRET_KEY keeps everyone logged in)."
    exit 0
fi

public_url=${1:-http://localhost:8080}
case $public_url in
    http://?*|https://?*) ;;
    *) echo "PUBLIC_URL must start with http:// or https://, e.g. http://192.168.1.10:8080: $public_url" >&2; exit 2 ;;
esac
public_url=${public_url%/}
host=${public_url#*://}
case $host in
    */*|*\?*|*\#*|*@*) echo "PUBLIC_URL is the site's address alone (no path, no user): $public_url" >&2; exit 2 ;;
esac
port=${host##*]}
case $port in
    *:*) port=${port##*:} ;;
    *) case $public_url in https://*) port=443 ;; *) port=80 ;; esac ;;
esac
case $port in
    ''|*[!0-9]*) echo "PUBLIC_URL has a port that is not a number: $public_url" >&2; exit 2 ;;
esac
# With TLS in front of nginx (a proxy of the host), nginx itself still listens on plain HTTP.
[ "$port" != 443 ] || port=8080

random_hex() {  # $1 bytes from the kernel's generator, as hex (no openssl or python needed)
    od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'
}

# A stack started before this file (its database volume exists) was made with the old default password.
if command -v docker >/dev/null 2>&1 && docker volume inspect mcr-tournament_pgdata >/dev/null 2>&1; then
    password=mcr
    echo "The database volume mcr-tournament_pgdata exists: POSTGRES_PASSWORD is its password, mcr."
else
    password=$(random_hex 24)
fi

umask 077
cat > "$env_file.new" <<EOF_ENV
# Written once by deploy/compose-env.sh on $(date -u +%Y-%m-%d); kept across upgrades (git ignores it).
# PUBLIC_URL: the site's address as its users type it (links, QR codes, mails, calendars are built from it).
PUBLIC_URL=$public_url
HTTP_PORT=$port
# SECRET_KEY signs every login: changing it logs everybody out.
SECRET_KEY=$(random_hex 32)
# The database's password, set when its volume is first made: change it here alone and the app cannot connect.
POSTGRES_PASSWORD=$password
EOF_ENV
mv "$env_file.new" "$env_file"
echo "Wrote $env_file: PUBLIC_URL=$public_url, nginx on port $port."
