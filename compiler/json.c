/* Minimal JSON writer (see json.h). */
#include "json.h"

static void put_string(FILE *f, const char *v) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p == '\n') fputs("\\n", f);
    else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
    else fputc(*p, f);
  }
  fputc('"', f);
}

static void sep(Json *j, const char *key) {
  if (!j->first[j->depth]) fputc(',', j->f);
  j->first[j->depth] = 0;
  if (key) {
    put_string(j->f, key);
    fputc(':', j->f);
  }
}

static void open(Json *j, const char *key, char c) {
  sep(j, key);
  fputc(c, j->f);
  if (j->depth < 63) j->depth++;
  j->first[j->depth] = 1;
}

void json_begin(Json *j, FILE *f) {
  j->f = f;
  j->depth = 0;
  j->first[0] = 1;
}

void json_obj(Json *j, const char *key) { open(j, key, '{'); }
void json_arr(Json *j, const char *key) { open(j, key, '['); }
void json_end_obj(Json *j) { j->depth--; fputc('}', j->f); }
void json_end_arr(Json *j) { j->depth--; fputc(']', j->f); }

void json_str(Json *j, const char *key, const char *v) {
  sep(j, key);
  if (v) put_string(j->f, v);
  else fputs("null", j->f);
}

void json_int(Json *j, const char *key, int64_t v) {
  sep(j, key);
  fprintf(j->f, "%lld", (long long)v);
}

void json_bool(Json *j, const char *key, int v) {
  sep(j, key);
  fputs(v ? "true" : "false", j->f);
}

void json_shape(Json *j, const char *key, const Shape *s) {
  if (s->rank < 0) {
    sep(j, key);
    fputs("null", j->f);
    return;
  }
  json_arr(j, key);
  for (int i = 0; i < s->rank; i++) json_int(j, NULL, s->d[i]);
  json_end_arr(j);
}

void json_finish(Json *j) { fputc('\n', j->f); }
