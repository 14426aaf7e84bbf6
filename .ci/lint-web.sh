#!/usr/bin/env bash
# Lints the web app's own CSS and JavaScript (canasta/web/static) with Biome, pinned: CSS that does not
# parse (a merge once left conflict markers in app.css, and Chromium silently dropped the rules around
# them) and JavaScript errors fail. Biome is installed from npm into a cache outside the repository
# (CANASTA_WEB_LINT_DIR, default ~/.cache/canasta-web-lint), once per version. The rules: biome.json,
# Biome's recommended set with four rules of style only turned off: useOptionalChain and useTemplate
# (a preference of spelling, not a defect), noImportantStyles (`[hidden]` and prefers-reduced-motion
# must win over every rule: that is what !important is for) and noDescendingSpecificity (the phone
# blocks at the end deliberately override earlier, more specific rules). The formatter is off: the
# code keeps its own layout.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v npm >/dev/null; then  # a machine without Node.js: Debian's (Biome's npm package ships its binary)
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
fi

BIOME_VERSION=2.3.8
dir="${CANASTA_WEB_LINT_DIR:-$HOME/.cache/canasta-web-lint}/biome-$BIOME_VERSION"
biome="$dir/node_modules/.bin/biome"
if [ ! -x "$biome" ]; then
  mkdir -p "$dir"
  (cd "$dir" && [ -f package.json ] || echo '{"private": true}' > "$dir/package.json")
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "@biomejs/biome@$BIOME_VERSION"
fi
"$biome" --version
"$biome" lint --error-on-warnings canasta/web/static
