#!/usr/bin/env bash
# Two `streamlit run app.py` replicas behind Debian's nginx with sticky sessions, and the class tally's store (Debian's
# redis-server) that both share, all on 127.0.0.1.
#
#   deploy/two-replicas.sh start   # starts the four processes, prints URL=..., STORE=redis://... and REPLICA_n=port:pid
#   deploy/two-replicas.sh stop    # stops the processes this script started (by the pids it wrote)
#
# Streamlit keeps a session's state in the process that serves its websocket, so a browser must come back to the
# same replica (after a reconnect, and for files it downloads). nginx sends a new visitor to a random replica, sets a
# cookie naming that choice, and hashes the cookie on every later request. Its answers carry X-Attnviz-Replica, the
# replica that served them, so the load test (`make load REPLICAS=2`) can check that a session never moves. A class
# question lives in the store (ATTNVIZ_TALLY_URL), so a teacher on one replica counts students on both.
#
# Settings (environment): ATTNVIZ_REPLICAS_DIR (config, logs and pids; default /tmp/attnviz-replicas),
# ATTNVIZ_APP_DIR (where app.py is; default this checkout), PYTHON (default .venv/bin/python), NGINX
# (default /usr/sbin/nginx), STORE_SERVER (default redis-server, else valkey-server, from PATH).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="${ATTNVIZ_REPLICAS_DIR:-/tmp/attnviz-replicas}"
APP_DIR="${ATTNVIZ_APP_DIR:-$REPO}"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
NGINX="${NGINX:-/usr/sbin/nginx}"
STORE_SERVER="${STORE_SERVER:-$(command -v redis-server || command -v valkey-server || echo redis-server)}"
NAMES=(replica-1 replica-2 nginx store)

running() { [ -f "$STATE/$1.pid" ] && kill -0 "$(cat "$STATE/$1.pid")" 2>/dev/null; }

wait_healthy() {  # url, what, log
  for _ in $(seq 1 150); do
    if [ "$(curl -fsS --max-time 2 "$1/_stcore/health" 2>/dev/null)" = "ok" ]; then return 0; fi
    sleep 0.4
  done
  echo "$2 was not healthy at $1 after 60 s; its log ($3):" >&2
  tail -n 40 "$3" >&2
  return 1
}

wait_store() {  # url: answers PING
  for _ in $(seq 1 150); do
    if "$PYTHON" -c 'import redis, sys; redis.Redis.from_url(sys.argv[1]).ping()' "$1" 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "the store at $1 did not answer; its log ($STATE/logs/store.log):" >&2
  tail -n 20 "$STATE/logs/store.log" >&2
  return 1
}

write_nginx_conf() {  # proxy port, replica port 1, replica port 2
  cat >"$STATE/nginx.conf" <<EOF
worker_processes 1;
pid logs/nginx-master.pid;
error_log logs/error.log warn;
events { worker_connections 1024; }

http {
    access_log logs/access.log;
    client_body_temp_path tmp/body;
    proxy_temp_path tmp/proxy;
    fastcgi_temp_path tmp/fastcgi;
    uwsgi_temp_path tmp/uwsgi;
    scgi_temp_path tmp/scgi;

    map \$http_upgrade \$connection_upgrade { default upgrade; "" close; }
    # Sticky sessions: a visitor without the cookie is hashed on a fresh random id and gets that id as its cookie;
    # with the cookie, the same id hashes to the same replica every time.
    map \$cookie_attnviz_replica \$sticky_key { "" \$request_id; default \$cookie_attnviz_replica; }
    map \$cookie_attnviz_replica \$sticky_cookie {
        "" "attnviz_replica=\$request_id; Path=/; HttpOnly; SameSite=Lax";
        default "";
    }

    upstream attnviz {
        hash \$sticky_key consistent;
        server 127.0.0.1:$2;
        server 127.0.0.1:$3;
    }

    server {
        listen 127.0.0.1:$1;
        location / {
            proxy_pass http://attnviz;
            proxy_http_version 1.1;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header Host \$http_host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_read_timeout 1h;  # a student's websocket stays open for the whole lesson
            proxy_send_timeout 1h;
            add_header Set-Cookie \$sticky_cookie always;  # an empty value adds no header
            add_header X-Attnviz-Replica \$upstream_addr always;
        }
    }
}
EOF
}

start() {
  for name in "${NAMES[@]}"; do
    if running "$name"; then
      echo "$name is already running (pid $(cat "$STATE/$name.pid")); run '$0 stop' first" >&2
      exit 1
    fi
  done
  [ -x "$NGINX" ] || { echo "no nginx at $NGINX (apt-get install nginx)" >&2; exit 1; }
  [ -x "$STORE_SERVER" ] || { echo "no store server at $STORE_SERVER (apt-get install redis-server)" >&2; exit 1; }
  mkdir -p "$STATE/logs" "$STATE/tmp"
  read -r proxy_port port_1 port_2 store_port < <("$PYTHON" - <<'EOF'
import socket
sockets = [socket.socket() for _ in range(4)]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))
EOF
)
  # The store first: in memory only, on loopback; the replicas find it by ATTNVIZ_TALLY_URL.
  "$STORE_SERVER" --port "$store_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$STATE" \
    >"$STATE/logs/store.log" 2>&1 &
  echo $! >"$STATE/store.pid"
  store_url="redis://127.0.0.1:$store_port/0"
  wait_store "$store_url" || { stop; exit 1; }
  # Both replicas sign cookies with the same secret, as every pod of a Deployment must.
  secret="$("$PYTHON" -c 'import secrets; print(secrets.token_hex(32))')"
  ports=("$port_1" "$port_2")
  for i in 1 2; do
    port="${ports[$((i - 1))]}"
    (cd "$APP_DIR" && STREAMLIT_SERVER_COOKIE_SECRET="$secret" ATTNVIZ_TALLY_URL="$store_url" PYTHONUNBUFFERED=1 exec "$PYTHON" -m streamlit run app.py \
      --server.headless true --server.address 127.0.0.1 --server.port "$port" --browser.gatherUsageStats false) \
      >"$STATE/logs/replica-$i.log" 2>&1 &
    echo $! >"$STATE/replica-$i.pid"
    echo "$port" >"$STATE/replica-$i.port"
  done
  write_nginx_conf "$proxy_port" "$port_1" "$port_2"
  "$NGINX" -t -q -p "$STATE/" -c nginx.conf -e logs/error.log
  "$NGINX" -p "$STATE/" -c nginx.conf -e logs/error.log -g "daemon off;" >"$STATE/logs/nginx.out" 2>&1 &
  echo $! >"$STATE/nginx.pid"
  for i in 1 2; do
    wait_healthy "http://127.0.0.1:${ports[$((i - 1))]}" "replica $i" "$STATE/logs/replica-$i.log" || { stop; exit 1; }
  done
  wait_healthy "http://127.0.0.1:$proxy_port" "nginx" "$STATE/logs/error.log" || { stop; exit 1; }
  echo "URL=http://127.0.0.1:$proxy_port"
  echo "STORE=$store_url"
  for i in 1 2; do
    echo "REPLICA_$i=${ports[$((i - 1))]}:$(cat "$STATE/replica-$i.pid")"
  done
}

stop() {
  for name in "${NAMES[@]}"; do
    if running "$name"; then
      pid="$(cat "$STATE/$name.pid")"
      kill "$pid"
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    fi
    rm -f "$STATE/$name.pid" "$STATE/$name.port"
  done
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
