/* Shared pieces of the libFuzzer harnesses (tests/fuzz/fuzz_*.c).
 *
 * Each harness feeds one input through a reader in process.  The compiler's
 * user errors return -1 (their messages go to stderr: run with
 * -close_fd_mask=3 to keep them quiet); an internal error exits 2, which
 * libFuzzer reports as a finding.  Between inputs the compilation pool and
 * the error counter are reset, so nothing of one input reaches the next.
 * Readers that take a path get the input through a per-process file in
 * /dev/shm (or $TMPDIR), removed at exit. */
#ifndef PADDLEC_FUZZ_UTIL_H
#define PADDLEC_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The source tree, for fixed inputs such as samples/mlp (the Makefile
 * passes it; $PADDLEC_ROOT overrides). */
#ifndef FUZZ_ROOT
#define FUZZ_ROOT "."
#endif

static inline const char *fuzz_root(void) {
  const char *r = getenv("PADDLEC_ROOT");
  return r && *r ? r : FUZZ_ROOT;
}

static char fuzz_tmp[256]; /* this process's input file, "" until made */

static inline void fuzz_tmp_remove(void) {
  if (fuzz_tmp[0]) unlink(fuzz_tmp);
}

/* Writes the input to this process's file and returns its path. */
static inline const char *fuzz_write_tmp(const uint8_t *data, size_t size, const char *suffix) {
  if (!fuzz_tmp[0]) {
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
    snprintf(fuzz_tmp, sizeof fuzz_tmp, "%s/paddlec-fuzz-%ld%s", dir && *dir ? dir : "/tmp", (long)getpid(),
             suffix);
    atexit(fuzz_tmp_remove);
  }
  FILE *f = fopen(fuzz_tmp, "wb");
  if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
    fprintf(stderr, "fuzz: cannot write %s\n", fuzz_tmp);
    abort();
  }
  return fuzz_tmp;
}

/* Reads a whole file with malloc (the harness's own fixed inputs). */
static inline uint8_t *fuzz_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "fuzz: cannot open %s (set PADDLEC_ROOT to the source tree)\n", path);
    abort();
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
  if (!b || n < 0 || fread(b, 1, (size_t)n, f) != (size_t)n) abort();
  fclose(f);
  *len = (size_t)n;
  return b;
}

/* Forgets everything the previous input left in the compiler. */
static inline void fuzz_reset(void) {
  pool_release();
  diag_reset();
}

#endif
