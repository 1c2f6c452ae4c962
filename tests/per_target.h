// Runs a test body once per Highway target that is both compiled into the
// library and supported by this CPU (Highway's own test pattern), so the
// dispatched kernels of every target are checked, not only the best one.
#ifndef STRIDEKIT_TESTS_PER_TARGET_H_
#define STRIDEKIT_TESTS_PER_TARGET_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "hwy/targets.h"

namespace stridekit::testing {

// Calls body(target_name) with each target forced in turn, then restores
// Highway's own choice. Each call runs inside a gtest scoped trace that
// names the target.
template <typename Body>
void ForEachTarget(Body&& body) {
  for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    const std::string name = hwy::TargetName(target);
    SCOPED_TRACE("target " + name);
    body(name);
  }
  hwy::SetSupportedTargetsForTest(0);
}

}  // namespace stridekit::testing

#endif  // STRIDEKIT_TESTS_PER_TARGET_H_
