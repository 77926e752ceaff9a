#!/bin/sh
# Seeds for `make fuzz` from the shared model collection, made at run time
# (never committed): the smaller programs for fuzz_program.
#   tests/fuzz/seeds.sh MODELS_DIR OUT_DIR
models=$1 out=$2
mkdir -p "$out/fuzz_program"
[ -d "$models" ] || { echo "seeds: no $models, committed corpus only"; exit 0; }
find "$models" -type f \( -name '*.pdmodel' -o -name '__model__' \) -size -200k | while read -r f; do
  name=$(echo "${f#"$models"/}" | tr '/' '_')
  cp "$f" "$out/fuzz_program/$name"
  chmod u+w "$out/fuzz_program/$name"
done
echo "seeds: $(ls "$out/fuzz_program" | wc -l) programs from $models"
