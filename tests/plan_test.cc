// Plans (sk_plan_*): every plan function against its one-shot twin on
// random cases of every target, the same bits and the same errors (kind and
// message), executed on the pointers the one-shot call saw and on copies at
// other addresses (16-byte offsets); inputs in their own regions, overlapping
// out, or out itself; then what a plan keeps (its target), what it checks
// when it runs (NULL data, integer zero divisors with out untouched), and
// 8 threads executing one plan at once (the TSan stage runs this too).
#include "stridekit/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "equivalence.h"
#include "random_views.h"
#include "stridekit/dtype.h"
#include "stridekit/stridekit.h"
#include "stridekit/targets.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::Describe;
using testing::ViewGenerator;

// The kernels a case may call.
enum class Kernel {
  kCopy,
  kFill,
  kCast,
  kBinary,
  kUnary,
  kCompare,
  kWhere,
  kReduce,
  kArgReduce,
  kScan,
  kEinsum
};
constexpr int kNumKernels = 11;

// One call: its views, where they live in one arena (byte offsets of each
// operand's element 0), and how to make its plan and its one-shot call.
struct Case {
  Kernel kernel;
  sk_dtype t = SK_FLOAT32, t2 = SK_FLOAT32;
  int32_t op = 0;
  std::vector<sk_view> inputs;
  sk_view out{};
  std::vector<int32_t> axes;
  int32_t axis = 0;
  const char* spec = "";
  unsigned char fill[16] = {};
  bool has_fill = false;
  std::vector<int64_t> input_base;  // Byte offset of each input's element 0.
  int64_t out_base = 0;
  size_t arena_bytes = 0;
  std::string text;
};

struct Outcome {
  sk_status status = SK_OK;
  std::string message;
  std::vector<unsigned char> arena;
  bool operator==(const Outcome&) const = default;
};

constexpr sk_dtype kNumeric[] = {
    SK_BOOL,     SK_INT8,    SK_UINT8,   SK_INT16,     SK_UINT16,
    SK_INT32,    SK_UINT32,  SK_INT64,   SK_UINT64,    SK_FLOAT16,
    SK_BFLOAT16, SK_FLOAT32, SK_FLOAT64, SK_COMPLEX64, SK_COMPLEX128};

size_t SizeOf(sk_dtype t) { return DTypeSize(DType(t)); }

// Places a view of `shape` (elements of `size` bytes) at a random place:
// after everything so far, inside out's bytes, or (when `may_alias`) as
// out itself; returns its base in bytes.
int64_t Place(ViewGenerator& gen, const std::vector<int64_t>& shape,
              size_t size, Case& c, sk_view& v, int64_t& end_bytes,
              bool may_alias) {
  const int64_t kind = gen.Uniform(0, 99);
  if (may_alias && kind < 10 && v.ndim == c.out.ndim) {
    v = c.out;
    return c.out_base;
  }
  const bool overlap = kind < 25;
  const int64_t start =
      overlap ? gen.Uniform(0, std::max<int64_t>(end_bytes, 1)) : end_bytes;
  // Element offsets from a base aligned to the element size.
  const int64_t base = (start + int64_t(size) - 1) / int64_t(size);
  const int64_t end = gen.Layout(shape, 0, v);
  if (gen.Chance(15)) gen.Mask(v);
  end_bytes = std::max(end_bytes, (base + end) * int64_t(size));
  return base * int64_t(size);
}

