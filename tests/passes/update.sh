#!/usr/bin/env bash
# Rewrites the "# EXPECT" section of every tests/passes/*.ir (or of the files
# named) with what `paddlec opt` prints for its input and "# RUN:" options.
# Review the diff before committing: each change is a change in a pass.
set -euo pipefail
cd "$(dirname "$0")/../.."
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(tests/passes/*.ir)
for f in "${files[@]}"; do
  input=$(sed '/^# EXPECT$/,$d' "$f")
  args=$(sed -n 's/^# RUN: //p' "$f")
  tmp=$(mktemp --suffix=.ir)
  printf '%s\n' "$input" > "$tmp"
  # shellcheck disable=SC2086
  out=$(build/paddlec opt "$tmp" $args --verify-each)
  rm -f "$tmp"
  printf '%s\n# EXPECT\n%s\n' "$input" "$out" > "$f"
done
echo "updated ${#files[@]} pass tests"
