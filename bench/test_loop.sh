#!/usr/bin/env bash
# The test loop's CPU and wall time, before and after a change, in one sitting:
#   bench/test_loop.sh OLD_REV [NEW_REV] [TEST FILES...]
# Clones this repo at each revision into a temp dir and runs the given test files (default:
# the command-heavy ones; `tests` for the whole suite) with the suite's own pytest-xdist
# settings (two workers per core), under /usr/bin/time (user + sys include every process
# the tests start). Appends the lines to bench/results/test_loop.txt.
# CPU seconds hold on a shared machine; wall seconds depend on its load (printed too).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
old=${1:?usage: bench/test_loop.sh OLD_REV [NEW_REV] [TEST FILES...]}
new=${2:-HEAD}
shift $(( $# >= 2 ? 2 : 1 ))
files=("$@")
if ((${#files[@]} == 0)); then
  files=(tests/test_search_cli.py tests/test_cli_annotate.py tests/test_concurrent_appends.py
         tests/test_store_special_files.py tests/test_special_files.py
         tests/test_import_conference_csv.py tests/test_cli_completion.py
         tests/test_team_sync.py tests/test_team_faults.py)
fi
out="$here/bench/results/test_loop.txt"
for rev in "$old" "$new"; do
  work=$(mktemp -d)
  git clone -q "$here" "$work" && git -C "$work" checkout -q "$rev"
  load=$(cut -d' ' -f1 /proc/loadavg)
  line=$(cd "$work" && PYTHONPATH="$work/src" /usr/bin/time -f "%e s wall, %U s user, %S s sys" \
         python -m pytest -q -p no:cacheprovider "${files[@]}" 2>&1 | tail -2 | tr '\n' ' ')
  echo "$(date -u +%F) $rev (load $load): $line" | tee -a "$out"
  rm -rf "$work"
done