Case RandomCase(ViewGenerator& gen) {
  Case c;
  c.kernel = Kernel(gen.Uniform(0, kNumKernels - 1));
  c.t = kNumeric[gen.Uniform(0, std::size(kNumeric) - 1)];
  c.t2 = c.t;
  auto shape = gen.Shape(int(gen.Uniform(0, 4)), 600);
  int num_inputs = 1;
  size_t out_size = SizeOf(c.t);
  std::vector<size_t> in_size(3, SizeOf(c.t));
  std::vector<std::vector<int64_t>> in_shape(3, shape);
  bool broadcast = true;
  switch (c.kernel) {
    case Kernel::kCopy:
      c.has_fill = gen.Chance(50);
      for (auto& b : c.fill)
        b = static_cast<unsigned char>(gen.Uniform(0, 255));
      break;
    case Kernel::kFill:
      num_inputs = 0;
      break;
    case Kernel::kCast:
      c.t2 = kNumeric[gen.Uniform(0, std::size(kNumeric) - 1)];
      out_size = SizeOf(c.t2);
      break;
    case Kernel::kBinary:
      c.op = int32_t(gen.Uniform(0, 12));
      num_inputs = 2;
      break;
    case Kernel::kUnary:
      c.op = int32_t(gen.Uniform(0, 19));
      // The predicates write bools.
      if (c.op >= SK_ISNAN && c.op <= SK_ISFINITE) out_size = 1;
      break;
    case Kernel::kCompare:
      c.op = int32_t(gen.Uniform(0, 5));
      num_inputs = 2;
      out_size = 1;
      break;
    case Kernel::kWhere:
      num_inputs = 3;
      in_size[0] = 1;
      break;
    case Kernel::kReduce:
    case Kernel::kArgReduce:
    case Kernel::kScan: {
      broadcast = false;
      c.op = int32_t(gen.Uniform(0, c.kernel == Kernel::kReduce ? 5 : 1));
      const int rank = int(shape.size());
      c.axis = int32_t(gen.Uniform(-rank - 1, rank));
      std::vector<int64_t> out_shape;
      if (c.kernel == Kernel::kScan) {
        out_shape = shape;
      } else if (c.kernel == Kernel::kArgReduce) {
        out_size = 8;
        const int a = c.axis < 0 ? c.axis + rank : c.axis;
        for (int d = 0; d < rank; ++d) {
          if (d != a) out_shape.push_back(shape[size_t(d)]);
        }
      } else {
        for (int d = 0; d < rank; ++d) {
          if (gen.Chance(50)) c.axes.push_back(d - (gen.Chance(30) ? rank : 0));
        }
        const bool keep = gen.Chance(30);
        for (int d = 0; d < rank; ++d) {
          const bool reduced =
              std::count(c.axes.begin(), c.axes.end(), d) +
                  std::count(c.axes.begin(), c.axes.end(), d - rank) >
              0;
          if (!reduced || keep) out_shape.push_back(reduced ? 1 : shape[d]);
        }
        if (c.op == SK_MEAN)
          c.t = c.t2;  // Only floats accept it; else an error.
      }
      in_shape[0] = shape;
      shape = out_shape;
      break;
    }
    case Kernel::kEinsum: {
      broadcast = false;
      static const char* const kSpecs[] = {
          "ij,jk->ik", "ij->ji",       "ii->i",  "i,i->",
          "ij->",      "bij,bjk->bik", "i,j->ij"};
      c.spec = kSpecs[gen.Uniform(0, std::size(kSpecs) - 1)];
      const int64_t i = gen.Uniform(0, 9), j = gen.Uniform(1, 9),
                    k = gen.Uniform(1, 9), b = gen.Uniform(1, 3);
      const std::string spec = c.spec;
      if (spec == "ij,jk->ik") in_shape = {{i, j}, {j, k}}, shape = {i, k};
      if (spec == "ij->ji") in_shape = {{i, j}}, shape = {j, i};
      if (spec == "ii->i") in_shape = {{i, i}}, shape = {i};
      if (spec == "i,i->") in_shape = {{i}, {i}}, shape = {};
      if (spec == "ij->") in_shape = {{i, j}}, shape = {};
      if (spec == "bij,bjk->bik") {
        in_shape = {{b, i, j}, {b, j, k}}, shape = {b, i, k};
      }
      if (spec == "i,j->ij") in_shape = {{i}, {j}}, shape = {i, j};
      num_inputs = int(in_shape.size());
      break;
    }
  }
  int64_t end_bytes = 0;
  c.out_base = Place(gen, shape, out_size, c, c.out, end_bytes, false);
  if (gen.Chance(10)) gen.Mask(c.out);
  c.inputs.resize(size_t(num_inputs));
  c.input_base.resize(size_t(num_inputs));
  for (int i = 0; i < num_inputs; ++i) {
    auto s = in_shape[size_t(i)];
    if (broadcast && gen.Chance(30)) s = gen.BroadcastSource(shape);
    sk_view& v = c.inputs[size_t(i)];
    v.ndim = int32_t(s.size());
    c.input_base[size_t(i)] =
        Place(gen, s, in_size[size_t(i)], c, v, end_bytes,
              in_size[size_t(i)] == out_size && broadcast);
  }
  c.arena_bytes = size_t(end_bytes) + 16;
  std::ostringstream text;
  text << "kernel " << int(c.kernel) << " op " << c.op << " dtype " << c.t
       << "->" << c.t2 << " spec " << c.spec << "\nout " << Describe(c.out)
       << " at " << c.out_base;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    text << "\nin" << i << " " << Describe(c.inputs[i]) << " at "
         << c.input_base[i];
  }
  c.text = text.str();
  return c;
}

