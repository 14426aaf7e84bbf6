#!/usr/bin/env bash
# Installs what the web tests need on a fresh machine: the 'web' extra (FastAPI, SQLAlchemy,
# psycopg, redis, Playwright's Python package) and Debian's Chromium for the browser tests
# (Playwright cannot download its own browser here). Idempotent: apt-get runs only when
# /usr/bin/chromium is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check -e '.[test,web]'

if [ ! -x /usr/bin/chromium ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
