/* Runs a model compiled with `paddlec compile ... --name net
 * --embed-weights --blas=none` on a firmware target: the weights are in
 * flash, activations in one static arena given to net_init, so nothing is
 * allocated and no file is read.  The inputs come from FW_INPUT (the
 * batch FW_BATCH and one array per feed, in feed order, see mlp_input.h and make_input.py);
 * every output element is printed as its bits in hex (a float's exact
 * value), one output per line, so that a host build of the same program
 * (host_port.c) can be compared bit for bit.  Output and exit go through
 * fw_port.h (startup.c: semihosting).  No printf: of the C library, this
 * file uses memcpy. */
#include <stdint.h>
#include <string.h>

#include "fw_port.h"
#ifndef FW_INPUT
#define FW_INPUT "mlp_input.h" /* -DFW_INPUT=\"other.h\" for another model's inputs */
#endif
#include FW_INPUT
#include "net.h"

#ifndef FW_OUT_BYTES
#define FW_OUT_BYTES 4096 /* room for all outputs of one run */
#endif

static unsigned char arena[NET_ARENA_BYTES(FW_BATCH)] __attribute__((aligned(64)));
static uint64_t out_words[FW_OUT_BYTES / 8];
static net_model model;
static char line[96];
static int len;

static void flush(void) {
  line[len] = 0;
  fw_puts(line);
  len = 0;
}

static void put(const char *s) {
  for (; *s; s++) {
    if (len == (int)sizeof line - 1) flush();
    line[len++] = *s;
  }
}

static void put_hex(uint64_t v, int digits) {
  char b[17];
  for (int i = digits - 1; i >= 0; i--, v >>= 4) b[i] = "0123456789abcdef"[v & 15];
  b[digits] = 0;
  put(b);
}

static void put_dec(uint64_t v) {
  char b[21];
  int i = 20;
  b[i] = 0;
  do b[--i] = (char)('0' + v % 10); while ((v /= 10) != 0);
  put(b + i);
}

static int fail(const char *what, int st) {
  put(what);
  put(": ");
  put(net_strerror(st));
  put(" (");
  put(net_last_error(&model));
  put(")\n");
  flush();
  return 1;
}

int main(void) {
  int st = net_init(&model, arena, sizeof arena, NULL, 0);
  if (st) return fail("init", st);
  void *outputs[NET_NUM_OUTPUTS];
  size_t elem[NET_NUM_OUTPUTS], count[NET_NUM_OUTPUTS], used = 0;
  for (int i = 0; i < NET_NUM_OUTPUTS; i++) {
    int64_t dims[8];
    const int dt = net_output_dtype(i);
    elem[i] = dt == 0 ? 1 : dt == 3 || dt == 6 ? 8 : 4; /* bool, int64/float64, 32 bits */
    count[i] = (size_t)net_output_shape(i, FW_BATCH, dims);
    outputs[i] = (unsigned char *)out_words + used;
    used += (count[i] * elem[i] + 7) / 8 * 8;
    if (used > sizeof out_words) return fail("outputs larger than FW_OUT_BYTES", 0);
  }
  st = net_run(&model, FW_BATCH, fw_inputs, outputs);
  if (st) return fail("run", st);
  put("arena ");
  put_dec(sizeof arena);
  put(" bytes, batch ");
  put_dec(FW_BATCH);
  put("\n");
  flush();
  for (int i = 0; i < NET_NUM_OUTPUTS; i++) {
    put(net_output_name(i));
    put(":");
    for (size_t k = 0; k < count[i]; k++) {
      const unsigned char *p = (const unsigned char *)outputs[i] + k * elem[i];
      uint64_t v = 0;
      if (elem[i] == 8) memcpy(&v, p, 8);
      else if (elem[i] == 4) {
        uint32_t w;
        memcpy(&w, p, 4);
        v = w;
      } else v = *p;
      put(" ");
      put_hex(v, (int)elem[i] * 2);
    }
    put("\n");
    flush();
  }
  return 0;
}