// Pointers into an arena placed at `at` for the case's operands.
struct Pointers {
  std::vector<const void*> in;
  void* out;
};
Pointers PointersAt(const Case& c, unsigned char* at) {
  Pointers p{{}, at + c.out_base};
  for (int64_t base : c.input_base) p.in.push_back(at + base);
  return p;
}

sk_status OneShot(const Case& c, const Pointers& p) {
  const sk_view* in[3] = {};
  for (size_t i = 0; i < c.inputs.size(); ++i) in[i] = &c.inputs[i];
  switch (c.kernel) {
    case Kernel::kCopy:
      return sk_copy(c.t, in[0], p.in[0], &c.out, p.out,
                     c.has_fill ? c.fill : nullptr);
    case Kernel::kFill:
      return sk_fill(c.t, &c.out, p.out, c.fill);
    case Kernel::kCast:
      return sk_cast(c.t, in[0], p.in[0], c.t2, &c.out, p.out);
    case Kernel::kBinary:
      return sk_binary(sk_binary_op(c.op), c.t, in[0], p.in[0], in[1], p.in[1],
                       &c.out, p.out);
    case Kernel::kUnary:
      return sk_unary(sk_unary_op(c.op), c.t, in[0], p.in[0], &c.out, p.out);
    case Kernel::kCompare:
      return sk_compare(sk_compare_op(c.op), c.t, in[0], p.in[0], in[1],
                        p.in[1], &c.out, p.out);
    case Kernel::kWhere:
      return sk_where(c.t, in[0], p.in[0], in[1], p.in[1], in[2], p.in[2],
                      &c.out, p.out);
    case Kernel::kReduce:
      return sk_reduce(sk_reduce_op(c.op), c.t, in[0], p.in[0],
                       int32_t(c.axes.size()), c.axes.data(), &c.out, p.out);
    case Kernel::kArgReduce:
      return sk_arg_reduce(sk_arg_op(c.op), c.t, in[0], p.in[0], c.axis, &c.out,
                           p.out);
    case Kernel::kScan:
      return sk_scan(sk_scan_op(c.op), c.t, in[0], p.in[0], c.axis, &c.out,
                     p.out);
    case Kernel::kEinsum:
      return sk_einsum(c.spec, c.t, int32_t(c.inputs.size()), in, p.in.data(),
                       &c.out, p.out);
  }
  return SK_ERR_INVALID;
}

sk_status MakePlan(const Case& c, sk_plan** plan) {
  const sk_view* in[3] = {};
  for (size_t i = 0; i < c.inputs.size(); ++i) in[i] = &c.inputs[i];
  switch (c.kernel) {
    case Kernel::kCopy:
      return sk_plan_copy(c.t, in[0], &c.out, c.has_fill ? c.fill : nullptr,
                          plan);
    case Kernel::kFill:
      return sk_plan_fill(c.t, &c.out, plan);
    case Kernel::kCast:
      return sk_plan_cast(c.t, in[0], c.t2, &c.out, plan);
    case Kernel::kBinary:
      return sk_plan_binary(sk_binary_op(c.op), c.t, in[0], in[1], &c.out,
                            plan);
    case Kernel::kUnary:
      return sk_plan_unary(sk_unary_op(c.op), c.t, in[0], &c.out, plan);
    case Kernel::kCompare:
      return sk_plan_compare(sk_compare_op(c.op), c.t, in[0], in[1], &c.out,
                             plan);
    case Kernel::kWhere:
      return sk_plan_where(c.t, in[0], in[1], in[2], &c.out, plan);
    case Kernel::kReduce:
      return sk_plan_reduce(sk_reduce_op(c.op), c.t, in[0],
                            int32_t(c.axes.size()), c.axes.data(), &c.out,
                            plan);
    case Kernel::kArgReduce:
      return sk_plan_arg_reduce(sk_arg_op(c.op), c.t, in[0], c.axis, &c.out,
                                plan);
    case Kernel::kScan:
      return sk_plan_scan(sk_scan_op(c.op), c.t, in[0], c.axis, &c.out, plan);
    case Kernel::kEinsum:
      return sk_plan_einsum(c.spec, c.t, int32_t(c.inputs.size()), in, &c.out,
                            plan);
  }
  return SK_ERR_INVALID;
}

// Runs `call` on a copy of `arena` placed `misalign` bytes past a 64-byte
// boundary and returns the status, message and the arena afterwards.
Outcome RunOn(const std::vector<unsigned char>& arena, size_t misalign,
              const std::function<sk_status(unsigned char*)>& call) {
  std::vector<unsigned char> storage(arena.size() + 128);
  const uintptr_t at = reinterpret_cast<uintptr_t>(storage.data());
  unsigned char* base = storage.data() + (64 - at % 64) % 64 + misalign;
  std::copy(arena.begin(), arena.end(), base);
  Outcome o;
  o.status = call(base);
  if (o.status != SK_OK) o.message = sk_last_error();
  o.arena.assign(base, base + arena.size());
  return o;
}

