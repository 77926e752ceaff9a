/* Size classes: a model whose feeds have dims the run gives and no bound
 * (issue 19 item 1: -1 dims but the batch that neither --shape nor
 * --max-shape names).
 *
 * The program is specialized, planned and emitted once per class, each a
 * bound on those dims (32, 64, ... 16384, the classes it compiles for; an
 * image's height and width bounded apart, in pairs of those bounds up to 4
 * times each other, planned with one packing);
 * the kernels' code must come out the same in every class (the kernels
 * read the run's sizes, never a bound), and what differs between classes
 * (where each arena buffer and scratch region starts, the bytes of the
 * tensors and of a scratch slot, the outputs' bounds) becomes one table
 * row per class.  A run takes the class of least area whose bounds hold
 * every such dim it is given (set_input_dims), and its memory for that class:
 * the model's own memory grows when a run needs more (a model on an arena
 * given to init refuses the run instead, naming the bytes it needs). */
#ifndef PADDLEC_SIZE_CLASS_H
#define PADDLEC_SIZE_CLASS_H

#include "codegen.h"
#include "codegen_model.h"
#include "codegen_plan.h"
#include "scratch.h"

/* The feeds with dims the run gives that no --shape or --max-shape names
 * (not for a trainer): *o gets a --max-shape list with one more entry for
 * each (its unknown dims but the batch set to each class's bound as it is
 * tried) and size_classes 1.  Returns how many (0: o unchanged). */
int size_class_feeds(const Graph *g, CompileOpts *o);

/* Specializes, plans and emits g (its passes run) for every class that
 * compiles, checks that the kernels' text is the same in each, and fills
 * mt with the model planned for all of them; *spec and *plan get the
 * smallest class's (the graph is left specialized for it).  Returns 0 or
 * -1 (errors printed). */
int size_class_emit(Graph *g, const CompileOpts *o, const char *passes, ModelText *mt, Spec **spec, Plan **plan);

#endif
