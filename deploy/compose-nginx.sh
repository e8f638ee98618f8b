#!/bin/sh
# nginx's container in deploy/compose.yaml. `start`: the shipped site (deploy/nginx-site.conf, the very file a
# Debian server uses) made fit for the container, then the image's own start; `health`: the app answers
# through nginx under the site's name; `render`: the site as `start` writes it (tests/deploy read it).
#
# What changes from the Debian site: its name is PUBLIC_URL's host (deploy/README.md step 5 does the same by
# hand); the app is `app:8000`, the compose service, looked up by Docker's DNS (127.0.0.11) again every 10 s
# while nginx runs (`resolve`, nginx 1.27.3 or later), so an app restarted at a new address is found without
# restarting nginx; there is no live pages' gunicorn (the app takes those pages); no IPv6 listen when the
# container has no IPv6.
set -eu
SITE=${SITE:-/srv/nginx-site.conf}
OUT=${OUT:-/etc/nginx/conf.d/default.conf}

site_name() {  # PUBLIC_URL's host, without its port
    name=${PUBLIC_URL:-http://localhost:8080}
    name=${name#*://}
    name=${name%%/*}
    case $name in
        *]) ;;
        *:*) name=${name%:*} ;;
    esac
    printf '%s' "$name"
}

render() {
    name=$(site_name)
    printf '# deploy/nginx-site.conf for the nginx container (deploy/compose-nginx.sh)\n'
    printf 'resolver 127.0.0.11 valid=10s ipv6=off;\n'
    sed -e "s/server_name mcr-tournament.invalid;/server_name $name;/" \
        -e 's/^\( *\)server 127\.0\.0\.1:8000;/\1zone mcr_tournament_app 64k; server app:8000 resolve;/' \
        -e 's/^\( *\)server 127\.0\.0\.1:8001 .*;/\1zone mcr_tournament_live 64k; server app:8000 resolve;/' \
        -e '/^ *server 127\.0\.0\.1:8000 backup;/d' \
        "$SITE" | if [ -f /proc/net/if_inet6 ]; then cat; else sed -e '/^ *listen \[::\]:80/d'; fi
}

case ${1:-start} in
    render)
        render
        ;;
    start)
        render > "$OUT"
        exec /docker-entrypoint.sh nginx -g 'daemon off;'
        ;;
    health)
        wget -q -O /dev/null --header "Host: $(site_name)" "http://127.0.0.1:${NGINX_PORT:-80}/api/v1/version"
        ;;
    *)
        echo "usage: $0 start|health|render" >&2
        exit 2
        ;;
esac
