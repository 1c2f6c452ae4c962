// Equivalence harness: every test of a suite derived from TargetTest runs once
// per available target (stridekit/targets.h) with that target forced, and
// compares kernel outcomes (results or errors) with the scalar reference.
#ifndef STRIDEKIT_TESTS_EQUIVALENCE_H_
#define STRIDEKIT_TESTS_EQUIVALENCE_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "dispatch/target_registry.h"
#include "stridekit/error.h"
#include "stridekit/targets.h"

namespace stridekit::testing {

// The available targets the tests force, best first: all of them (also when
// STRIDEKIT_TEST_TARGETS is empty), or those named in STRIDEKIT_TEST_TARGETS
// (comma-separated, e.g. "SVE_256" or "NEON,reference"), each of which must be
// available (else the program stops): each emulated CPU model tests only the
// target it selects, since the others are tested on the models that select
// them. Read once per program.
inline const std::vector<std::string>& TestedTargets() {
  static const std::vector<std::string> tested = [] {
    std::vector<std::string> names;
    const char* env = std::getenv("STRIDEKIT_TEST_TARGETS");
    if (env == nullptr || *env == '\0') {
      for (std::string_view name : AvailableTargets()) names.emplace_back(name);
      return names;
    }
    std::vector<std::string> wanted;
    for (std::string rest = env; !rest.empty();) {
      const size_t comma = rest.find(',');
      wanted.push_back(rest.substr(0, comma));
      rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    }
    for (std::string_view name : AvailableTargets()) {
      if (std::find(wanted.begin(), wanted.end(), name) != wanted.end()) {
        names.emplace_back(name);
      }
    }
    if (names.size() != wanted.size()) {
      std::fprintf(stderr,
                   "STRIDEKIT_TEST_TARGETS=%s names a target this CPU "
                   "does not have\n",
                   env);
      std::abort();
    }
    return names;
  }();
  return tested;
}

// Forces the parameter's target for the duration of each test.
class TargetTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { ForceTarget(GetParam()); }
  void TearDown() override { ResetTarget(); }

  // Expects that the last dispatched kernel call ran the forced target's
  // code (the kernels report the target they were compiled for).
  void ExpectForcedTargetRan() const {
    EXPECT_EQ(LastKernelTarget(), GetParam());
  }
};

// Instantiates `suite` (derived from TargetTest) once per tested target;
// test names end in the target name ("/AVX2", "/reference").
#define STRIDEKIT_INSTANTIATE_FOR_EACH_TARGET(suite)              \
  INSTANTIATE_TEST_SUITE_P(                                       \
      Targets, suite,                                             \
      ::testing::ValuesIn(::stridekit::testing::TestedTargets()), \
      [](const ::testing::TestParamInfo<std::string>& info) {     \
        return info.param;                                        \
      })

// Calls body(target_name) once per tested SIMD target (the reference
// excluded: bodies compare against it), with that target forced through
// the registry, inside a gtest trace naming it; expects any kernel the body
// ran (bodies whose calls fail or have nothing to do run none) to have been
// that target's code. Restores the best target afterwards.
template <typename Body>
void ForEachTarget(Body&& body) {
  for (const std::string& name : TestedTargets()) {
    if (name == "reference") continue;
    ForceTarget(name);
    SCOPED_TRACE("target " + name);
    ClearLastKernelTarget();
    body(name);
    if (!LastKernelTarget().empty()) {
      EXPECT_EQ(LastKernelTarget(), name);
    }
  }
  ResetTarget();
}

// The observable result of a kernel call: its output, or its error (whose
// output is unspecified and not compared).
struct Outcome {
  bool ok = true;
  ErrorKind kind = ErrorKind::kInvalidArgument;
  std::string message;
  std::vector<int64_t> out;

  friend bool operator==(const Outcome& a, const Outcome& b) {
    if (a.ok != b.ok) return false;
    return a.ok ? a.out == b.out : a.kind == b.kind && a.message == b.message;
  }
  friend void PrintTo(const Outcome& o, std::ostream* os) {
    if (!o.ok) {
      *os << "error " << ErrorKindName(o.kind) << ": " << o.message;
      return;
    }
    *os << "[";
    for (size_t i = 0; i < o.out.size() && i < 64; ++i) {
      *os << (i ? "," : "") << o.out[i];
    }
    *os << (o.out.size() > 64 ? ",...]" : "]");
  }
};

// Runs kernel(out) on an output of `size` elements placed `misalign`
// elements past a vector-aligned start, and captures the outcome.
template <class Kernel>
Outcome RunKernel(size_t size, size_t misalign, Kernel&& kernel) {
  std::vector<int64_t> storage(size + misalign + 1, -7);
  int64_t* out = storage.data() + misalign;
  Outcome outcome;
  try {
    kernel(out);
    outcome.out.assign(out, out + size);
  } catch (const Error& e) {
    outcome.ok = false;
    outcome.kind = e.kind();
    outcome.message = e.what();
  }
  return outcome;
}

// Batch sizes around every vector width up to 32 lanes, and a large one.
inline std::vector<int64_t> BatchSizes() {
  return {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 1000};
}

}  // namespace stridekit::testing

#endif  // STRIDEKIT_TESTS_EQUIVALENCE_H_
