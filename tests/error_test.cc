// ErrorKindName: the name of every error kind, and of a value no kind has.
#include "stridekit/error.h"

#include <gtest/gtest.h>

#include <string>

namespace stridekit {
namespace {

TEST(Error, KindNames) {
  EXPECT_EQ(std::string(ErrorKindName(ErrorKind::kInvalidArgument)),
            "invalid argument");
  EXPECT_EQ(std::string(ErrorKindName(ErrorKind::kOutOfRange)), "out of range");
  EXPECT_EQ(std::string(ErrorKindName(ErrorKind::kOverflow)), "overflow");
  EXPECT_EQ(std::string(ErrorKindName(ErrorKind::kNeedsCopy)), "needs copy");
  EXPECT_EQ(std::string(ErrorKindName(ErrorKind::kUnsupported)), "unsupported");
  EXPECT_EQ(std::string(ErrorKindName(ErrorKind::kNoMemory)), "no memory");
  EXPECT_EQ(std::string(ErrorKindName(static_cast<ErrorKind>(99))), "unknown");
}

}  // namespace
}  // namespace stridekit
