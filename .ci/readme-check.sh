#!/usr/bin/env bash
# Proves README's quick start on a fresh virtual environment, as a new user would run it:
#  1. the first quick-start command exactly as README writes it (its install part, then
#     `canasta serve` on a free port) until the server answers its start page with HTML;
#  2. the base install alone (`pip install -e .`) playing the terminal game through a short
#     scripted session to its first accepted move, against the expert computer players.
# A dependency missing from the base install or from the web extra turns CI red here, before
# the full install of every extra can hide it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# README's quick-start block: the first line starts the main job, the second runs the tests.
first=$(awk '/^## Quick start/{q=1} q&&/^```bash/{b=1;next} b&&/^```/{exit} b{print}' README.md | head -n 1)
case "$first" in
  *"&& canasta serve"*) ;;
  *) echo "readme-check: README's first quick-start command is not '... && canasta serve': $first" >&2; exit 1 ;;
esac
install_part=${first%% && canasta serve*}
serve_args=${first#* && canasta serve}
echo "readme-check: fresh venv, README's first command: $first"

python3 -m venv "$work/web-venv"
(
  # shellcheck disable=SC1091
  source "$work/web-venv/bin/activate"
  cd "$repo"
  eval "$install_part" >"$work/web-install.log" 2>&1 || { cat "$work/web-install.log"; exit 1; }
)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The server runs from a scratch folder, its data folder in it too: its SQLite default (canasta.db) lands there.
(cd "$work" && XDG_DATA_HOME="$work/data" exec "$work/web-venv/bin/canasta" serve $serve_args --port "$port") >"$work/serve.log" 2>&1 &
server_pid=$!
answered=""
for _ in $(seq 60); do
  if page=$(python3 - "$port" <<'EOF' 2>/dev/null
import sys
import urllib.request

with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/", timeout=2) as response:
    body = response.read().decode()
    assert response.headers.get_content_type() == "text/html", response.headers.get_content_type()
    assert "<html" in body.lower()
print(body[:80].replace("\n", " "))
EOF
  ); then answered=$page; break; fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 1
done
kill "$server_pid" 2>/dev/null || true
wait "$server_pid" 2>/dev/null || true
server_pid=""
if [ -z "$answered" ]; then
  echo "readme-check: 'canasta serve' did not answer its start page with HTML; its output:" >&2
  cat "$work/serve.log" >&2
  exit 1
fi
echo "readme-check: the web app answered its start page: $answered"

python3 -m venv "$work/base-venv"
"$work/base-venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$repo" >"$work/base-install.log" 2>&1 \
  || { cat "$work/base-install.log"; exit 1; }
# A scripted first turn on the base install: the computers are experts (numpy), the move is a draw.
session=$(cd "$work" && printf 'help\nmoves\ndraw\nquit\n' \
  | timeout 300 "$work/base-venv/bin/canasta" play --players 4 --seed 1 --level expert 2>&1) || {
  echo "readme-check: 'canasta play' failed on the base install:" >&2; echo "$session" >&2; exit 1; }
if ! grep -q "You drew" <<<"$session"; then
  echo "readme-check: 'canasta play' did not accept a first move on the base install:" >&2
  echo "$session" >&2
  exit 1
fi
if grep -q "Traceback" <<<"$session"; then
  echo "readme-check: 'canasta play' printed a traceback:" >&2; echo "$session" >&2; exit 1
fi
echo "readme-check: the terminal game accepted a first move on the base install"
