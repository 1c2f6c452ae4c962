// Fuzzes the strided iterator (sk_iter_new / sk_iter_next / sk_iter_run)
// against a brute-force model. The input picks 1..8 operands (sometimes a
// hostile count), element sizes, views (masks, broadcast, negative and zero
// strides, hostile fields) and flags; each operand has its own heap buffer
// sized to the span this harness computes. Every chunk element the
// iterator hands out must lie inside the buffers at an element boundary,
// and the multiset of (output element, input bytes) visits must equal the
// model's: every index of the output's valid box once, inputs broadcast to
// the output's shape (NumPy rules). sk_iter_new and sk_iter_run (1 or 3
// threads) must accept the same calls and visit the same elements.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fuzz_input.h"
#include "stridekit/stridekit.h"

using stridekit::fuzz::FuzzInput;
using stridekit::fuzz::Print;
using stridekit::fuzz::ValidRange;

namespace {

constexpr int kMaxOperands = 8;
constexpr __int128 kMaxBytes = 1 << 16;

struct Operand {
  sk_view view;
  size_t elsize;
  std::vector<unsigned char> buffer;
};

// Per output element (a position in operand 0's buffer): how often it was
// visited and a sum over the visits of each input's first byte, weighted
// by the input's number. Updated atomically (sk_iter_run's loop may run
// concurrently).
struct Visits {
  std::vector<uint64_t> count, sum;
  explicit Visits(size_t n) : count(n), sum(n) {}
  bool operator==(const Visits&) const = default;
};

struct Walk {
  std::vector<Operand>* operands;
  Visits* visits;
  bool bad = false;  // an element outside its buffer or misaligned
};

[[noreturn]] void Die(const char* what, sk_status a, sk_status b,
                      const std::vector<Operand>& operands, uint32_t flags) {
  std::fprintf(stderr, "iter_fuzz: %s (status %d vs %d: %s), flags %u\n", what,
               int(a), int(b), sk_last_error(), flags);
  for (const Operand& op : operands) {
    std::fprintf(stderr, "element size %zu, ", op.elsize);
    Print("view", op.view);
  }
  abort();
}

// The element of operand k at byte address p, or -1 when p is outside its
// buffer or not at an element boundary.
int64_t ElementAt(const Operand& op, const char* p) {
  const auto* base = reinterpret_cast<const char*>(op.buffer.data());
  if (p < base || p >= base + op.buffer.size()) return -1;
  const auto bytes = size_t(p - base);
  return bytes % op.elsize == 0 ? int64_t(bytes / op.elsize) : -1;
}

void Loop(char* const* ptrs, int64_t count, const int64_t* strides, void* ctx) {
  auto& walk = *static_cast<Walk*>(ctx);
  const std::vector<Operand>& ops = *walk.operands;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t out = ElementAt(ops[0], ptrs[0] + i * strides[0]);
    uint64_t sum = 0;
    bool ok = out >= 0;
    for (size_t k = 1; k < ops.size() && ok; ++k) {
      const char* p = ptrs[k] + i * strides[k];
      ok = ElementAt(ops[k], p) >= 0;
      if (ok) sum += k * uint64_t(static_cast<unsigned char>(*p));
    }
    if (!ok) {
      __atomic_store_n(&walk.bad, true, __ATOMIC_RELAXED);
      return;
    }
    __atomic_fetch_add(&walk.visits->count[size_t(out)], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&walk.visits->sum[size_t(out)], sum, __ATOMIC_RELAXED);
  }
}

