/* A small JSON reader for option files (--build-strategy-file): objects,
 * arrays, strings (with the usual escapes; \u only for ASCII), numbers
 * (kept as their text), true, false, null.  Everything lives in the pool. */
#ifndef PADDLEC_JSON_READ_H
#define PADDLEC_JSON_READ_H

typedef enum JsonKind { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT } JsonKind;

typedef struct JsonValue {
  JsonKind kind;              /* what it is */
  int b;                      /* JV_BOOL */
  const char *s;              /* JV_STRING: the string; JV_NUMBER: its text */
  int n;                      /* JV_ARRAY / JV_OBJECT: element count */
  struct JsonValue *items;    /* the elements (object: the values) */
  const char **keys;          /* JV_OBJECT: the keys */
} JsonValue;

/* Parses text; errors name `origin` and the line.  Returns 0 or -1. */
int json_parse(const char *text, const char *origin, JsonValue *out);
/* Reads and parses a file.  Returns 0 or -1 (error printed). */
int json_read_file(const char *path, JsonValue *out);

#endif
