/* A minimal JSON writer: the caller writes structure, this escapes strings
 * and tracks commas. */
#ifndef PADDLEC_JSON_H
#define PADDLEC_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "graph.h"

typedef struct Json {
  FILE *f;        /* destination */
  int depth;      /* nesting level */
  int first[64];  /* per level: no element written yet */
} Json;

void json_begin(Json *j, FILE *f);
void json_obj(Json *j, const char *key);   /* opens {; key NULL inside arrays */
void json_arr(Json *j, const char *key);   /* opens [ */
void json_end_obj(Json *j);
void json_end_arr(Json *j);
void json_str(Json *j, const char *key, const char *v); /* v NULL writes null */
void json_int(Json *j, const char *key, int64_t v);
void json_bool(Json *j, const char *key, int v);
void json_shape(Json *j, const char *key, const Shape *s); /* null if rank < 0 */
void json_finish(Json *j);

#endif