// Every target's plans against its one-shot calls.
TEST(Plan, EveryKernelMatchesItsOneShotCall) {
  ViewGenerator gen(20261128);
  const int trials = testing::Trials(4000);
  int planned = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const Case c = RandomCase(gen);
    std::vector<unsigned char> arena(c.arena_bytes);
    gen.Randomize(arena);
    for (const std::string& target : testing::TestedTargets()) {
      ForceTarget(target);
      SCOPED_TRACE("target " + target + " trial " + std::to_string(trial) +
                   "\n" + c.text);
      const Outcome want = RunOn(arena, 0, [&](unsigned char* at) {
        return OneShot(c, PointersAt(c, at));
      });
      sk_plan* plan = nullptr;
      const sk_status made = MakePlan(c, &plan);
      if (made != SK_OK) {
        // A bad layout fails at creation exactly as the call fails.
        ASSERT_EQ(plan, nullptr);
        EXPECT_EQ(made, want.status);
        EXPECT_EQ(std::string(sk_last_error()), want.message);
        continue;
      }
      ++planned;
      ASSERT_EQ(sk_plan_inputs(plan),
                int32_t(c.inputs.size()) + (c.kernel == Kernel::kFill ? 1 : 0));
      for (size_t misalign : {size_t{0}, size_t{16}, size_t{0}}) {
        const Outcome got = RunOn(arena, misalign, [&](unsigned char* at) {
          Pointers p = PointersAt(c, at);
          if (c.kernel == Kernel::kFill) p.in = {c.fill};
          return sk_plan_execute(plan, p.in.data(), p.out);
        });
        ASSERT_EQ(got.status, want.status) << got.message;
        ASSERT_EQ(got.message, want.message);
        ASSERT_TRUE(got.arena == want.arena)
            << "bytes differ, misalign " << misalign << "\n"
            << sk_plan_describe(plan);
      }
      sk_plan_free(plan);
    }
  }
  ResetTarget();
  EXPECT_GT(planned, trials / 4);
}

sk_view Vector(int64_t n) {
  sk_view v{};
  v.ndim = 1;
  v.shape[0] = n;
  v.strides[0] = 1;
  return v;
}

TEST(Plan, KeepsTheTargetItWasMadeOn) {
  const std::vector<std::string>& targets = testing::TestedTargets();
  const sk_view v = Vector(33);
  std::vector<float> a(33, 1.5f), b(33, 2.0f), out(33);
  const void* in[2] = {a.data(), b.data()};
  for (const std::string& target : targets) {
    ForceTarget(target);
    sk_plan* plan = nullptr;
    ASSERT_EQ(sk_plan_binary(SK_ADD, SK_FLOAT32, &v, &v, &v, &plan), SK_OK);
    EXPECT_NE(std::string(sk_plan_describe(plan)).find("target " + target),
              std::string::npos)
        << sk_plan_describe(plan);
    // Another target forced later does not change the plan.
    ForceTarget(targets.back() == target ? targets.front() : targets.back());
    ClearLastKernelTarget();
    ASSERT_EQ(sk_plan_execute(plan, in, out.data()), SK_OK);
    EXPECT_EQ(LastKernelTarget(), target);
    EXPECT_EQ(out[32], 3.5f);
    sk_plan_free(plan);
  }
  ResetTarget();
}

