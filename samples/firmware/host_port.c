/* fw_port.h on a host (the reference build of main.c): stdout and exit. */
#include <stdio.h>
#include <stdlib.h>

#include "fw_port.h"

void fw_puts(const char *s) { fputs(s, stdout); }

void fw_exit(int status) {
  fflush(stdout);
  exit(status);
}
