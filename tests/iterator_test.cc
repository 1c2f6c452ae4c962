// The strided iterator through the C ABI (sk_iter_*) and C++
// (StridedIterator): chunks cover every valid output element exactly once,
// pair it with the right input elements, stay inside the operands' spans;
// reductions with SK_ITER_REDUCE_OK, masks, broadcasting, negative strides,
// ranks 0..8, tiled runs, and results that do not depend on the thread
// count (sk_iter_run, sk_copy, sk_binary).
#include "stridekit/iterator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "random_views.h"
#include "stridekit/parallel.h"
#include "stridekit/stridekit.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::Describe;
using testing::MakeView;
using testing::ViewGenerator;

// Runs part(job, 0), ..., part(job, nparts - 1) one after another on the
// calling thread: a host's executor that starts no thread.
void RunPartsSerially(void*, int64_t nparts, sk_part_fn part, void* job) {
  for (int64_t i = 0; i < nparts; ++i) part(job, i);
}

// Restores one thread after each test. Where threads may not be started
// (testing::ThreadsAllowed; qemu-user), every test runs on the serial
// executor above, so that splitting into 2, 3 and 8 parts is still tested.
class IteratorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::ThreadsAllowed()) {
      ASSERT_EQ(sk_set_executor(RunPartsSerially, nullptr), SK_OK);
    }
  }
  void TearDown() override {
    ASSERT_EQ(sk_set_threads(1), SK_OK);
    ASSERT_EQ(sk_set_executor(nullptr, nullptr), SK_OK);
  }
};

// An operand whose element e holds the int32 e in its first 4 bytes.
struct IdBuffer {
  size_t elem_size;
  std::vector<unsigned char> bytes;
  IdBuffer(size_t size, int64_t n) : elem_size(size), bytes(size * n) {
    for (int64_t e = 0; e < n; ++e) {
      const int32_t id = int32_t(e);
      std::memcpy(&bytes[size_t(e) * size], &id, sizeof(id));
    }
  }
  int64_t IdAt(const char* p) const {
    const auto* at = reinterpret_cast<const unsigned char*>(p);
    EXPECT_GE(at, bytes.data());
    EXPECT_LE(at + elem_size, bytes.data() + bytes.size());
    if (at < bytes.data() || at + elem_size > bytes.data() + bytes.size()) {
      return -1;
    }
    EXPECT_EQ((at - bytes.data()) % int64_t(elem_size), 0);
    int32_t id;
    std::memcpy(&id, at, sizeof(id));
    return id;
  }
  int64_t size() const { return int64_t(bytes.size() / elem_size); }
};

// A random case: the output (maybe masked) and inputs broadcast to it, each
// with its own element size, and for each valid output element offset the
// input element offsets it pairs with.
struct Case {
  std::vector<sk_view> views;
  std::vector<IdBuffer> buffers;
  std::vector<std::vector<int64_t>> expected;  // [out offset] -> inputs
  int64_t valid = 0;
  std::string text;
};

