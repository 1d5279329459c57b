#!/usr/bin/env bash
# The compiled twins under AddressSanitizer and UndefinedBehaviorSanitizer: builds pirate_envs._native with the
# sanitizers in a scratch copy of the checkout's tracked files (the checkout's own module is left alone) and runs
# the twin tests and the hostile-input fuzzes against it. A read out of bounds, a signed overflow or an
# out-of-range float cast stops the run (CONTRIBUTING.md, "Add a compiled twin"). Run from the repository root
# after the README's install; CI runs it after the test suite. Skips, saying so, where gcc or its sanitizer
# runtimes are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-$PWD/.venv/bin/python}
asan=$(gcc -print-file-name=libasan.so 2>/dev/null || true)
ubsan=$(gcc -print-file-name=libubsan.so 2>/dev/null || true)
if [ ! -f "$asan" ] || [ ! -f "$ubsan" ]; then
    echo "sanitizer_check: no gcc with ASan/UBSan runtimes here; skipped" >&2
    exit 0
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git ls-files -z | xargs -0 cp --parents -t "$scratch"
cd "$scratch"
flags="-fsanitize=address,undefined,float-cast-overflow"
CFLAGS="-O1 -g $flags -fno-omit-frame-pointer -fno-sanitize-recover=all" LDFLAGS="$flags" \
    "$python" setup.py -q build_ext --inplace --force >/dev/null
export LD_PRELOAD="$asan $ubsan" ASAN_OPTIONS=detect_leaks=0 PIRATE_ENVS_PURE_PYTHON=0
# setup.py builds the module as optional: make sure the sanitized one is there and is what the tests import
"$python" -c "import sys; sys.path.insert(0, '.'); import pirate_envs._native as m; assert m.__file__.startswith('$scratch'), m.__file__"
# every test of compiled code (tests/test_native*.py: twins, engines, binding, hostile-input fuzzes); torch is not
# run under the sanitizers (the one training test)
"$python" -m pytest -q -s -p no:cacheprovider -m "not slow" -k "not maskable_ppo" tests/test_native*.py
