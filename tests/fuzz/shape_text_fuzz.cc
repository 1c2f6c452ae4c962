// Fuzzes ParseShape: any text either fails with stridekit::Error or parses
// to a shape whose ToString parses back to the same shape.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "stridekit/shape.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  stridekit::Dims shape;
  try {
    shape = stridekit::ParseShape(text);
  } catch (const stridekit::Error&) {
    return 0;
  }
  if (!(stridekit::ParseShape(stridekit::ToString(shape)) == shape)) abort();
  return 0;
}