Case RandomCase(ViewGenerator& gen, int rank) {
  static const size_t kSizes[] = {4, 8, 16};
  Case c;
  const int nops = int(gen.Uniform(1, 4));
  const std::vector<int64_t> shape = gen.Shape(rank, 2048);
  for (int k = 0; k < nops; ++k) {
    const std::vector<int64_t> s = k == 0 ? shape : gen.BroadcastSource(shape);
    sk_view v;
    const int64_t n = gen.Layout(s, gen.Uniform(0, 3), v);
    if (k == 0 && gen.Chance(30)) gen.Mask(v);
    const size_t size = kSizes[gen.Uniform(0, 2)];
    c.views.push_back(v);
    c.buffers.emplace_back(size, n);
    c.text += "op" + std::to_string(k) + " " + Describe(v) + " size " +
              std::to_string(size) + "; ";
  }
  const sk_view& out = c.views[0];
  c.expected.assign(size_t(c.buffers[0].size()), {});
  std::vector<int64_t> index(static_cast<size_t>(out.ndim), 0);
  bool any = true;
  for (int d = 0; d < out.ndim; ++d) any &= out.shape[d] > 0;
  for (bool more = any; more;) {
    bool valid = true;
    for (int d = 0; d < out.ndim && out.has_mask; ++d) {
      valid &= out.mask_begin[d] <= index[d] && index[d] < out.mask_end[d];
    }
    if (valid) {
      int64_t o = out.offset;
      for (int d = 0; d < out.ndim; ++d) o += index[d] * out.strides[d];
      std::vector<int64_t>& ins = c.expected[size_t(o)];
      ins.clear();
      for (int k = 1; k < nops; ++k) {
        const sk_view& v = c.views[size_t(k)];
        int64_t e = v.offset;
        for (int j = 0; j < v.ndim; ++j) {
          const int d = j + out.ndim - v.ndim;
          if (v.shape[j] != 1) e += index[d] * v.strides[j];
        }
        ins.push_back(e);
      }
      ++c.valid;
    }
    more = false;
    for (int d = out.ndim - 1; d >= 0 && !more; --d) {
      if (++index[d] < out.shape[d]) {
        more = true;
      } else {
        index[d] = 0;
      }
    }
  }
  return c;
}

// Checks one chunk against the case; counts visits per output offset.
void CheckChunk(const Case& c, char* const* ptrs, int64_t count,
                const int64_t* strides, std::vector<std::atomic<int>>& visits,
                std::atomic<int64_t>& errors) {
  for (int64_t i = 0; i < count; ++i) {
    const int64_t out = c.buffers[0].IdAt(ptrs[0] + i * strides[0]);
    if (out < 0 || c.expected[size_t(out)].size() + 1 != c.views.size()) {
      ++errors;
      continue;
    }
    ++visits[size_t(out)];
    for (size_t k = 1; k < c.views.size(); ++k) {
      const int64_t in = c.buffers[k].IdAt(ptrs[k] + i * strides[k]);
      if (in != c.expected[size_t(out)][k - 1]) ++errors;
    }
  }
}

struct Operands {
  std::vector<const sk_view*> views;
  std::vector<size_t> sizes;
  std::vector<void*> datas;
  explicit Operands(Case& c) {
    for (size_t k = 0; k < c.views.size(); ++k) {
      views.push_back(&c.views[k]);
      sizes.push_back(c.buffers[k].elem_size);
      datas.push_back(c.buffers[k].bytes.data());
    }
  }
  std::vector<IterOperand> list() const {
    std::vector<IterOperand> ops;
    for (size_t k = 0; k < views.size(); ++k) {
      ops.push_back({views[k], sizes[k], datas[k]});
    }
    return ops;
  }
};

