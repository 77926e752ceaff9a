#!/usr/bin/env bash
# Regenerates the golden emitted code (make golden-update).  Review the diff
# before committing: every change in it is a change in what users get.
set -euo pipefail
cd "$(dirname "$0")/../.."
while read -r name model args; do
  [ -z "$name" ] && continue
  rm -rf "build/golden/$name"
  # shellcheck disable=SC2086
  build/paddlec compile "$model" -o "build/golden/$name" $args
  mkdir -p "tests/golden/$name"
  for f in model.h model.c main.c Makefile; do cp "build/golden/$name/$f" "tests/golden/$name/$f"; done
done < tests/golden/MODELS
echo "golden files updated: $(cat tests/golden/MODELS | wc -l) models"