// The model's visits, or false when the operands' shapes do not broadcast
// to the output's (NumPy rules) or the output mask is not a box.
bool Model(std::vector<Operand>& ops, Visits& visits) {
  const sk_view& out = ops[0].view;
  int64_t first[SK_MAX_NDIM], last[SK_MAX_NDIM];  // the valid box, inclusive
  for (int d = 0; d < out.ndim; ++d) {
    first[d] = out.has_mask ? std::max<int64_t>(out.mask_begin[d], 0) : 0;
    last[d] = (out.has_mask ? std::min(out.mask_end[d], out.shape[d])
                            : out.shape[d]) -
              1;
    if (last[d] < first[d]) return true;  // empty: no visits
  }
  for (size_t k = 1; k < ops.size(); ++k) {
    const sk_view& v = ops[k].view;
    if (v.ndim > out.ndim) return false;
    for (int d = 0; d < v.ndim; ++d) {
      const int64_t o = out.shape[out.ndim - v.ndim + d];
      if (v.shape[d] != o && v.shape[d] != 1) return false;
    }
  }
  int64_t index[SK_MAX_NDIM];
  for (int d = 0; d < out.ndim; ++d) index[d] = first[d];
  for (;;) {
    __int128 at = out.offset;
    for (int d = 0; d < out.ndim; ++d)
      at += __int128(index[d]) * out.strides[d];
    uint64_t sum = 0;
    for (size_t k = 1; k < ops.size(); ++k) {
      const sk_view& v = ops[k].view;
      __int128 in_at = v.offset;
      for (int d = 0; d < v.ndim; ++d) {
        if (v.shape[d] != 1) {
          in_at += __int128(index[out.ndim - v.ndim + d]) * v.strides[d];
        }
      }
      sum += k * uint64_t(ops[k].buffer[size_t(in_at) * ops[k].elsize]);
    }
    visits.count[size_t(at)] += 1;
    visits.sum[size_t(at)] += sum;
    int d = out.ndim - 1;
    for (; d >= 0; --d) {
      if (++index[d] <= last[d]) break;
      index[d] = first[d];
    }
    if (d < 0) return true;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const bool tame = in.Byte() % 8 != 0;
  const int32_t nop =
      in.Byte() % 32 == 0 ? int32_t(in.Range(-1, 10)) : int32_t(in.Range(1, 4));
  const uint32_t flags =
      in.Byte() % 32 == 0 ? uint32_t(in.Byte()) : uint32_t(in.Byte() % 2);
  std::vector<Operand> ops(size_t(std::clamp(nop, 1, kMaxOperands)));
  for (Operand& op : ops) {
    op.elsize =
        in.Byte() % 32 == 0 ? size_t(in.Int()) : size_t(in.Range(1, 16));
    op.view = in.View(tame);
  }
  // Mostly inputs shaped to broadcast to the output.
  const sk_view& out = ops[0].view;
  for (size_t k = 1; k < ops.size(); ++k) {
    sk_view& v = ops[k].view;
    if (in.Byte() % 4 == 0 || v.ndim < 0 || v.ndim > out.ndim ||
        out.ndim > SK_MAX_NDIM) {
      continue;
    }
    for (int d = 0; d < v.ndim; ++d) {
      v.shape[d] = in.Byte() % 4 == 0 ? 1 : out.shape[out.ndim - v.ndim + d];
    }
    if (in.Byte() % 2) v.has_mask = 0;
  }
  bool backed = nop >= 1 && nop <= kMaxOperands;
  for (Operand& op : ops) {
    __int128 lo, hi;
    backed = backed && op.elsize >= 1 && op.elsize <= 16 &&
             ValidRange(op.view, lo, hi) && lo >= 0 &&
             (hi + 1) * op.elsize <= kMaxBytes;
    if (!backed) break;
    op.buffer.resize(size_t(hi + 1) * op.elsize);
    in.Fill(op.buffer.data(), op.buffer.size());
  }
  const sk_view* views[kMaxOperands];
  size_t elsizes[kMaxOperands];
  void* datas[kMaxOperands];
  for (size_t k = 0; k < ops.size(); ++k) {
    views[k] = &ops[k].view;
    elsizes[k] = ops[k].elsize;
    datas[k] = backed ? ops[k].buffer.data() : nullptr;
  }
  sk_iter* it = nullptr;
  const sk_status status = sk_iter_new(nop, views, elsizes, datas, flags, &it);
  if ((status == SK_OK) != (it != nullptr)) {
    Die("sk_iter_new's status and handle disagree", status, status, ops, flags);
  }
  if (it != nullptr && sk_iter_describe(it) == nullptr) {
    Die("sk_iter_describe returned NULL", status, status, ops, flags);
  }
  if (!backed) {
    // Walk a few chunks without touching memory: the views may be huge.
    char* ptrs[kMaxOperands];
    int64_t count, strides[kMaxOperands];
    for (int i = 0; it != nullptr && i < 4; ++i) {
      if (!sk_iter_next(it, ptrs, &count, strides)) break;
    }
    sk_iter_free(it);
    return 0;
  }
  const size_t out_elements = ops[0].buffer.size() / ops[0].elsize;
  Visits by_next(out_elements), by_run(out_elements), want(out_elements);
  Walk walk{&ops, &by_next};
  if (it != nullptr) {
    char* ptrs[kMaxOperands];
    int64_t count, strides[kMaxOperands];
    while (sk_iter_next(it, ptrs, &count, strides)) {
      if (count < 0) Die("a negative chunk", status, status, ops, flags);
      Loop(ptrs, count, strides, &walk);
    }
    sk_iter_free(it);
  }
  if (walk.bad)
    Die("sk_iter_next: an element outside its buffer", status, status, ops,
        flags);
  if (sk_set_threads(in.Byte() % 2 ? 3 : 1) != SK_OK) abort();
  Walk run_walk{&ops, &by_run};
  const sk_status run_status =
      sk_iter_run(nop, views, elsizes, datas, flags, Loop, &run_walk);
  sk_set_threads(1);
  if (run_status != status) {
    Die("sk_iter_run and sk_iter_new disagree on accepting", run_status, status,
        ops, flags);
  }
  if (run_walk.bad)
    Die("sk_iter_run: an element outside its buffer", run_status, status, ops,
        flags);
  if (status != SK_OK) return 0;
  if (!Model(ops, want)) {
    Die("accepted operands that do not broadcast to the output", status, status,
        ops, flags);
  }
  if (!(by_next == want))
    Die("sk_iter_next's visits differ from the model's", status, status, ops,
        flags);
  if (!(by_run == want))
    Die("sk_iter_run's visits differ from the model's", run_status, status, ops,
        flags);
  return 0;
}
