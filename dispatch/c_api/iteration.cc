// C ABI: the strided iterator, threads and the host's executor (C_API.md
// "Iteration and threads"), thin wrappers of stridekit::StridedIterator and
// parallel.h.
#include <algorithm>
#include <array>
#include <string>

#include "c_api_internal.h"
#include "stridekit/iterator.h"
#include "stridekit/numeric_options.h"
#include "stridekit/parallel.h"

using stridekit::ErrorKind;
using stridekit::Fail;
using stridekit::capi::Guard;
using stridekit::capi::RequireNonNull;

struct sk_iter {
  sk_iter(std::span<const stridekit::IterOperand> operands,
          const stridekit::IteratorOptions& options)
      : iterator(operands, options), description(iterator.Describe()) {}
  stridekit::StridedIterator iterator;
  std::string description;
};

namespace {

// The operands of an sk_iter_new / sk_iter_run call, checked.
struct Operands {
  std::array<stridekit::IterOperand, stridekit::kMaxOperands> list;
  size_t count;
  stridekit::IteratorOptions options;
  std::span<const stridekit::IterOperand> span() const {
    return {list.data(), count};
  }
};

Operands ReadOperands(int32_t nop, const sk_view* const* views,
                      const size_t* elsizes, void* const* datas, uint32_t flags,
                      const char* op) {
  if (nop < 1 || nop > stridekit::kMaxOperands) {
    Fail(ErrorKind::kInvalidArgument, op, ": nop ", nop, " is outside [1, ",
         stridekit::kMaxOperands, "]");
  }
  RequireNonNull(views, op, "views");
  RequireNonNull(elsizes, op, "elsizes");
  RequireNonNull(datas, op, "datas");
  if ((flags & ~uint32_t{SK_ITER_REDUCE_OK}) != 0) {
    Fail(ErrorKind::kInvalidArgument, op, ": unknown flags 0x", std::hex, flags,
         " (known: SK_ITER_REDUCE_OK = 1)");
  }
  Operands operands{};
  operands.count = size_t(nop);
  for (int32_t k = 0; k < nop; ++k) {
    if (views[k] == nullptr) {
      Fail(ErrorKind::kInvalidArgument, op, ": views[", k, "] is NULL");
    }
    operands.list[size_t(k)] = {views[k], elsizes[k], datas[k]};
  }
  operands.options.reduce_ok = (flags & SK_ITER_REDUCE_OK) != 0;
  operands.options.op = op;
  return operands;
}

}  // namespace

extern "C" {

sk_status sk_iter_new(int32_t nop, const sk_view* const* views,
                      const size_t* elsizes, void* const* datas, uint32_t flags,
                      sk_iter** out) {
  return Guard(__func__, [&] {
    constexpr char kOp[] = "sk_iter_new";
    RequireNonNull(out, kOp, "out");
    *out = nullptr;
    const Operands operands =
        ReadOperands(nop, views, elsizes, datas, flags, kOp);
    *out = new sk_iter(operands.span(), operands.options);
  });
}

int32_t sk_iter_next(sk_iter* it, char** ptrs, int64_t* count,
                     int64_t* byte_strides) {
  int32_t more = 0;
  const sk_status status = Guard(__func__, [&] {
    constexpr char kOp[] = "sk_iter_next";
    RequireNonNull(it, kOp, "it");
    RequireNonNull(ptrs, kOp, "ptrs");
    RequireNonNull(count, kOp, "count");
    RequireNonNull(byte_strides, kOp, "byte_strides");
    more = it->iterator.Next(ptrs, count, byte_strides) ? 1 : 0;
  });
  return status == SK_OK ? more : 0;
}

const char* sk_iter_describe(const sk_iter* it) {
  return it == nullptr ? "" : it->description.c_str();
}

void sk_iter_free(sk_iter* it) { delete it; }

sk_status sk_iter_run(int32_t nop, const sk_view* const* views,
                      const size_t* elsizes, void* const* datas, uint32_t flags,
                      sk_loop_fn loop, void* ctx) {
  return Guard(__func__, [&] {
    constexpr char kOp[] = "sk_iter_run";
    RequireNonNull(reinterpret_cast<const void*>(loop), kOp, "loop");
    const Operands operands =
        ReadOperands(nop, views, elsizes, datas, flags, kOp);
    const stridekit::StridedIterator iterator(operands.span(),
                                              operands.options);
    // As the dispatched kernels: a part gets at least
    // kMinElementsPerThread elements.
    const int64_t most = std::max<int64_t>(
        1, iterator.numel() / stridekit::NumericOptions::kMinElementsPerThread);
    const int parts = int(std::min<int64_t>(stridekit::GetThreads(), most));
    iterator.Run(parts, loop, ctx);
  });
}

sk_status sk_set_threads(int32_t n) {
  return Guard(__func__, [&] { stridekit::SetThreads(n); });
}

int32_t sk_get_threads(void) { return stridekit::GetThreads(); }

sk_status sk_set_executor(sk_executor_fn run, void* host) {
  return Guard(__func__, [&] { stridekit::SetExecutor(run, host); });
}

}  // extern "C"
