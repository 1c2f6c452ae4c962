// Helpers shared by the gtest suites.
#ifndef STRIDEKIT_TESTS_TEST_UTIL_H_
#define STRIDEKIT_TESTS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "stridekit/dims.h"
#include "stridekit/error.h"

namespace stridekit::testing {

inline std::vector<int64_t> Vec(DimsView d) { return {d.begin(), d.end()}; }

// False when STRIDEKIT_TEST_NO_THREADS is set: under this machine's
// qemu-user a program that starts a std::thread hangs, so emulated runs
// test the single-threaded paths only.
inline bool ThreadsAllowed() {
  return std::getenv("STRIDEKIT_TEST_NO_THREADS") == nullptr;
}

// Random-case counts: `n`, or a tenth of it when STRIDEKIT_TEST_QUICK is set
// (emulated runs under qemu-user, where every case costs ~30x more, and the
// sanitizer stage; the release build runs every trial on every target).
inline int Trials(int n) {
  static const bool quick = std::getenv("STRIDEKIT_TEST_QUICK") != nullptr;
  return quick ? (n + 9) / 10 : n;
}

// Asserts that `statement` throws stridekit::Error of `kind` whose message
// equals `message` exactly.
#define EXPECT_SK_ERROR(statement, want_kind, want_message)        \
  do {                                                             \
    try {                                                          \
      statement;                                                   \
      ADD_FAILURE() << "expected an error: " << (want_message);    \
    } catch (const ::stridekit::Error& e) {                        \
      EXPECT_EQ(e.kind(), (want_kind)) << e.what();                \
      EXPECT_EQ(std::string(e.what()), std::string(want_message)); \
    }                                                              \
  } while (0)

}  // namespace stridekit::testing

#endif  // STRIDEKIT_TESTS_TEST_UTIL_H_
