// A CMake project that finds an installed stridekit with
// find_package(stridekit) and uses its C++ API and C ABI the way README's
// tour does; exits non-zero on a wrong answer.
#include <cstdio>
#include <cstring>

#include "stridekit/copy.h"
#include "stridekit/shape.h"
#include "stridekit/stridekit.h"

int main() {
  using namespace stridekit;
  const Dims a{8, 1, 6, 1}, b{7, 1, 5};
  const Dims out = Broadcast(a, b);
  if (ToString(out) != "[8,7,6,5]") return 1;
  int64_t n = 0;
  const int64_t shape[2] = {3, 4};
  if (sk_numel(2, shape, &n) != SK_OK || n != 12) return 2;

  float data[6] = {0, 1, 2, 3, 4, 5};  // [2,3], C order
  sk_view at{};                        // data.T: [3,2]
  at.ndim = 2;
  at.shape[0] = 3, at.shape[1] = 2;
  at.strides[0] = 1, at.strides[1] = 3;
  const Materialized t = Materialize(sizeof(float), at, data);
  const float want[6] = {0, 3, 1, 4, 2, 5};
  if (std::memcmp(t.data.get(), want, sizeof(want)) != 0) return 3;

  std::printf("consumer linked stridekit %s: %s, transpose ok\n", sk_version(),
              ToString(out).c_str());
  return 0;
}
