/* Specialization: the concrete shapes code generation works with.
 *
 * Unknown dims of a saved program are almost always the batch.  paddlec keeps
 * the batch a run-time value B: it infers every shape with B = 1, 2, 3 and 8
 * and requires each dim to be affine in B (d = a*B + c), which is what lets
 * generated code size buffers and loops from B alone.  Other unknown dims
 * (image height, sequence length) must be fixed with --shape, or bounded
 * with --max-shape: the feed's then take the fed array's at run time
 * (run-time extents, d[] holding the bound); `--shape` may also fix the
 * batch. */
#ifndef PADDLEC_SPEC_H
#define PADDLEC_SPEC_H

#include "graph.h"

/* One dim as a function of the batch: a*B + c. */
typedef struct SymDim {
  int64_t a; /* coefficient of B */
  int64_t c; /* constant part */
} SymDim;

typedef struct VarSpec {
  int known;                /* shapes below are valid */
  int rank;                 /* number of dims */
  SymDim d[RT_MAX_RANK];    /* each dim in B */
  /* 1 + the dim whose extent is known only at run time (VAR_RUNTIME_EXTENT;
   * d[] holds its bound, which sizes the tensor), 0 when none; the
   * producer writes the extent into the model's runtime_dims[runtime_slot] */
  int runtime_dim;
  int runtime_slot;
  /* every dim known only at run time (bit d; runtime_dim's and
   * Var.runtime_more's), each with its slot in runtime_dims[] */
  unsigned runtime_mask;
  int runtime_slots[RT_MAX_RANK];
} VarSpec;

typedef struct Spec {
  int symbolic_batch; /* 1 when some dim depends on B */
  VarSpec *vars;      /* per var id */
  int nruntime_dims;  /* run-time extents: the model's runtime_dims[] */
} Spec;

/* Builds the specialization from the --shape options (args) and the
 * --max-shape ones the caller put in Graph.max_shapes (bounds of tensors
 * whose dims the run gives, for the ops that take one, OpDef.max_shape; an
 * option that bounded nothing is an error); prints every problem and
 * returns -1 on any. */
int spec_build(Graph *g, const ShapeArg *args, int nargs, Spec *s);
/* Parses "name=d0,d1,..." (the value of option `opt`: --shape,
 * --max-shape) into a ShapeArg; -1 with an error printed.  --shape's d0
 * may be -1: the batch stays the run's. */
int spec_parse_shape_arg(const char *opt, const char *text, ShapeArg *out);
/* Value of a dim at batch B. */
static inline int64_t symdim_at(SymDim d, int64_t b) { return d.a * b + d.c; }
/* Number of elements of a var as a*B + c, or {-1,-1} when not affine (a
 * product with two B-dependent dims). */
SymDim spec_numel(const VarSpec *v);
/* The same for the product of dims [from, to). */
SymDim spec_prod(const VarSpec *v, int from, int to);

#endif
