#include "allocation.h"

#include <atomic>
#include <new>

#include "stridekit/error.h"

namespace stridekit {
namespace {
std::atomic<int64_t> allocations_before_failure{-1};
}  // namespace

Buffer AllocateBuffer(int64_t bytes, const char* op) {
  if (bytes < 0) {
    Fail(ErrorKind::kInvalidArgument, op, ": negative buffer size ", bytes);
  }
  int64_t left = allocations_before_failure.load(std::memory_order_relaxed);
  while (left >= 0 && !allocations_before_failure.compare_exchange_weak(
                          left, left - 1, std::memory_order_relaxed)) {
  }
  Buffer buffer;
  if (left != 0) {
    buffer.reset(new (std::nothrow) unsigned char[size_t(bytes)]);
  }
  if (!buffer) {
    Fail(ErrorKind::kNoMemory, op, ": cannot allocate a ", bytes,
         "-byte buffer");
  }
  return buffer;
}

void FailAllocationAfterForTest(int64_t successes) {
  allocations_before_failure.store(successes < 0 ? -1 : successes);
}

}  // namespace stridekit
