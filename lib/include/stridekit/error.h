// Errors thrown by the C++ API. Every failure names the operation and the
// offending values; the C ABI maps ErrorKind to sk_status.
#ifndef STRIDEKIT_ERROR_H_
#define STRIDEKIT_ERROR_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace stridekit {

enum class ErrorKind {
  kInvalidArgument = 1,  // Bad shape, axis, spec, dtype or incompatible shapes.
  kOutOfRange = 2,       // An index or bound outside its range.
  kOverflow = 3,         // A size, stride or offset does not fit in int64.
  kNeedsCopy = 4,        // Not expressible as a view of the same buffer.
  kUnsupported = 5,      // Unsupported dtype/op combination or target name.
  kNoMemory = 6,         // A temporary buffer could not be allocated.
};

// Returns "invalid argument", "out of range", ... for messages and tests.
const char* ErrorKindName(ErrorKind kind);

class Error : public std::invalid_argument {
 public:
  Error(ErrorKind kind, const std::string& message)
      : std::invalid_argument(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

// Concatenates the streamable arguments into one message string.
template <typename... Parts>
std::string StrCat(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

// Throws Error(kind, StrCat(parts...)). Only called on failure paths.
template <typename... Parts>
[[noreturn]] void Fail(ErrorKind kind, const Parts&... parts) {
  throw Error(kind, StrCat(parts...));
}

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_ERROR_H_
