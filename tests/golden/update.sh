#!/usr/bin/env bash
# Regenerates the golden emitted code (make golden-update): every file
# `paddlec compile` writes for each model of tests/golden/MODELS, but the
# runtime copy (paddlec_rt/) and the weight files (*.pdiparams).  Review the
# diff before committing: every change in it is a change in what users get.
set -euo pipefail
cd "$(dirname "$0")/../.."
while read -r name model args; do
  [ -z "$name" ] && continue
  rm -rf "build/golden/$name" "tests/golden/$name"
  # shellcheck disable=SC2086
  build/paddlec compile "$model" -o "build/golden/$name" $args
  mkdir -p "tests/golden/$name"
  find "build/golden/$name" -maxdepth 1 -type f ! -name '*.pdiparams' -exec cp {} "tests/golden/$name/" \;
done < tests/golden/MODELS
echo "golden files updated: $(grep -c . tests/golden/MODELS) models"
