/* JSON reader (see json_read.h): recursive descent over the text. */
#include "json_read.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "diag.h"
#include "util.h"

typedef struct Reader {
  const char *p;       /* next character */
  const char *start;   /* the text, for line numbers */
  const char *origin;  /* file name for errors */
  int depth;           /* nesting, bounded */
} Reader;

static int line_of(const Reader *r) {
  int line = 1;
  for (const char *c = r->start; c < r->p; c++) line += *c == '\n';
  return line;
}

static int fail(Reader *r, const char *what) {
  return diag_error("%s:%d: invalid JSON: %s", r->origin, line_of(r), what);
}

static void skip_ws(Reader *r) {
  while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r') r->p++;
}

static int parse_value(Reader *r, JsonValue *v);

static int parse_string(Reader *r, const char **out) {
  if (*r->p != '"') return fail(r, "expected a string");
  r->p++;
  size_t cap = 16, n = 0;
  char *s = pool_alloc(cap);
  for (;;) {
    char c = *r->p++;
    if (!c) return fail(r, "unterminated string");
    if (c == '"') break;
    if (c == '\\') {
      char e = *r->p++;
      const char *map = "\"\"\\\\//b\bf\fn\nr\rt\t";
      const char *m = e ? strchr(map, e) : NULL;
      if (m && (m - map) % 2 == 0) {
        c = m[1];
      } else if (e == 'u') {
        unsigned x = 0;
        for (int i = 0; i < 4; i++) {
          if (!*r->p) return fail(r, "unterminated string");
          char h = *r->p++;
          x = x * 16 + (unsigned)(h >= '0' && h <= '9' ? h - '0' : (h | 32) >= 'a' && (h | 32) <= 'f' ? (h | 32) - 'a' + 10 : 99);
          if (x > 0xffff) return fail(r, "bad \\u escape");
        }
        if (x == 0 || x > 0x7f) return fail(r, "only ASCII \\u escapes are supported");
        c = (char)x;
      } else {
        return fail(r, "bad escape");
      }
    }
    if (n + 2 > cap) {
      s = pool_realloc(s, cap, cap * 2);
      cap *= 2;
    }
    s[n++] = c;
  }
  s[n] = 0;
  *out = s;
  return 0;
}

static int parse_items(Reader *r, JsonValue *v, int object) {
  const char close = object ? '}' : ']';
  int cap = 0;
  r->p++;
  skip_ws(r);
  if (*r->p == close) {
    r->p++;
    return 0;
  }
  for (;;) {
    JsonValue item;
    const char *key = NULL;
    skip_ws(r);
    if (object) {
      if (parse_string(r, &key)) return -1;
      skip_ws(r);
      if (*r->p++ != ':') return fail(r, "expected ':'");
    }
    if (parse_value(r, &item)) return -1;
    int n = v->n, kcap = cap;
    VEC_PUSH(v->items, v->n, cap, item);
    if (object) VEC_PUSH(v->keys, n, kcap, key);
    skip_ws(r);
    if (*r->p == ',') {
      r->p++;
      continue;
    }
    if (*r->p++ != close) return fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
    return 0;
  }
}

static int parse_value(Reader *r, JsonValue *v) {
  memset(v, 0, sizeof *v);
  skip_ws(r);
  if (++r->depth > 64) return fail(r, "nested too deeply");
  int st = 0;
  const char *p = r->p;
  if (*p == '{' || *p == '[') {
    v->kind = *p == '{' ? JV_OBJECT : JV_ARRAY;
    st = parse_items(r, v, *p == '{');
  } else if (*p == '"') {
    v->kind = JV_STRING;
    st = parse_string(r, &v->s);
  } else if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
    v->kind = JV_BOOL;
    v->b = *p == 't';
    r->p += v->b ? 4 : 5;
  } else if (!strncmp(p, "null", 4)) {
    v->kind = JV_NULL;
    r->p += 4;
  } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
    const char *e = p + 1;
    while ((*e >= '0' && *e <= '9') || *e == '.' || *e == 'e' || *e == 'E' || *e == '+' || *e == '-') e++;
    v->kind = JV_NUMBER;
    v->s = pool_printf("%.*s", (int)(e - p), p);
    r->p = e;
  } else {
    st = fail(r, "expected a value");
  }
  r->depth--;
  return st;
}

int json_parse(const char *text, const char *origin, JsonValue *out) {
  Reader r = {text, text, origin, 0};
  if (parse_value(&r, out)) return -1;
  skip_ws(&r);
  if (*r.p) return fail(&r, "text after the value");
  return 0;
}

int json_read_file(const char *path, JsonValue *out) {
  uint8_t *data;
  size_t len;
  if (read_file(path, &data, &len)) return diag_error("%s: cannot read: %s", path, strerror(errno));
  char *text = pool_alloc(len + 1);
  memcpy(text, data, len);
  if (memchr(text, 0, len)) return diag_error("%s: not a text file", path);
  return json_parse(text, path, out);
}