TEST_F(IteratorTest, ChunksCoverEveryValidOutputElementOnce) {
  ViewGenerator gen(16);
  for (int rank = 0; rank <= 8; ++rank) {
    for (int trial = 0; trial < 60; ++trial) {
      Case c = RandomCase(gen, rank);
      Operands ops(c);
      // Output offsets that are valid positions; with no inputs the
      // expected lists are empty for every offset, so mark them apart.
      std::vector<char> is_valid(c.expected.size(), 0);
      {
        const sk_view& out = c.views[0];
        std::vector<int64_t> index(static_cast<size_t>(out.ndim), 0);
        bool more = c.valid > 0;
        while (more) {
          bool valid = true;
          for (int d = 0; d < out.ndim && out.has_mask; ++d) {
            valid &=
                out.mask_begin[d] <= index[d] && index[d] < out.mask_end[d];
          }
          int64_t o = out.offset;
          for (int d = 0; d < out.ndim; ++d) o += index[d] * out.strides[d];
          if (valid) is_valid[size_t(o)] = 1;
          more = false;
          for (int d = out.ndim - 1; d >= 0 && !more; --d) {
            more = ++index[d] < out.shape[d];
            if (!more) index[d] = 0;
          }
        }
      }
      sk_iter* it = nullptr;
      ASSERT_EQ(sk_iter_new(int32_t(ops.views.size()), ops.views.data(),
                            ops.sizes.data(), ops.datas.data(), 0, &it),
                SK_OK)
          << sk_last_error() << " " << c.text;
      std::vector<std::atomic<int>> visits(c.expected.size());
      std::atomic<int64_t> errors{0};
      char* ptrs[8];
      int64_t count, strides[8];
      const std::string plan = sk_iter_describe(it);
      while (sk_iter_next(it, ptrs, &count, strides)) {
        EXPECT_GT(count, 0);
        CheckChunk(c, ptrs, count, strides, visits, errors);
      }
      EXPECT_EQ(sk_iter_next(it, ptrs, &count, strides), 0);
      sk_iter_free(it);
      EXPECT_EQ(errors, 0) << c.text << " plan " << plan;
      for (size_t o = 0; o < visits.size(); ++o) {
        EXPECT_EQ(visits[o], is_valid[o]) << "offset " << o << " " << c.text;
      }

      // The same through Run in 1, 2, 3 and 8 parts (tiles allowed).
      const StridedIterator iterator(ops.list());
      for (int parts : {1, 2, 3, 8}) {
        std::vector<std::atomic<int>> run_visits(c.expected.size());
        iterator.Run(parts, [&](char* const* p, int64_t n, const int64_t* s) {
          CheckChunk(c, p, n, s, run_visits, errors);
        });
        EXPECT_EQ(errors, 0) << parts << " parts: " << c.text;
        for (size_t o = 0; o < visits.size(); ++o) {
          EXPECT_EQ(run_visits[o], is_valid[o])
              << parts << " parts, offset " << o << " " << c.text << " "
              << iterator.Describe();
        }
      }
    }
  }
}

// sk_iter_run's loop for a copy: ctx holds the element size.
void CopyLoop(char* const* p, int64_t n, const int64_t* s, void* ctx) {
  const size_t size = *static_cast<const size_t*>(ctx);
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(p[0] + i * s[0], p[1] + i * s[1], size);
  }
}

TEST_F(IteratorTest, RunCopyMatchesSkCopy) {
  ViewGenerator gen(3);
  const sk_dtype kTypes[] = {SK_INT8, SK_INT16, SK_FLOAT32, SK_FLOAT64,
                             SK_COMPLEX128};
  for (int trial = 0; trial < 600; ++trial) {
    const sk_dtype t = kTypes[gen.Uniform(0, 4)];
    size_t size = sk_dtype_size(t);
    const std::vector<int64_t> shape = gen.Shape(int(gen.Uniform(0, 6)));
    sk_view src, dst;
    std::vector<unsigned char> src_bytes(
        size_t(gen.Layout(gen.BroadcastSource(shape), 0, src)) * size);
    std::vector<unsigned char> dst_bytes(
        size_t(gen.Layout(shape, gen.Uniform(0, 3), dst)) * size);
    if (gen.Chance(30)) gen.Mask(dst);
    gen.Randomize(src_bytes);
    gen.Randomize(dst_bytes);
    std::vector<unsigned char> want = dst_bytes;
    ASSERT_EQ(sk_copy(t, &src, src_bytes.data(), &dst, want.data(), nullptr),
              SK_OK)
        << sk_last_error();
    const sk_view* views[] = {&dst, &src};
    const size_t sizes[] = {size, size};
    void* datas[] = {dst_bytes.data(), src_bytes.data()};
    const int threads = trial % 2 ? 3 : 1;
    ASSERT_EQ(sk_set_threads(threads), SK_OK);
    ASSERT_EQ(sk_iter_run(2, views, sizes, datas, 0, CopyLoop, &size), SK_OK)
        << sk_last_error();
    EXPECT_EQ(dst_bytes, want)
        << "src " << Describe(src) << " dst " << Describe(dst);
  }
}

