/* Templates (the .in files of templates/) and runtime sources embedded into
 * paddlec, and the renderer that fills @NAME@ placeholders. */
#ifndef PADDLEC_TEMPLATE_H
#define PADDLEC_TEMPLATE_H

#include <stddef.h>

typedef struct EmbeddedFile {
  const char *path; /* path in the source tree, e.g. "templates/main.c.in" */
  const char *data; /* contents */
  size_t len;       /* bytes */
} EmbeddedFile;

extern const EmbeddedFile embedded_files[];
extern const int embedded_count;

/* The embedded file at `path`; exits 2 (internal error) if missing. */
const EmbeddedFile *tpl_file(const char *path);

typedef struct TplVar {
  const char *key;   /* placeholder name without the @s */
  const char *value; /* replacement text */
} TplVar;

/* Fills every @KEY@ of the template; an @UPPERCASE@ placeholder with no value
 * (or a value never used) is an internal error.  Result in pool memory. */
char *tpl_render(const char *path, const TplVar *vars, int nvars);

#endif
