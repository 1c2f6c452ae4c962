// Uses the C++ API and the C ABI of the subproject; exits non-zero on a
// wrong answer.
#include <cstdio>

#include "stridekit/shape.h"
#include "stridekit/stridekit.h"

int main() {
  const stridekit::Dims a{8, 1, 6, 1}, b{7, 1, 5};
  const stridekit::Dims out = stridekit::Broadcast(a, b);
  int64_t n = 0;
  const int64_t shape[2] = {3, 4};
  if (sk_numel(2, shape, &n) != SK_OK || n != 12) return 1;
  if (stridekit::ToString(out) != "[8,7,6,5]") return 2;
  std::printf("consumer linked stridekit %s: %s\n", sk_version(),
              stridekit::ToString(out).c_str());
  return 0;
}
