"""Gunicorn settings for the tournament app: `gunicorn -c deploy/gunicorn.conf.py app:app`.

Threaded workers (gthread) behind nginx: nginx reads whole requests before passing them on, so a slow
client never holds a worker, and the threads keep a worker serving while one request waits on the database.
Every value can be changed by the environment variable named next to it, or by a command-line flag.
"""

import gc
import os

# Loopback only: nginx in front is the sole client (GUNICORN_BIND to change, e.g. in a container).
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
worker_class = "gthread"
# 3 x 4 = 12 requests at once on a 2-core machine; SQLAlchemy's pool (5 + 10 overflow per worker) covers it.
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# A request slower than this is killed and its worker replaced (PDF exports are the slowest, a few seconds).
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
# nginx keeps upstream connections open between requests (keepalive in the site's upstream block).
keepalive = 5
# No recycling of workers by request count (GUNICORN_MAX_REQUESTS to switch it on): with threaded workers a
# worker that restarts can reset a connection it has just accepted (gunicorn issue #3038), and a hand sent on
# it fails. bench/load.py saw it under load; without recycling, the three workers grew from 282 to 322 MB
# over its ~7,400 requests (caches filling).
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "0"))
max_requests_jitter = max_requests // 10
# "-" is standard output: journald (systemd) or `docker compose logs` collect it.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# Real client address (from nginx's X-Forwarded-For), time taken in microseconds.
access_log_format = '%({x-forwarded-for}i)s %(h)s "%(r)s" %(s)s %(b)s %(D)sus "%(a)s"'
# Only nginx on this host may set X-Forwarded-*; the app's TRUSTED_PROXIES=1 then believes one hop. In
# deploy/compose.yaml nginx is another container and the app's port is reached by nothing else: "*" there.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# Players' private link tokens are written as /p/… in the access log (tournament.web.log_privacy).
logger_class = "tournament.web.log_privacy.GunicornLogger"


def post_worker_init(worker):
    """Once a worker has loaded the app, what it holds (modules, the app, SQLAlchemy's mappings: ~150,000
    objects) lives as long as the worker: the cyclic garbage collector is told to leave it out of its passes,
    which otherwise walk all of it again and again (1.3 ms after each fresh standings at 400 players, 0.3 ms
    frozen)."""
    gc.collect()
    gc.freeze()
