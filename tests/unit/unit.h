/* A tiny unit-test harness: tests register in one table; the runner can
 * list them, run one by name, or run all and print "N passed, N failed". */
#ifndef PADDLEC_UNIT_H
#define PADDLEC_UNIT_H

#include <stdio.h>

extern int unit_failures; /* failed checks in the running test */

#define CHECK(cond)                                                       \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "  %s:%d: check failed: %s\n", __FILE__, __LINE__, \
              #cond);                                                     \
      unit_failures++;                                                    \
    }                                                                     \
  } while (0)

typedef struct UnitTest {
  const char *name; /* test name */
  void (*fn)(void); /* body */
} UnitTest;

#endif
