#include "stridekit/error.h"

namespace stridekit {

const char* ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument:
      return "invalid argument";
    case ErrorKind::kOutOfRange:
      return "out of range";
    case ErrorKind::kOverflow:
      return "overflow";
    case ErrorKind::kNeedsCopy:
      return "needs copy";
    case ErrorKind::kUnsupported:
      return "unsupported";
    case ErrorKind::kNoMemory:
      return "no memory";
  }
  return "unknown";
}

}  // namespace stridekit