TEST_F(IteratorTest, ChunksFollowThePlan) {
  // A reversed, transposed 2-D output: axes flipped and ordered, one chunk
  // per row of the contiguous memory order, positive byte strides.
  float out[12];
  const sk_view v = MakeView({3, 4}, {-1, -3}, 11);
  const sk_view* views[] = {&v};
  const size_t sizes[] = {sizeof(float)};
  void* datas[] = {out};
  sk_iter* it = nullptr;
  ASSERT_EQ(sk_iter_new(1, views, sizes, datas, 0, &it), SK_OK);
  char* ptrs[1];
  int64_t count, strides[1];
  ASSERT_EQ(sk_iter_next(it, ptrs, &count, strides), 1);
  EXPECT_EQ(count, 12);  // Coalesced into one contiguous chunk.
  EXPECT_EQ(strides[0], 4);
  EXPECT_EQ(ptrs[0], reinterpret_cast<char*>(out));
  EXPECT_EQ(sk_iter_next(it, ptrs, &count, strides), 0);
  EXPECT_NE(std::string(sk_iter_describe(it)).find("shape [12]"),
            std::string::npos)
      << sk_iter_describe(it);
  sk_iter_free(it);

  // Rank 0: one chunk of one element; an empty view: no chunk.
  const sk_view scalar = MakeView({}, {}, 2);
  views[0] = &scalar;
  ASSERT_EQ(sk_iter_new(1, views, sizes, datas, 0, &it), SK_OK);
  ASSERT_EQ(sk_iter_next(it, ptrs, &count, strides), 1);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(ptrs[0], reinterpret_cast<char*>(out + 2));
  EXPECT_EQ(sk_iter_next(it, ptrs, &count, strides), 0);
  sk_iter_free(it);
  const sk_view empty = MakeView({3, 0}, {0, 0}, 0);
  views[0] = &empty;
  datas[0] = nullptr;  // Allowed: nothing to visit.
  ASSERT_EQ(sk_iter_new(1, views, sizes, datas, 0, &it), SK_OK)
      << sk_last_error();
  EXPECT_EQ(sk_iter_next(it, ptrs, &count, strides), 0);
  sk_iter_free(it);
}

// sum over axis 1 of a [rows, cols] input into out[rows] through a stride-0
// output axis, as a host's reduction loop does.
void SumLoop(char* const* p, int64_t n, const int64_t* s, void*) {
  double acc;
  std::memcpy(&acc, p[0], sizeof(acc));
  for (int64_t i = 0; i < n; ++i) {
    double x;
    std::memcpy(&x, p[1] + i * s[1], sizeof(x));
    acc += x;
    if (s[0] != 0) {  // A chunk along a kept axis: one output per element.
      std::memcpy(p[0] + i * s[0], &acc, sizeof(acc));
      if (i + 1 < n) std::memcpy(&acc, p[0] + (i + 1) * s[0], sizeof(acc));
    }
  }
  if (s[0] == 0) std::memcpy(p[0], &acc, sizeof(acc));
}