TEST(Plan, ChecksPointersAndDataWhenItRuns) {
  const sk_view v = Vector(4);
  sk_plan* plan = nullptr;
  ASSERT_EQ(sk_plan_binary(SK_DIV, SK_INT32, &v, &v, &v, &plan), SK_OK);
  std::vector<int32_t> a{7, -7, 9, 1}, b{2, 2, 0, 1}, out{5, 5, 5, 5};
  const void* in[2] = {a.data(), b.data()};
  // A zero divisor: the one-shot call's error, out untouched.
  ASSERT_EQ(sk_plan_execute(plan, in, out.data()), SK_ERR_INVALID);
  const std::string planned = sk_last_error();
  ASSERT_EQ(
      sk_binary(SK_DIV, SK_INT32, &v, a.data(), &v, b.data(), &v, out.data()),
      SK_ERR_INVALID);
  EXPECT_EQ(planned, sk_last_error());
  EXPECT_EQ(out, (std::vector<int32_t>{5, 5, 5, 5}));
  b[2] = 3;
  ASSERT_EQ(sk_plan_execute(plan, in, out.data()), SK_OK);
  EXPECT_EQ(out, (std::vector<int32_t>{3, -4, 3, 1}));
  // NULL data: the one-shot call's message.
  const void* null_b[2] = {a.data(), nullptr};
  ASSERT_EQ(sk_plan_execute(plan, null_b, out.data()), SK_ERR_INVALID);
  EXPECT_STREQ(sk_last_error(),
               "divide: source data is NULL for a non-empty view");
  ASSERT_EQ(sk_plan_execute(plan, in, nullptr), SK_ERR_INVALID);
  EXPECT_STREQ(sk_last_error(),
               "divide: destination data is NULL for a non-empty view");
  ASSERT_EQ(sk_plan_execute(plan, nullptr, out.data()), SK_ERR_INVALID);
  EXPECT_STREQ(sk_last_error(), "sk_plan_execute: inputs is NULL");
  sk_plan_free(plan);
  // An empty view needs no data.
  const sk_view empty = Vector(0);
  ASSERT_EQ(sk_plan_unary(SK_NEG, SK_FLOAT32, &empty, &empty, &plan), SK_OK);
  const void* none[1] = {nullptr};
  EXPECT_EQ(sk_plan_execute(plan, none, nullptr), SK_OK);
  sk_plan_free(plan);
  // Fill's input is its value.
  ASSERT_EQ(sk_plan_fill(SK_INT32, &v, &plan), SK_OK);
  ASSERT_EQ(sk_plan_inputs(plan), 1);
  const int32_t value = -3;
  const void* value_in[1] = {&value};
  ASSERT_EQ(sk_plan_execute(plan, value_in, out.data()), SK_OK);
  EXPECT_EQ(out, (std::vector<int32_t>{-3, -3, -3, -3}));
  ASSERT_EQ(sk_plan_execute(plan, none, out.data()), SK_ERR_INVALID);
  EXPECT_STREQ(sk_last_error(), "fill: value is NULL");
  sk_plan_free(plan);
}

TEST(Plan, CopyKeepsItsOwnFillValue) {
  // src's valid box [1, 3) of 4 positions: a pad of one on each side.
  sk_view src = Vector(2), dst = Vector(4);
  src.shape[0] = 4;
  src.has_mask = 1;
  src.mask_begin[0] = 1;
  src.mask_end[0] = 3;
  src.offset = -1;
  float fill = 9.0f;
  sk_plan* plan = nullptr;
  ASSERT_EQ(sk_plan_copy(SK_FLOAT32, &src, &dst, &fill, &plan), SK_OK);
  fill = -1.0f;  // The plan copied it.
  std::vector<float> a{1, 2}, out(4);
  const void* in[1] = {a.data()};
  ASSERT_EQ(sk_plan_execute(plan, in, out.data()), SK_OK);
  EXPECT_EQ(out, (std::vector<float>{9, 1, 2, 9}));
  sk_plan_free(plan);
}

TEST(Plan, ManyThreadsExecuteOnePlan) {
  if (!testing::ThreadsAllowed()) GTEST_SKIP();
  constexpr int kThreads = 8;
  sk_view a = Vector(1000), out = Vector(1000);
  a.shape[0] = 1;  // Broadcast along the output.
  sk_view b = Vector(1000);
  const sk_view* views[2] = {&b, &b};
  sk_plan* add = nullptr;
  sk_plan* dot = nullptr;
  ASSERT_EQ(sk_plan_binary(SK_MUL, SK_FLOAT64, &a, &b, &out, &add), SK_OK);
  const sk_view scalar{};
  ASSERT_EQ(sk_plan_einsum("i,i->", SK_FLOAT64, 2, views, &scalar, &dot),
            SK_OK);
  std::vector<double> bv(1000);
  for (size_t i = 0; i < bv.size(); ++i) bv[i] = double(i) * 0.5;
  std::vector<std::vector<double>> outs(kThreads, std::vector<double>(1000));
  std::vector<double> dots(kThreads);
  std::vector<double> scale(kThreads);
  std::vector<int> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    scale[size_t(t)] = t + 1;
    threads.emplace_back([&, t] {
      for (int round = 0; round < 50; ++round) {
        const void* in[2] = {&scale[size_t(t)], bv.data()};
        const void* both[2] = {bv.data(), bv.data()};
        failures[size_t(t)] +=
            sk_plan_execute(add, in, outs[size_t(t)].data()) != SK_OK;
        failures[size_t(t)] +=
            sk_plan_execute(dot, both, &dots[size_t(t)]) != SK_OK;
      }
    });
  }
  for (auto& th : threads) th.join();
  double want_dot = 0;
  for (double x : bv) want_dot += x * x;
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(failures[size_t(t)], 0);
    for (size_t i = 0; i < 1000; ++i) {
      ASSERT_EQ(outs[size_t(t)][i], (t + 1) * bv[i]);
    }
    EXPECT_EQ(dots[size_t(t)], dots[0]);
    EXPECT_NEAR(dots[size_t(t)], want_dot, 1e-9 * want_dot);
  }
  sk_plan_free(add);
  sk_plan_free(dot);
}

