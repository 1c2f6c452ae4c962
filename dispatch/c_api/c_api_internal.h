// Shared plumbing of the C ABI translation units: exception-to-status mapping
// with a thread-local message, and argument checks for raw pointers.
#ifndef STRIDEKIT_LIB_C_API_INTERNAL_H_
#define STRIDEKIT_LIB_C_API_INTERNAL_H_

#include <cstdio>
#include <cstring>
#include <new>
#include <span>

#include "stridekit/dims.h"
#include "stridekit/dtype.h"
#include "stridekit/error.h"
#include "stridekit/numeric_options.h"
#include "stridekit/parallel.h"
#include "stridekit/stridekit.h"

namespace stridekit::capi {

// Records `message` as this thread's last error and returns `status`.
sk_status SetError(sk_status status, const char* message);
// SetError with "op: message", formatted without allocating.
inline sk_status SetPrefixedError(sk_status status, const char* op,
                                  const char* message) {
  char text[512];
  std::snprintf(text, sizeof(text), "%s: %s", op, message);
  return SetError(status, text);
}

// Runs body (which returns void) and maps any exception to a status.
// Runs body, turning every exception into a status and this thread's
// message; messages that do not come from a stridekit::Error (allocation
// failures of the library's containers, errors of the standard library) are
// prefixed with `op`, the sk_ function.
template <typename Body>
sk_status Guard(const char* op, Body&& body) noexcept {
  try {
    body();
    return SK_OK;
  } catch (const Error& e) {
    return SetError(static_cast<sk_status>(e.kind()), e.what());
  } catch (const std::bad_alloc&) {
    return SetPrefixedError(SK_ERR_NOMEM, op, "out of memory");
  } catch (const std::exception& e) {
    return SetPrefixedError(SK_ERR_INVALID, op, e.what());
  } catch (...) {
    return SetPrefixedError(SK_ERR_INVALID, op, "unknown error");
  }
}

// Throws unless p is non-null; `what` names the argument and operation.
inline void RequireNonNull(const void* p, const char* op, const char* what) {
  if (p == nullptr)
    Fail(ErrorKind::kInvalidArgument, op, ": ", what, " is NULL");
}

// A span over an ndim-long array argument, checking ndim and the pointer
// (which may be NULL when ndim is 0).
inline std::span<const int64_t> ArrayArg(int32_t ndim, const int64_t* p,
                                         const char* op, const char* what) {
  if (ndim < 0 || ndim > SK_MAX_NDIM) {
    Fail(ErrorKind::kInvalidArgument, op, ": ndim ", ndim, " is outside [0, ",
         SK_MAX_NDIM, "]");
  }
  if (ndim > 0) RequireNonNull(p, op, what);
  return {p, size_t(ndim)};
}

// The integer a caller passed for a C enum parameter, read without an enum
// load: callers in other languages may pass values outside the enum.
template <typename Enum>
inline int32_t RawEnumValue(const Enum& value) {
  static_assert(sizeof(Enum) == sizeof(int32_t));
  int32_t raw;
  std::memcpy(&raw, &value, sizeof(raw));
  return raw;
}

// A C enum argument as the C++ enum of the same values, unchecked: the C++
// API rejects values it does not know.
template <typename CppEnum, typename CEnum>
inline CppEnum EnumArg(const CEnum& value) {
  return static_cast<CppEnum>(RawEnumValue(value));
}

// The element size of a C dtype (copy and fill); kUnsupported for an
// unknown value.
inline size_t ElemSize(const sk_dtype& t, const char* op) {
  const int32_t raw = RawEnumValue(t);
  if (!IsValidDType(raw)) {
    Fail(ErrorKind::kUnsupported, op, ": unknown dtype ", raw);
  }
  return DTypeSize(static_cast<DType>(raw));
}

// The options of a numeric kernel called through the C ABI: sk_get_threads()
// threads.
inline NumericOptions ThreadOptions() {
  NumericOptions options;
  options.threads = GetThreads();
  return options;
}

// Copies d into out (which has room for d.size() entries).
inline void CopyOut(std::span<const int64_t> d, int64_t* out) {
  for (size_t i = 0; i < d.size(); ++i) out[i] = d[i];
}

}  // namespace stridekit::capi

#endif  // STRIDEKIT_LIB_C_API_INTERNAL_H_