TEST_F(IteratorTest, ReductionThroughReduceOk) {
  ViewGenerator gen(7);
  for (int trial = 0; trial < 40; ++trial) {
    const int rank = int(gen.Uniform(1, 5));
    std::vector<int64_t> shape = gen.Shape(rank, 1 << 14);
    sk_view in;
    std::vector<double> data(static_cast<size_t>(gen.Layout(shape, 0, in)));
    for (auto& x : data) x = double(gen.Uniform(-1000, 1000)) / 7.0;
    // Reduce a random subset of axes: out has in's shape with stride 0 on
    // the reduced axes (keepdims, then expanded).
    std::vector<int64_t> out_shape = shape, out_strides(shape.size());
    std::vector<bool> reduced(shape.size());
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      reduced[size_t(d)] = gen.Chance(50);
      out_strides[size_t(d)] = reduced[size_t(d)] ? 0 : stride;
      if (!reduced[size_t(d)]) stride *= std::max<int64_t>(1, shape[size_t(d)]);
    }
    const sk_view out = MakeView(out_shape, out_strides, 0);
    std::vector<double> want(static_cast<size_t>(stride), 0.0);
    std::vector<int64_t> index(shape.size(), 0);
    for (bool more = Numel(DimsView(shape.data(), shape.size())) > 0; more;) {
      int64_t o = 0, i = in.offset;
      for (int d = 0; d < rank; ++d) {
        o += index[size_t(d)] * out_strides[size_t(d)];
        i += index[size_t(d)] * in.strides[d];
      }
      want[size_t(o)] += data[size_t(i)];
      more = false;
      for (int d = rank - 1; d >= 0 && !more; --d) {
        more = ++index[size_t(d)] < shape[size_t(d)];
        if (!more) index[size_t(d)] = 0;
      }
    }
    const sk_view* views[] = {&out, &in};
    const size_t sizes[] = {8, 8};
    std::vector<double> first;
    for (int threads : {1, 2, 3, 8}) {
      std::vector<double> got(static_cast<size_t>(stride), 0.0);
      void* datas[] = {got.data(), data.data()};
      ASSERT_EQ(sk_set_threads(threads), SK_OK);
      ASSERT_EQ(sk_iter_run(2, views, sizes, datas, SK_ITER_REDUCE_OK, SumLoop,
                            nullptr),
                SK_OK)
          << sk_last_error();
      // Small parts too: the C++ Run with exactly `threads` parts.
      std::vector<double> parts(static_cast<size_t>(stride), 0.0);
      void* part_datas[] = {parts.data(), data.data()};
      const IterOperand ops[] = {{&out, 8, part_datas[0]},
                                 {&in, 8, part_datas[1]}};
      IteratorOptions options;
      options.reduce_ok = true;
      StridedIterator(ops, options).Run(threads, SumLoop, nullptr);
      for (size_t o = 0; o < want.size(); ++o) {
        EXPECT_NEAR(got[o], want[o], 1e-9 * (1 + std::abs(want[o])))
            << Describe(in) << " out " << Describe(out);
      }
      EXPECT_EQ(std::memcmp(got.data(), parts.data(), 8 * got.size()), 0);
      if (first.empty()) first = got;
      EXPECT_EQ(std::memcmp(got.data(), first.data(), 8 * got.size()), 0)
          << threads << " threads change the bits";
    }
    // Without the flag a broadcast output is an error when an axis of size
    // > 1 is reduced (and there is an element to write).
    bool any_reduced = false;
    for (int d = 0; d < rank; ++d) {
      any_reduced |= reduced[size_t(d)] && shape[size_t(d)] > 1;
    }
    any_reduced &= Numel(DimsView(shape.data(), shape.size())) > 0;
    std::vector<double> got(static_cast<size_t>(stride));
    void* datas[] = {got.data(), data.data()};
    sk_iter* it = nullptr;
    const sk_status st = sk_iter_new(2, views, sizes, datas, 0, &it);
    EXPECT_EQ(st, any_reduced ? SK_ERR_INVALID : SK_OK);
    if (any_reduced) {
      EXPECT_NE(std::string(sk_last_error()).find("SK_ITER_REDUCE_OK"),
                std::string::npos)
          << sk_last_error();
      EXPECT_EQ(it, nullptr);
    }
    sk_iter_free(it);
  }
}

