#!/usr/bin/env bash
# Installs what the tests need on a fresh machine: the extras (FastAPI, SQLAlchemy, psycopg,
# redis, Playwright's Python package; PettingZoo, Gymnasium, OpenSpiel, matplotlib, Ray) and Debian's Chromium for the browser tests
# (Playwright cannot download its own browser here). Idempotent: apt-get runs only when
# /usr/bin/chromium is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check -e '.[test,web,servers,rl,arena,bench,ray,train]'

if [ ! -x /usr/bin/chromium ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
