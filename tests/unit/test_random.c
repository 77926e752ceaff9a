/* Unit tests of runtime/rt_random.h against libstdc++'s std::mt19937_64,
 * std::seed_seq, uniform_real_distribution and normal_distribution: the
 * C++ standard's check value, and values and checksums that g++ 12
 * (libstdc++) printed for the same draws. */
#include <string.h>

#include "rt_random.h"
#include "unit.h"

void test_random_engine(void);
void test_random_distributions(void);
void test_random_truncated(void);

void test_random_engine(void) {
  RtMt mt;
  /* [rand.predef]: the 10000th output of a default-constructed engine */
  rt_mt_seed(&mt, RT_MT_DEFAULT_SEED);
  for (int i = 0; i < 9999; i++) rt_mt_next(&mt);
  CHECK(rt_mt_next(&mt) == 9981545732273789042ull);
  /* std::seed_seq q({2024ull}); std::mt19937_64 e(q); e(), e(), e() */
  rt_mt_seed_seq(&mt, 2024);
  CHECK(rt_mt_next(&mt) == 17308793208366105155ull);
  CHECK(rt_mt_next(&mt) == 4364465092545891450ull);
  CHECK(rt_mt_next(&mt) == 1876797514937422172ull);
  /* seed_seq keeps the low 32 bits */
  rt_mt_seed_seq(&mt, 2024 + (1ull << 32));
  CHECK(rt_mt_next(&mt) == 17308793208366105155ull);
}

/* FNV-1a over the bits of 1001 draws of each distribution in turn from one
 * engine, then one more engine output (as in the C++ that made the
 * expected values). */
static uint64_t draws_hash(uint64_t seed, int seq) {
  RtMt e;
  RtNormal nf, nd;
  uint64_t h = 1469598103934665603ull;
#define MIX(v) (h ^= (v), h *= 1099511628211ull)
  if (seq) rt_mt_seed_seq(&e, seed);
  else rt_mt_seed(&e, seed);
  rt_normal_init(&nf);
  rt_normal_init(&nd);
  for (int i = 0; i < 1001; i++) {
    float f = rt_uniform_f32(&e, -0.3f, 2.5f);
    uint32_t b;
    memcpy(&b, &f, 4);
    MIX(b);
  }
  for (int i = 0; i < 1001; i++) {
    double f = rt_uniform_f64(&e, -0.3, 2.5);
    uint64_t b;
    memcpy(&b, &f, 8);
    MIX(b);
  }
  for (int i = 0; i < 1001; i++) {
    float f = rt_normal_f32(&nf, &e, 0.5f, 1.7f);
    uint32_t b;
    memcpy(&b, &f, 4);
    MIX(b);
  }
  for (int i = 0; i < 1001; i++) {
    double f = rt_normal_f64(&nd, &e, 0.5, 1.7);
    uint64_t b;
    memcpy(&b, &f, 8);
    MIX(b);
  }
  MIX(rt_mt_next(&e));
#undef MIX
  return h;
}

void test_random_distributions(void) {
  RtMt mt;
  RtNormal nd;
  /* e.seed(7); uniform_real_distribution<float>(0, 1) x3, then
   * normal_distribution<double>(0, 1) x3 from the same engine */
  rt_mt_seed(&mt, 7);
  CHECK(rt_uniform_f32(&mt, 0.0f, 1.0f) == 0x1.823ecap-1f);
  CHECK(rt_uniform_f32(&mt, 0.0f, 1.0f) == 0x1.e60acep-1f);
  CHECK(rt_uniform_f32(&mt, 0.0f, 1.0f) == 0x1.e0edccp-4f);
  rt_normal_init(&nd);
  CHECK(rt_normal_f64(&nd, &mt, 0.0, 1.0) == -0x1.0e889b8d180f6p-2);
  CHECK(rt_normal_f64(&nd, &mt, 0.0, 1.0) == 0x1.be67796b4c287p-2);
  CHECK(rt_normal_f64(&nd, &mt, 0.0, 1.0) == 0x1.eb6fd76923316p-1);
  /* uniform f32, f64, normal f32, f64 (mean 0.5, std 1.7), integer and
   * seed_seq seeding */
  CHECK(draws_hash(1, 0) == 7131676278466316321ull);
  CHECK(draws_hash(1, 1) == 10306942870266144111ull);
  CHECK(draws_hash(42, 0) == 5668305565348603075ull);
  CHECK(draws_hash(42, 1) == 2173809660243204594ull);
  CHECK(draws_hash(0, 1) == 17201498603150062102ull);
  CHECK(draws_hash((uint64_t)-7, 0) == 9218591036515991792ull);
}

/* Paddle 2.6's truncated normal (from a C++ copy of its kernel, checked
 * against paddlepaddle 2.6.2 on 20000 draws): seed 7, the central and the
 * tail branch of Erfinv (|value| > 1.44). */
void test_random_truncated(void) {
  RtMt mt;
  float f[3];
  double d[3];
  rt_mt_seed(&mt, 7);
  rt_fill_truncated_normal_f32(&mt, f, 3, 0.0f, 1.0f);
  CHECK(f[0] == 0x1.4dd788p-1f && f[1] == 0x1.77a36ep+0f && f[2] == -0x1.1a980cp+0f);
  rt_mt_seed(&mt, 7);
  rt_fill_truncated_normal_f64(&mt, d, 3, 0.5, 2.0);
  CHECK(d[0] == 0x1.cdd788593a105p+0 && d[1] == 0x1.b7a36fd109dafp+1 && d[2] == -0x1.b53019e4300b2p+0);
}