TEST(Plan, CppPlanIsAValue) {
  const sk_view v = Vector(5);
  const Plan plan = Plan::Unary(UnaryOp::kNeg, DType::kInt16, v, v);
  const Plan copy = plan;  // Shares the immutable plan.
  std::vector<int16_t> a{1, -2, 3, -4, 5}, out(5);
  const void* in[1] = {a.data()};
  copy.Execute(in, out.data());
  EXPECT_EQ(out, (std::vector<int16_t>{-1, 2, -3, 4, -5}));
  EXPECT_EQ(copy.Describe(), plan.Describe());
  EXPECT_THROW(plan.Execute({}, out.data()), Error);
  EXPECT_THROW(Plan::Binary(BinaryOp::kAdd, DType::kFloat32, v, Vector(4), v),
               Error);
}

}  // namespace
}  // namespace stridekit

namespace stridekit {
namespace {

// The direct reduction path (a C-ordered out, dispatch/reduce.cc) and the
// engine's (the same out reversed) combine in the same order: the same
// bits, for every kernel op over the last axis and over all axes.
TEST(Plan, DirectReductionsMatchTheEngine) {
  constexpr int64_t kRows = 7, kCols = 1003;
  std::vector<float> a(kRows * kCols);
  std::vector<double> b(a.size());
  std::mt19937 gen(11);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = float(int32_t(gen() >> 8) - (1 << 23)) / float(1 << 20);
    b[i] = double(a[i]) * (1 + 1e-9);
  }
  const sk_view in = testing::MakeView({kRows, kCols}, {kCols, 1}, 0);
  const sk_view out = testing::MakeView({kRows}, {1}, 0);
  const sk_view reversed = testing::MakeView({kRows}, {-1}, kRows - 1);
  const int32_t last[1] = {1};
  // The two paths are the ones compared.
  for (const sk_view* to : {&out, &reversed}) {
    sk_plan* plan = nullptr;
    ASSERT_EQ(sk_plan_reduce(SK_SUM, SK_FLOAT32, &in, 1, last, to, &plan),
              SK_OK);
    const std::string text = sk_plan_describe(plan);
    EXPECT_NE(text.find(to == &out ? "direct kernel" : "| engine"),
              std::string::npos)
        << text;
    sk_plan_free(plan);
  }
  for (sk_reduce_op op : {SK_SUM, SK_PROD, SK_RMIN, SK_RMAX}) {
    SCOPED_TRACE(int(op));
    std::vector<float> x(kRows), y(kRows);
    ASSERT_EQ(sk_reduce(op, SK_FLOAT32, &in, a.data(), 1, last, &out, x.data()),
              SK_OK);
    ASSERT_EQ(
        sk_reduce(op, SK_FLOAT32, &in, a.data(), 1, last, &reversed, y.data()),
        SK_OK);
    std::reverse(y.begin(), y.end());
    EXPECT_EQ(std::memcmp(x.data(), y.data(), sizeof(float) * kRows), 0);
    std::vector<double> u(kRows), v(kRows);
    ASSERT_EQ(sk_reduce(op, SK_FLOAT64, &in, b.data(), 1, last, &out, u.data()),
              SK_OK);
    ASSERT_EQ(
        sk_reduce(op, SK_FLOAT64, &in, b.data(), 1, last, &reversed, v.data()),
        SK_OK);
    std::reverse(v.begin(), v.end());
    EXPECT_EQ(std::memcmp(u.data(), v.data(), sizeof(double) * kRows), 0);
  }
  // Over every axis: a rank-0 out (direct) against a one-element out with a
  // mask that keeps it (the engine).
  const int32_t both[2] = {0, 1};
  float whole = 0, engine = 0;
  const sk_view scalar = testing::MakeView({}, {}, 0);
  ASSERT_EQ(
      sk_reduce(SK_SUM, SK_FLOAT32, &in, a.data(), 2, both, &scalar, &whole),
      SK_OK);
  sk_view one = testing::MakeView({1}, {1}, 0);
  one.has_mask = 1;
  one.mask_begin[0] = 0;
  one.mask_end[0] = 1;
  const sk_view in3 = testing::MakeView({1, kRows, kCols}, {0, kCols, 1}, 0);
  const int32_t inner[2] = {1, 2};
  ASSERT_EQ(
      sk_reduce(SK_SUM, SK_FLOAT32, &in3, a.data(), 2, inner, &one, &engine),
      SK_OK);
  EXPECT_EQ(std::memcmp(&whole, &engine, sizeof(float)), 0);
}

// Scans and arg reductions of a plan on one part run the axis kernel over
// the plan made once (DirectAxis, dispatch/axis_kernels.cc); a masked out
// that keeps every element runs the engine: the same bits, also on a
// 16-byte offset input and in place (out is the input: the engine).
TEST(Plan, DirectScansAndArgReductionsMatchTheEngine) {
  constexpr int64_t kRows = 7, kCols = 1003;
  std::vector<double> a(kRows * kCols + 2);
  std::mt19937 gen(12);
  for (double& x : a) x = double(int32_t(gen() >> 8) - (1 << 23)) / (1 << 22);
  const sk_view in = testing::MakeView({kRows, kCols}, {kCols, 1}, 0);
  sk_view masked = in;
  masked.has_mask = 1;
  masked.mask_end[0] = kRows;
  masked.mask_end[1] = kCols;
  for (int axis : {0, 1}) {
    SCOPED_TRACE(axis);
    for (sk_scan_op op : {SK_CUMSUM, SK_CUMPROD}) {
      sk_plan* plan = nullptr;
      ASSERT_EQ(sk_plan_scan(op, SK_FLOAT64, &in, axis, &in, &plan), SK_OK);
      EXPECT_NE(std::string(sk_plan_describe(plan)).find("direct kernel"),
                std::string::npos)
          << sk_plan_describe(plan);
      for (size_t shift : {0, 2}) {  // 16-byte offset input.
        const double* from = a.data() + shift;
        std::vector<double> direct(kRows * kCols), engine(kRows * kCols);
        const void* inputs[1] = {from};
        ASSERT_EQ(sk_plan_execute(plan, inputs, direct.data()), SK_OK);
        ASSERT_EQ(
            sk_scan(op, SK_FLOAT64, &in, from, axis, &masked, engine.data()),
            SK_OK);
        EXPECT_EQ(std::memcmp(direct.data(), engine.data(),
                              sizeof(double) * direct.size()),
                  0);
        std::vector<double> in_place(from, from + kRows * kCols);
        const void* same[1] = {in_place.data()};
        ASSERT_EQ(sk_plan_execute(plan, same, in_place.data()), SK_OK);
        EXPECT_EQ(std::memcmp(direct.data(), in_place.data(),
                              sizeof(double) * direct.size()),
                  0);
        // out one element past the input: written before it is read unless
        // the overlap check sends the call to the engine (which copies).
        std::vector<double> shifted(from, from + kRows * kCols);
        shifted.push_back(0);
        const void* ahead[1] = {shifted.data()};
        ASSERT_EQ(sk_plan_execute(plan, ahead, shifted.data() + 1), SK_OK);
        EXPECT_EQ(std::memcmp(direct.data(), shifted.data() + 1,
                              sizeof(double) * direct.size()),
                  0);
      }
      sk_plan_free(plan);
    }
    const sk_view out = testing::MakeView({axis == 1 ? kRows : kCols}, {1}, 0);
    sk_view masked_out = out;
    masked_out.has_mask = 1;
    masked_out.mask_end[0] = out.shape[0];
    for (sk_arg_op op : {SK_ARGMIN, SK_ARGMAX}) {
      std::vector<int64_t> direct(size_t(out.shape[0])), engine(direct.size());
      ASSERT_EQ(sk_arg_reduce(op, SK_FLOAT64, &in, a.data() + 1, axis, &out,
                              direct.data()),
                SK_OK);
      ASSERT_EQ(sk_arg_reduce(op, SK_FLOAT64, &in, a.data() + 1, axis,
                              &masked_out, engine.data()),
                SK_OK);
      EXPECT_EQ(direct, engine);
    }
  }
}

// Einsums that are one matrix product into out run the product prepared
// when the plan was made: the same bits as the engine's path (a masked
// out; out overlapping an input, which the engine copies first), on new
// pointers (aligned and 16-byte offset) and on 1 and 2 threads.
TEST(Plan, PreparedMatrixProductsMatchTheEngine) {
  struct Case {
    const char* spec;
    std::vector<int64_t> a_shape, a_strides, b_shape, b_strides, out_shape;
  };
  // Plain, A transposed, B transposed (the operands swap), a batch.
  const std::vector<Case> cases = {
      {"ij,jk->ik", {37, 41}, {41, 1}, {41, 29}, {29, 1}, {37, 29}},
      {"ji,jk->ik", {41, 37}, {37, 1}, {41, 29}, {29, 1}, {37, 29}},
      {"ij,kj->ki", {37, 41}, {41, 1}, {29, 41}, {41, 1}, {29, 37}},
      {"bij,bjk->bik",
       {3, 19, 23},
       {19 * 23, 23, 1},
       {3, 23, 17},
       {23 * 17, 17, 1},
       {3, 19, 17}}};
  std::mt19937 gen(5);
  const auto fill = [&](std::vector<float>& v) {
    for (float& x : v) x = float(int32_t(gen() >> 9) - (1 << 22)) / 4096.0f;
  };
  const int32_t saved_threads = sk_get_threads();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.spec);
    const sk_view a = testing::MakeView(c.a_shape, c.a_strides, 0);
    const sk_view b = testing::MakeView(c.b_shape, c.b_strides, 0);
    std::vector<int64_t> out_strides(c.out_shape.size(), 1);
    for (size_t d = c.out_shape.size(); d-- > 1;) {
      out_strides[d - 1] = out_strides[d] * c.out_shape[d];
    }
    const sk_view out = testing::MakeView(c.out_shape, out_strides, 0);
    const sk_view* views[2] = {&a, &b};
    sk_plan* plan = nullptr;
    ASSERT_EQ(sk_plan_einsum(c.spec, SK_FLOAT32, 2, views, &out, &plan), SK_OK);
    const std::string text = sk_plan_describe(plan);
    EXPECT_NE(text.find("prepared matrix product"), std::string::npos) << text;
    const auto numel = [](const std::vector<int64_t>& shape) {
      int64_t n = 1;
      for (int64_t e : shape) n *= e;
      return size_t(n);
    };
    const size_t na = numel(c.a_shape), nb = numel(c.b_shape),
                 nz = numel(c.out_shape);
    std::vector<float> a_data(na), b_data(nb);
    fill(a_data);
    fill(b_data);
    // The same values 16 bytes into other buffers.
    std::vector<float> a_moved(na + 4), b_moved(nb + 4);
    std::copy(a_data.begin(), a_data.end(), a_moved.begin() + 4);
    std::copy(b_data.begin(), b_data.end(), b_moved.begin() + 4);
    std::vector<float> want(nz);
    const void* datas[2] = {a_data.data(), b_data.data()};
    // The engine's result: out with a mask that keeps every position (the
    // engine's path, never prepared).
    sk_view masked = out;
    masked.has_mask = 1;
    for (int d = 0; d < out.ndim; ++d) {
      masked.mask_begin[d] = 0;
      masked.mask_end[d] = out.shape[d];
    }
    ASSERT_EQ(
        sk_einsum(c.spec, SK_FLOAT32, 2, views, datas, &masked, want.data()),
        SK_OK);
    for (int32_t threads : {1, 2}) {
      if (threads > 1 && !testing::ThreadsAllowed()) continue;
      ASSERT_EQ(sk_set_threads(threads), SK_OK);
      for (size_t shift : {size_t{0}, size_t{4}}) {
        SCOPED_TRACE("threads " + std::to_string(threads) + ", shift " +
                     std::to_string(shift));
        std::vector<float> got(nz + 4, -1.0f);
        const void* inputs[2] = {shift == 0 ? a_data.data() : &a_moved[4],
                                 shift == 0 ? b_data.data() : &b_moved[4]};
        ASSERT_EQ(sk_plan_execute(plan, inputs, got.data() + shift), SK_OK);
        EXPECT_EQ(
            std::memcmp(got.data() + shift, want.data(), nz * sizeof(float)),
            0);
      }
    }
    // Out over A's own buffer (A's values are copied first, as the
    // engine does: the same bits).
    std::vector<float> shared(std::max(na, nz));
    std::copy(a_data.begin(), a_data.end(), shared.begin());
    const void* overlapping[2] = {shared.data(), b_data.data()};
    ASSERT_EQ(sk_plan_execute(plan, overlapping, shared.data()), SK_OK);
    EXPECT_EQ(std::memcmp(shared.data(), want.data(), nz * sizeof(float)), 0);
    sk_plan_free(plan);
  }
  ASSERT_EQ(sk_set_threads(saved_threads), SK_OK);
}

}  // namespace
}  // namespace stridekit
