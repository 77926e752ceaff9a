/* One tensor-array kernel as the lowering decided it, and its C printer.
 *
 * paddlec keeps a tensor array as one dense buffer of L elements of one
 * shape (array_len.h: L the length the compiler proved) and its run-time
 * length in the model (m->array_len[j], 0 at the start of every run): the
 * elements [0, length) are written.  write_to_array copies X into element
 * I, I at most the length (no gap) and below L, and grows the length past
 * it; read_from_array copies element I, below the length, to Out (or, past
 * it, zeros when the op has X_W, as Paddle's grad reading does);
 * lod_array_length writes the length; tensor_array_to_tensor lays the L
 * elements side by side at `axis` (concat and stack give the same bytes)
 * and writes each element's dim there into OutIndex, and its grad
 * (tensor_array_to_tensor_grad) splits a tensor of that layout back into
 * an array of as many elements as the joined one had.  An index outside
 * those bounds, or an array not of L elements when it is joined, stops the
 * run (the kernel returns 1).
 *
 * An array of elements whose rows vary (Var.arr_rows: LoD tensors, or
 * tensors of rows only the run knows) keeps each element's rows and LoD
 * (none: 0 offsets) in a slot beside it (runtime/rt_lod_array.h):
 * write_to_array copies X's rows only and puts its rows and LoD into the
 * slot of element I; read_from_array copies the element's rows, sets
 * Out's run-time rows and makes Out's LoD from the slot (an array of LoD
 * tensors, Var.arr_lod). */
#ifndef PADDLEC_OPS_ARRAY_CALL_H
#define PADDLEC_OPS_ARRAY_CALL_H

#include "ops.h"

typedef enum ArrayKind {
  ARRAY_WRITE,     /* arr[i[0]] = x */
  ARRAY_READ,      /* out = arr[i[0]] (zeros past the length when zero_past) */
  ARRAY_LENGTH,    /* out[0] = length */
  ARRAY_TO_TENSOR, /* out[o][l][k] = arr[l][o][k]; index[l] = dim */
  ARRAY_FROM_TENSOR, /* arr[l][o][k] = x[o][l][k] for the length of `src` (`src_len`) */
} ArrayKind;

typedef struct ArrayCall {
  ArrayKind kind;
  const char *type;   /* C element type of the array's elements */
  const char *arr;    /* the array's buffer: L elements of `numel` */
  const char *len;    /* its run-time length, an int64_t lvalue */
  int64_t cap;        /* L */
  const char *numel;  /* elements of one element */
  const char *i;      /* ARRAY_WRITE, ARRAY_READ: the int64 index tensor */
  const char *x;      /* ARRAY_WRITE: the element written */
  const char *out;    /* ARRAY_READ: the element read; ARRAY_LENGTH: int64 [1];
                       * ARRAY_TO_TENSOR: the joined tensor */
  int zero_past;      /* ARRAY_READ: zeros past the length instead of a fault */
  const char *outer;  /* ARRAY_TO_TENSOR: the product of the element's dims
                       * before axis, */
  const char *inner;  /* and from axis on */
  const char *index;  /* OutIndex, int32 [L], or NULL */
  const char *index_dim; /* what each OutIndex entry holds */
  const char *dim;    /* the element's dim at axis (concat), 1 (stack) */
  int bounded;        /* L is a bound: join the run's length (1 to L) of elements, */
  const char *extent; /* and set Out's run-time extent at axis, */
  const char *index_extent; /* and OutIndex's, or NULL */
  const char *src_len; /* ARRAY_FROM_TENSOR: the run-time length of the array
                        * joined into x (the length arr takes); with
                        * `bounded`, 1 to L, else L */
  /* ARRAY_WRITE into, ARRAY_READ from an array of LoD tensors (slots not
   * NULL): */
  const char *slots;    /* its slots (int64_t *), */
  const char *slot_cap; /* the offsets a level of one holds, */
  const char *rows;     /* X's rows (at most elem_rows, else the run stops);
                         * ARRAY_READ: Out's run-time rows, an lvalue, */
  const char *elem_rows; /* the rows an element has room for, */
  const char *row_numel; /* and elements a row; */
  int lod;              /* the LoD X carries (m->lod[lod], -1: none); ARRAY_READ:
                         * the LoD Out carries, which the kernel makes, */
  int lod_outer;        /* 1: with a level 0 (m->lod_outer[lod]) */
  const char *made_rows;  /* ARRAY_READ: where its offsets go (em_makes_lod; NULL: none), */
  const char *made_outer; /* and those of its level 0 (NULL: one level), */
  const char *made_room;  /* the offsets each level has room for */
} ArrayCall;

void array_print_c(Printer *p, const ArrayCall *c);

#endif
