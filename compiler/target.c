/* The target probe (target.h): asks the C compiler which macros it defines
 * for -march=MARCH. */
#include "target.h"

#include <stdio.h>
#include <string.h>

#include "rt_blocking.h"
#include "util.h"

/* MARCH in single quotes for the shell ('\'' for a quote). */
static const char *quoted(const char *s) {
  size_t n = 3;
  for (const char *c = s; *c; c++) n += *c == '\'' ? 4 : 1;
  char *q = pool_alloc(n), *o = q;
  *o++ = '\'';
  for (const char *c = s; *c; c++) {
    if (*c == '\'') memcpy(o, "'\\''", 4), o += 4;
    else *o++ = *c;
  }
  *o++ = '\'', *o = 0;
  return q;
}

int target_pp_panel(const char *cc, const char *march) {
  if (!march || !*march) return RT_PP_PANEL_NARROW;
  FILE *f = popen(pool_printf("%s -march=%s -dM -E -x c /dev/null 2>/dev/null", cc, quoted(march)), "r");
  if (!f) return RT_PP_PANEL_NARROW;
  char line[512];
  int wide = 0;
  while (fgets(line, sizeof line, f)) wide |= !strncmp(line, "#define __AVX512F__ ", 20);
  pclose(f);
  return wide ? RT_PP_PANEL_WIDE : RT_PP_PANEL_NARROW;
}