TEST_F(IteratorTest, MasksAndBroadcastErrors) {
  float a[16] = {}, b[16] = {};
  sk_view out = MakeView({4, 4}, {4, 1}, 0);
  sk_view in = MakeView({4}, {1}, 0);
  const sk_view* views[] = {&out, &in};
  const size_t sizes[] = {4, 4};
  void* datas[] = {a, b};
  sk_iter* it = nullptr;
  // A masked input.
  in.has_mask = 1;
  in.mask_begin[0] = 1;
  in.mask_end[0] = 4;
  EXPECT_EQ(sk_iter_new(2, views, sizes, datas, 0, &it), SK_ERR_UNSUPPORTED);
  EXPECT_NE(std::string(sk_last_error()).find("sk_copy"), std::string::npos)
      << sk_last_error();
  // A mask covering the whole input is no mask.
  in.mask_begin[0] = 0;
  EXPECT_EQ(sk_iter_new(2, views, sizes, datas, 0, &it), SK_OK);
  sk_iter_free(it);
  // An input that does not broadcast.
  in = MakeView({3}, {1}, 0);
  EXPECT_EQ(sk_iter_new(2, views, sizes, datas, 0, &it), SK_ERR_INVALID);
  EXPECT_NE(std::string(sk_last_error())
                .find("sk_iter_new: cannot broadcast operand 1 of shape [3] "
                      "to the output's shape [4,4]"),
            std::string::npos)
      << sk_last_error();
  // An output mask: only the valid box, rows 1..2, columns 2..3.
  in = MakeView({4}, {1}, 0);
  out.has_mask = 1;
  out.mask_begin[0] = 1, out.mask_end[0] = 3;
  out.mask_begin[1] = 2, out.mask_end[1] = 4;
  ASSERT_EQ(sk_iter_new(2, views, sizes, datas, 0, &it), SK_OK);
  char* ptrs[2];
  int64_t count, strides[2];
  std::vector<int64_t> seen;
  while (sk_iter_next(it, ptrs, &count, strides)) {
    for (int64_t i = 0; i < count; ++i) {
      seen.push_back((ptrs[0] + i * strides[0] - reinterpret_cast<char*>(a)) /
                     4);
      EXPECT_EQ((ptrs[1] + i * strides[1] - reinterpret_cast<char*>(b)) / 4,
                seen.back() % 4);
    }
  }
  sk_iter_free(it);
  EXPECT_EQ(seen, (std::vector<int64_t>{6, 7, 10, 11}));
}

// out = a + b as a ufunc loop (float32).
void AddLoop(char* const* p, int64_t n, const int64_t* s, void*) {
  for (int64_t i = 0; i < n; ++i) {
    float x, y;
    std::memcpy(&x, p[1] + i * s[1], 4);
    std::memcpy(&y, p[2] + i * s[2], 4);
    const float z = x + y;
    std::memcpy(p[0] + i * s[0], &z, 4);
  }
}

// The C++ constructor's own checks (the C ABI checks its arguments first),
// and Reset, which starts Next's walk over.
TEST_F(IteratorTest, ConstructorChecksAndReset) {
  IteratorOptions named;
  named.op = "my_loop";
  EXPECT_SK_ERROR(StridedIterator({}, named), ErrorKind::kInvalidArgument,
                  "my_loop: 0 operands, expected 1 to 8");
  const IterOperand null_view[] = {{nullptr, 4, nullptr}};
  EXPECT_SK_ERROR(StridedIterator(null_view, named),
                  ErrorKind::kInvalidArgument,
                  "my_loop: the view of operand 0 is NULL");

  std::vector<int32_t> data(6);
  const sk_view v = MakeView({2, 3}, {3, 1}, 0);
  const IterOperand ops[] = {{&v, 4, data.data()}};
  StridedIterator iterator(ops);
  EXPECT_EQ(iterator.num_operands(), 1);
  EXPECT_EQ(iterator.plan().numel(), 6);
  char* ptrs[1];
  int64_t count = 0, byte_strides[1];
  int64_t first_pass = 0;
  while (iterator.Next(ptrs, &count, byte_strides)) first_pass += count;
  EXPECT_EQ(first_pass, 6);
  EXPECT_FALSE(iterator.Next(ptrs, &count, byte_strides));
  iterator.Reset();
  ASSERT_TRUE(iterator.Next(ptrs, &count, byte_strides));
  EXPECT_EQ(ptrs[0], reinterpret_cast<char*>(data.data()));
}

