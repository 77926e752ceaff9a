/* Template rendering (see template.h). */
#include "template.h"

#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "util.h"

const EmbeddedFile *tpl_file(const char *path) {
  for (int i = 0; i < embedded_count; i++)
    if (!strcmp(embedded_files[i].path, path)) return &embedded_files[i];
  diag_internal("embedded file %s is missing", path);
}

static int is_key_char(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* Template line t (len bytes) with its placeholders filled, in pool
 * memory; used[v] set for each value taken. */
static char *render_line(const char *path, const char *t, size_t len, const TplVar *vars, int nvars, int *used) {
  size_t n = 0, cap = len + 1;
  char *out = pool_alloc(cap);
  for (size_t i = 0; i < len;) {
    const char *s = t + i;
    size_t k = 1;
    while (s[0] == '@' && i + k < len && is_key_char(s[k])) k++;
    const char *rep = s;
    size_t rlen = 1;
    if (s[0] == '@' && k > 1 && i + k < len && s[k] == '@') {
      rep = NULL;
      for (int v = 0; v < nvars && !rep; v++)
        if (strlen(vars[v].key) == k - 1 && !memcmp(vars[v].key, s + 1, k - 1)) {
          rep = vars[v].value;
          used[v] = 1;
        }
      if (!rep) diag_internal("%s: placeholder @%.*s@ has no value", path, (int)(k - 1), s + 1);
      rlen = strlen(rep);
      i += k + 1;
    } else {
      i++;
    }
    if (n + rlen + 1 > cap) {
      size_t nc = cap * 2;
      while (nc < n + rlen + 1) nc *= 2;
      out = pool_realloc(out, n, nc);
      cap = nc;
    }
    memcpy(out + n, rep, rlen);
    n += rlen;
  }
  out[n] = 0;
  return out;
}

/* The column of a trailing comment or line-continuation backslash the
 * template aligns (two or more spaces after code), or -1. */
static int aligned_comment(const char *t, size_t len) {
  size_t i = 0;
  if (len >= 4 && t[len - 1] == '\\') {
    i = len - 1;
  } else if (len >= 4 && !memcmp(t + len - 2, "*/", 2)) {
    for (i = len - 2; i > 2 && !(t[i] == '/' && t[i + 1] == '*'); i--) continue;
  }
  if (i < 3 || t[i - 1] != ' ' || t[i - 2] != ' ') return -1;
  size_t c = i;
  while (c > 0 && t[c - 1] == ' ') c--;
  return c > 0 ? (int)i : -1;
}

/* The column just after the last '(' of line t that the line leaves open,
 * or -1. */
static int open_paren(const char *t, size_t len) {
  int depth = 0;
  for (size_t i = len; i-- > 0;) {
    if (t[i] == ')') depth++;
    if (t[i] == '(' && depth-- == 0) return (int)i + 1;
  }
  return -1;
}

static size_t indent_of(const char *t, size_t len) {
  size_t i = 0;
  while (i < len && t[i] == ' ') i++;
  return i;
}

/* Line r (rendered from template line t) with the continuation the
 * template aligns with the previous line's open parenthesis (tcol there;
 * rcol in the rendered previous line) at that parenthesis again, where a
 * placeholder changed its column. */
static char *realign_continuation(const char *t, size_t tlen, char *r, int tcol, int rcol) {
  const size_t rlen = strlen(r);
  if (strchr(r, '\n') || tcol < 0 || rcol < 0 || indent_of(t, tlen) != (size_t)tcol ||
      indent_of(r, rlen) == (size_t)rcol)
    return r;
  return pool_printf("%*s%s", rcol, "", r + indent_of(r, rlen));
}

/* The column of line r's trailing comment or backslash, -1 if none. */
static int comment_col(const char *r) {
  if (strchr(r, '\n')) return -1;
  const size_t n = strlen(r);
  if (n && r[n - 1] == '\\') return (int)n - 1;
  const char *c = strstr(r, "/*"), *last = NULL;
  for (; c; c = strstr(c + 2, "/*")) last = c;
  return last ? (int)(last - r) : -1;
}

/* A run of lines whose trailing comments the template aligns, lines [a, b)
 * of r: where a placeholder changed the width of a line's code (filled[i]),
 * its comment goes back to the column of the others (the most common one
 * among lines without placeholders), or one space after its code. */
static void realign_comments(char **r, const int *filled, int a, int b) {
  int best = -1, best_n = 0;
  for (int i = a; i < b; i++) {
    int n = 0;
    if (filled[i]) continue;
    for (int j = a; j < b; j++) n += !filled[j] && comment_col(r[j]) == comment_col(r[i]);
    if (n > best_n) best = comment_col(r[i]), best_n = n;
  }
  if (best < 0) return;
  for (int i = a; i < b; i++) {
    const int col = comment_col(r[i]);
    if (!filled[i] || col == best) continue;
    int code = col;
    while (code > 0 && r[i][code - 1] == ' ') code--;
    r[i] = pool_printf("%.*s%*s%s", code, r[i], code + 1 < best ? best - code : 1, "", r[i] + col);
  }
}

char *tpl_render(const char *path, const TplVar *vars, int nvars) {
  const EmbeddedFile *f = tpl_file(path);
  int *used = pool_alloc(sizeof *used * (size_t)(nvars + 1));
  memset(used, 0, sizeof *used * (size_t)(nvars + 1));
  int nlines = 1;
  for (size_t i = 0; i < f->len; i++) nlines += f->data[i] == '\n';
  char **r = pool_alloc(sizeof *r * (size_t)nlines);
  int *filled = pool_alloc(sizeof *filled * (size_t)nlines), *aligned = pool_alloc(sizeof *aligned * (size_t)nlines);
  int tcol = -1, rcol = -1; /* the previous line's open parenthesis */
  size_t total = 0;
  int k = 0;
  for (size_t i = 0; i <= f->len; k++) {
    const char *t = f->data + i, *nl = i < f->len ? memchr(t, '\n', f->len - i) : NULL;
    const size_t tlen = nl ? (size_t)(nl - t) : f->len - i;
    r[k] = realign_continuation(t, tlen, render_line(path, t, tlen, vars, nvars, used), tcol, rcol);
    filled[k] = memchr(t, '@', tlen) != NULL;
    aligned[k] = aligned_comment(t, tlen) >= 0;
    const char *rl = strrchr(r[k], '\n');
    rl = rl ? rl + 1 : r[k];
    tcol = open_paren(t, tlen);
    rcol = tcol >= 0 ? open_paren(rl, strlen(rl)) : -1;
    i += tlen + 1;
  }
  for (int a = 0; a < k;) { /* runs of aligned trailing comments */
    int b = a;
    while (b < k && aligned[b]) b++;
    if (b > a) realign_comments(r, filled, a, b);
    a = b + 1;
  }
  for (int i = 0; i < k; i++) total += strlen(r[i]) + 1;
  char *out = pool_alloc(total + 1), *at = out;
  for (int i = 0; i < k; i++) at += sprintf(at, i + 1 < k ? "%s\n" : "%s", r[i]);
  for (int v = 0; v < nvars; v++)
    if (!used[v]) diag_internal("%s: value for @%s@ given but the template has no such placeholder", path, vars[v].key);
  return out;
}
