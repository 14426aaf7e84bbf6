#!/usr/bin/env bash
# The optional compiled engine (setup.py, CANASTA_COMPILE=1): compiles the engine with mypyc in a copy of the
# checkout and runs the engine's tests against the compiled modules, then checks that compiled and pure Python
# play exactly alike (examples/trace_hash.py: the same fingerprints of what clients see of random games).
# The main test run (README's command) tests the pure-Python package; this one the compiled build.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the tracked files only (a developer's own compiled modules in the checkout would hide a stale build)
git ls-files -z | (cd "$repo" && xargs -0 cp --parents -t "$work")
cd "$work"
echo "compiled.sh: compiling the engine with mypyc"
CANASTA_COMPILE=1 python3 setup.py -q build_ext --inplace >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }

# Tests that patch the engine's classes or functions at run time (monkeypatch on a compiled class is refused)
# carry the marker `patches_engine` and run in the pure-Python pass only.
export PYTHONPATH="$work"
export CANASTA_EXPECT_COMPILED=1
python3 -m pytest -p no:cacheprovider -m "not patches_engine and not slow" \
  tests/test_engine_api.py tests/test_adding_a_variant.py tests/test_rules_classic.py tests/test_variants_*.py \
  tests/test_properties.py tests/test_record.py tests/test_notation.py tests/test_validation.py \
  tests/test_load_consistency.py tests/test_retract_bound.py tests/test_spectator.py tests/test_known_hands.py \
  tests/test_completeness.py tests/test_worlds.py tests/test_compiled.py

echo "compiled.sh: compiled and pure Python play alike (examples/trace_hash.py)"
python3 examples/trace_hash.py 2 >"$work/compiled.txt"
python3 -c "import canasta.engine.game as g; assert not g.__file__.endswith('.py'), g.__file__"
cd "$repo"  # (python puts the current directory first on the path)
PYTHONPATH="$repo" python3 -c "import canasta.engine.game as g; assert g.__file__.endswith('.py'), g.__file__"
PYTHONPATH="$repo" python3 examples/trace_hash.py 2 >"$work/pure.txt"
diff "$work/pure.txt" "$work/compiled.txt"
echo "compiled.sh: $(wc -l <"$work/pure.txt") fingerprints identical"
