#!/usr/bin/env bash
# Packaging check (CI runs it after the tests): build the sdist, build the wheel from that sdist (so a file
# missing from the sdist fails here), install the wheel with the train extra into a fresh venv, and run
# scripts/wheel_smoke.py from an empty directory outside the checkout. Uses pip's cache, nothing else
# of this machine's installs (no --system-site-packages).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# The sdist is built from the files git tracks or would track (no ignored build output, runs or caches).
mkdir "$WORK/src"
(cd "$ROOT" && git ls-files -co --exclude-standard -z | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) |
    tar -xf - -C "$WORK/src"
(cd "$WORK/src" && "$ROOT/.venv/bin/python" -c "from setuptools import build_meta; build_meta.build_sdist('$WORK/dist')") \
    > "$WORK/sdist.log" 2>&1 || { cat "$WORK/sdist.log"; exit 1; }
SDIST="$(ls "$WORK"/dist/pirate_envs-*.tar.gz)"
"$ROOT/.venv/bin/pip" wheel -q --no-deps -w "$WORK/dist" "$SDIST"
WHEEL="$(ls "$WORK"/dist/pirate_envs-*.whl)"
echo "built $(basename "$SDIST") and $(basename "$WHEEL")"

python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install -q -c "$ROOT/constraints.txt" "$WHEEL[train]"
mkdir "$WORK/outside"
cp "$ROOT/scripts/wheel_smoke.py" "$WORK/outside/"
cd "$WORK/outside"
"$WORK/venv/bin/python" wheel_smoke.py
