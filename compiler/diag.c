/* Diagnostics (see diag.h). */
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>

static int errors; /* errors printed so far */
static int quiet;  /* diag_quiet */

static void vprint(const char *kind, const char *fmt, va_list ap) {
  if (quiet) return;
  fprintf(stderr, "paddlec: %s: ", kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

int diag_verror(const char *fmt, va_list ap) {
  vprint("error", fmt, ap);
  errors++;
  return -1;
}

int diag_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(fmt, ap);
  va_end(ap);
  return -1;
}

void diag_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint("warning", fmt, ap);
  va_end(ap);
}

void diag_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint("note", fmt, ap);
  va_end(ap);
}

void diag_internal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("paddlec: internal error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(2);
}

int diag_count(void) { return errors; }

void diag_reset(void) { errors = 0; }

int diag_quiet(int on) {
  const int was = quiet;
  quiet = on;
  return was;
}

void diag_set_count(int n) { errors = n; }