TEST_F(IteratorTest, TiledRunOfATransposedInput) {
  const int64_t rows = 300, cols = 517;
  std::vector<float> a(static_cast<size_t>(rows * cols)),
      b(static_cast<size_t>(cols)), out(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 1000) * 0.5f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(i) * 0.25f;
  const sk_view o = MakeView({rows, cols}, {cols, 1}, 0);
  const sk_view at = MakeView({rows, cols}, {1, rows}, 0);  // a.T
  const sk_view bv = MakeView({cols}, {1}, 0);
  const sk_view* views[] = {&o, &at, &bv};
  const size_t sizes[] = {4, 4, 4};
  void* datas[] = {out.data(), a.data(), b.data()};
  const IterOperand ops[] = {
      {&o, 4, out.data()}, {&at, 4, a.data()}, {&bv, 4, b.data()}};
  const StridedIterator iterator(ops);
  EXPECT_NE(iterator.Describe().find("tiled"), std::string::npos)
      << iterator.Describe();
  int64_t longest = 0;
  std::mutex mutex;
  iterator.Run(3, [&](char* const* p, int64_t n, const int64_t* s) {
    AddLoop(p, n, s, nullptr);
    std::lock_guard<std::mutex> lock(mutex);
    longest = std::max(longest, n);
  });
  EXPECT_LE(longest, 128);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      ASSERT_EQ(out[size_t(r * cols + c)],
                a[size_t(c * rows + r)] + b[size_t(c)])
          << r << "," << c;
    }
  }
  std::vector<float> first = out;
  for (int threads : {1, 2, 3, 8}) {
    std::fill(out.begin(), out.end(), -1.0f);
    ASSERT_EQ(sk_set_threads(threads), SK_OK);
    ASSERT_EQ(sk_iter_run(3, views, sizes, datas, 0, AddLoop, nullptr), SK_OK)
        << sk_last_error();
    EXPECT_EQ(std::memcmp(out.data(), first.data(), 4 * out.size()), 0)
        << threads << " threads";
  }
}

TEST_F(IteratorTest, ThreadCountsGiveIdenticalBits) {
  // Large enough for several parts: a transposed copy and a broadcast add.
  const int64_t rows = 513, cols = 1031;
  std::vector<float> a(static_cast<size_t>(rows * cols)),
      b(static_cast<size_t>(cols));
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i) * 0.001f - 7.0f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = 1.0f / float(i + 1);
  const sk_view at = MakeView({cols, rows}, {1, cols}, 0);
  const sk_view o = MakeView({cols, rows}, {rows, 1}, 0);
  const sk_view full = MakeView({rows, cols}, {cols, 1}, 0);
  const sk_view bv = MakeView({cols}, {1}, 0);
  std::vector<float> copy1, add1;
  for (int threads : {1, 2, 3, 8}) {
    ASSERT_EQ(sk_set_threads(threads), SK_OK);
    EXPECT_EQ(sk_get_threads(), threads);
    std::vector<float> copy(a.size(), -1.0f), add(a.size(), -1.0f);
    ASSERT_EQ(sk_copy(SK_FLOAT32, &at, a.data(), &o, copy.data(), nullptr),
              SK_OK)
        << sk_last_error();
    ASSERT_EQ(sk_binary(SK_ADD, SK_FLOAT32, &full, a.data(), &bv, b.data(),
                        &full, add.data()),
              SK_OK)
        << sk_last_error();
    if (threads == 1) {
      copy1 = copy, add1 = add;
      EXPECT_EQ(copy[1], a[size_t(cols)]);
      EXPECT_EQ(add[cols + 1], a[size_t(cols + 1)] + b[1]);
      continue;
    }
    EXPECT_EQ(std::memcmp(copy.data(), copy1.data(), 4 * copy.size()), 0)
        << "sk_copy on " << threads << " threads";
    EXPECT_EQ(std::memcmp(add.data(), add1.data(), 4 * add.size()), 0)
        << "sk_binary on " << threads << " threads";
  }
}

