/* Template rendering (see template.h). */
#include "template.h"

#include <string.h>

#include "diag.h"
#include "util.h"

const EmbeddedFile *tpl_file(const char *path) {
  for (int i = 0; i < embedded_count; i++)
    if (!strcmp(embedded_files[i].path, path)) return &embedded_files[i];
  diag_internal("embedded file %s is missing", path);
}

static int is_key_char(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

char *tpl_render(const char *path, const TplVar *vars, int nvars) {
  const EmbeddedFile *f = tpl_file(path);
  size_t cap = f->len + 1;
  for (int i = 0; i < nvars; i++) cap += strlen(vars[i].value) * 8;
  int *used = pool_alloc(sizeof *used * (size_t)(nvars + 1));
  char *out = NULL;
  size_t n = 0, ocap = 0;
  for (size_t i = 0; i < f->len;) {
    const char *s = f->data + i;
    size_t k = 1;
    while (s[0] == '@' && i + k < f->len && is_key_char(s[k])) k++;
    const char *rep = NULL;
    size_t rlen = 0;
    if (s[0] == '@' && k > 1 && i + k < f->len && s[k] == '@') {
      for (int v = 0; v < nvars && !rep; v++)
        if (strlen(vars[v].key) == k - 1 && !memcmp(vars[v].key, s + 1, k - 1)) {
          rep = vars[v].value;
          used[v] = 1;
        }
      if (!rep) diag_internal("%s: placeholder @%.*s@ has no value", path, (int)(k - 1), s + 1);
      rlen = strlen(rep);
      i += k + 1;
    } else {
      rep = s;
      rlen = 1;
      i++;
    }
    if (n + rlen + 1 > ocap) {
      size_t nc = ocap ? ocap * 2 : cap;
      while (nc < n + rlen + 1) nc *= 2;
      out = pool_realloc(out, n, nc);
      ocap = nc;
    }
    memcpy(out + n, rep, rlen);
    n += rlen;
  }
  for (int v = 0; v < nvars; v++)
    if (!used[v]) diag_internal("%s: value for @%s@ given but the template has no such placeholder", path, vars[v].key);
  if (!out) out = pool_alloc(1);
  out[n] = 0;
  return out;
}
