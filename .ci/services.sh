#!/usr/bin/env bash
# Makes sure PostgreSQL and Redis listen on 127.0.0.1 for the web tests. Machines of this
# project's kind start both before a session; on a machine without them this installs
# Debian's packages and starts them. Best effort: the tests that need a service skip with
# a clear reason when it is unreachable.
set -uo pipefail

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  [ -n "${APT_UPDATED:-}" ] || { apt-get update -qq && APT_UPDATED=1; }
  apt-get install -y -qq "$@" >/dev/null
}

if ! port_open 5432; then
  echo "ci: PostgreSQL not running on 127.0.0.1:5432; installing/starting it"
  command -v pg_ctlcluster >/dev/null || apt_install postgresql
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  hba=/etc/postgresql/$version/main/pg_hba.conf
  # the tests connect as postgres over TCP without a password (trust on loopback only)
  grep -q "^host all all 127.0.0.1/32 trust" "$hba" || sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || pg_ctlcluster --skip-systemctl-redirect "$version" main restart
  for _ in $(seq 30); do port_open 5432 && break; sleep 1; done
  su postgres -c "psql -tc \"SELECT 1 FROM pg_database WHERE datname='test'\" | grep -q 1 || createdb test" || true
fi

if ! port_open 6379; then
  echo "ci: Redis not running on 127.0.0.1:6379; installing/starting it"
  command -v redis-server >/dev/null || apt_install redis-server
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true
fi
exit 0