TEST_F(IteratorTest, Threads) {
  EXPECT_EQ(sk_get_threads(), 1);
  EXPECT_EQ(sk_set_threads(-1), SK_ERR_INVALID);
  EXPECT_NE(std::string(sk_last_error()).find("sk_set_threads: n = -1"),
            std::string::npos)
      << sk_last_error();
  EXPECT_EQ(sk_set_threads(1025), SK_ERR_INVALID);
  EXPECT_EQ(sk_get_threads(), 1);
  ASSERT_EQ(sk_set_threads(0), SK_OK);
  EXPECT_EQ(sk_get_threads(),
            int32_t(std::max(1u, std::thread::hardware_concurrency())));
}

// A host executor on std::threads (or, where threads may not be started,
// on the calling thread alone) that records its calls; `skip` drops the
// last part (a broken host).
struct ThreadHost {
  std::atomic<int> calls{0};
  bool skip = false;
  static void Run(void* host, int64_t nparts, sk_part_fn part, void* job) {
    auto* self = static_cast<ThreadHost*>(host);
    ++self->calls;
    std::vector<std::thread> threads;
    const int64_t n = self->skip ? nparts - 1 : nparts;
    for (int64_t i = 1; i < n; ++i) {
      if (testing::ThreadsAllowed()) {
        threads.emplace_back(part, job, i);
      } else {
        part(job, i);
      }
    }
    if (n > 0) part(job, 0);
    for (auto& t : threads) t.join();
  }
};

TEST_F(IteratorTest, HostExecutor) {
  ThreadHost host;
  ASSERT_EQ(sk_set_executor(ThreadHost::Run, &host), SK_OK);
  ASSERT_EQ(sk_set_threads(4), SK_OK);
  const int64_t n = 1 << 16;
  std::vector<float> a(static_cast<size_t>(n), 1.5f),
      b(static_cast<size_t>(n), 2.0f), out(static_cast<size_t>(n));
  const sk_view v = MakeView({n}, {1}, 0);
  const sk_view* views[] = {&v, &v, &v};
  const size_t sizes[] = {4, 4, 4};
  void* datas[] = {out.data(), a.data(), b.data()};
  ASSERT_EQ(sk_iter_run(3, views, sizes, datas, 0, AddLoop, nullptr), SK_OK)
      << sk_last_error();
  EXPECT_EQ(host.calls, 1);
  for (float x : out) ASSERT_EQ(x, 3.5f);

  // An exception from a part reaches the caller after all parts ran.
  const IterOperand ops[] = {{&v, 4, out.data()}};
  std::atomic<int> chunks{0};
  EXPECT_THROW(
      StridedIterator(ops).Run(4,
                               [&](char* const*, int64_t, const int64_t*) {
                                 if (++chunks == 2) {
                                   throw std::runtime_error("part");
                                 }
                               }),
      std::runtime_error);
  EXPECT_EQ(chunks, 4);

  // Parallel work inside a part runs on that part's thread (no re-entry).
  host.calls = 0;
  RunParallel(3, [&](int) {
    std::vector<float> sum(static_cast<size_t>(n));
    void* nested[] = {sum.data(), a.data(), b.data()};
    ASSERT_EQ(sk_iter_run(3, views, sizes, nested, 0, AddLoop, nullptr), SK_OK);
    EXPECT_EQ(sum[size_t(n - 1)], 3.5f);
  });
  EXPECT_EQ(host.calls, 1);

  // A host that drops a part is an error, not a silent hole.
  host.skip = true;
  EXPECT_EQ(sk_iter_run(3, views, sizes, datas, 0, AddLoop, nullptr),
            SK_ERR_INVALID);
  EXPECT_NE(std::string(sk_last_error()).find("1 of 4 parts not run"),
            std::string::npos)
      << sk_last_error();
  ASSERT_EQ(sk_set_executor(nullptr, nullptr), SK_OK);
  if (!testing::ThreadsAllowed()) return;  // stridekit's pool starts threads.
  ASSERT_EQ(sk_iter_run(3, views, sizes, datas, 0, AddLoop, nullptr), SK_OK);
  EXPECT_EQ(host.calls, 2);
}

}  // namespace
}  // namespace stridekit
