// Golden vectors of reference/gomlx_numsharp.md 1.10 for LogicalShape, with
// every error case (kind and message), iteration, and the serialization
// (round trips, and every truncation and single-byte corruption either
// rejected cleanly or decoding to a valid shape).
#include "stridekit/logical_shape.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "test_util.h"

namespace stridekit {
namespace {

using testing::Vec;
using V = std::vector<int64_t>;
using Names = std::vector<std::string_view>;
constexpr ErrorKind kInvalid = ErrorKind::kInvalidArgument;

LogicalShape F32(V dims) { return LogicalShape::Make(DType::kFloat32, dims); }
LogicalShape Dyn(V dims, Names names) {
  return LogicalShape::MakeDynamic(DType::kFloat32, dims, names);
}

TEST(LogicalShape, Vectors1To6) {
  const LogicalShape scalar = LogicalShape::Make(DType::kFloat64, V{});
  EXPECT_TRUE(scalar.ok());
  EXPECT_TRUE(scalar.IsScalar());
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.Size(), 1);
  EXPECT_EQ(scalar.ByteSize(), 8);
  EXPECT_EQ(scalar.String(), "(Float64)");
  const LogicalShape s = F32({4, 3, 2});
  EXPECT_EQ(s.rank(), 3);
  EXPECT_EQ(s.Size(), 24);
  EXPECT_EQ(s.ByteSize(), 96);
  EXPECT_EQ(LogicalShape::Make(DType::kInt64, V{2, 3}).ByteSize(), 48);
  EXPECT_EQ(LogicalShape::Make(DType::kBFloat16, V{1, 1, 1}).ByteSize(), 2);
  EXPECT_EQ(s.Dim(0), 4);
  EXPECT_EQ(s.Dim(1), 3);
  EXPECT_EQ(s.Dim(2), 2);
  EXPECT_EQ(s.Dim(-3), 4);
  EXPECT_EQ(s.Dim(-1), 2);
  EXPECT_SK_ERROR(s.Dim(3), ErrorKind::kOutOfRange,
                  "dim: axis 3 is out of range for (Float32)[4, 3, 2]");
  EXPECT_SK_ERROR(s.Dim(-4), ErrorKind::kOutOfRange,
                  "dim: axis -4 is out of range for (Float32)[4, 3, 2]");
  EXPECT_FALSE(LogicalShape().ok());
  EXPECT_EQ(LogicalShape().String(), "(InvalidDType)");
  EXPECT_SK_ERROR(F32({2, -1}), kInvalid,
                  "shape: dimension -1 at axis 1 of [2,-1] is negative "
                  "(dynamic axes need MakeDynamic and a name)");
}

TEST(LogicalShape, DynamicShapes8To15) {
  const LogicalShape d = Dyn({-1, 512}, {"batch", ""});
  EXPECT_EQ(Vec(d.dims()), V({-1, 512}));
  EXPECT_EQ(d.AxisName(0), "batch");
  EXPECT_EQ(d.rank(), 2);
  EXPECT_EQ(d.String(), "(Float32)[batch=?, 512]");
  EXPECT_EQ(Dyn({-1, -1, 768}, {"batch", "seq_len", ""}).String(),
            "(Float32)[batch=?, seq_len=?, 768]");
  const Names batch_features = {"batch", "features"};
  const LogicalShape plain = F32({32, 512});
  EXPECT_EQ(plain.WithAxisNames(batch_features).String(),
            "(Float32)[batch=32, features=512]");
  EXPECT_FALSE(plain.has_axis_names());
  const Names one = {"batch"};
  EXPECT_SK_ERROR(plain.WithAxisNames(one), kInvalid,
                  "with_axis_names: 1 axis names for a shape of rank 2");
  EXPECT_SK_ERROR(Dyn({-1, 512}, {"batch"}), kInvalid,
                  "shape: 1 axis names for a shape of rank 2");
  EXPECT_SK_ERROR(Dyn({-1, 512}, {"", ""}), kInvalid,
                  "shape: dynamic axis 0 must be named");
  const Names unnamed = {"", "features"};
  EXPECT_SK_ERROR(d.WithAxisNames(unnamed), kInvalid,
                  "with_axis_names: dynamic axis 0 must be named");
  EXPECT_SK_ERROR(Dyn({-2, 512}, {"a", ""}), kInvalid,
                  "shape: dimension -2 at axis 0 is below -1 (the dynamic "
                  "dimension)");
  EXPECT_TRUE(d.IsAxisDynamic(0));
  EXPECT_FALSE(d.IsAxisDynamic(1));
  EXPECT_FALSE(d.IsAxisDynamic(-1));
  EXPECT_TRUE(d.IsAxisDynamic(-2));
  EXPECT_THROW(d.IsAxisDynamic(2), Error);
  EXPECT_THROW(d.IsAxisDynamic(-3), Error);
  EXPECT_EQ(d.AxisName(1), "");
  EXPECT_EQ(d.AxisName(-1), "");
  EXPECT_EQ(d.AxisName(-2), "batch");
  EXPECT_EQ(plain.AxisName(0), "");
  EXPECT_THROW(plain.AxisName(2), Error);  // GoMLX skips this check.
  // 13: equality (names "" == no names; "?" equals itself here).
  EXPECT_EQ(d, Dyn({-1, 512}, {"batch", ""}));
  EXPECT_NE(d, Dyn({-1, 512}, {"time", ""}));
  const Names empty2 = {"", ""};
  EXPECT_EQ(plain, plain.WithAxisNames(empty2));
  EXPECT_EQ(plain.WithAxisNames(empty2), plain);
  EXPECT_EQ(Dyn({-1}, {"?"}), Dyn({-1}, {"?"}));
  const Names time = {"time"};
  EXPECT_TRUE(F32({3}).WithAxisNames(one).EqualDimensions(
      LogicalShape::Make(DType::kFloat64, V{3}).WithAxisNames(time)));
  EXPECT_NE(F32({3}), LogicalShape::Make(DType::kFloat64, V{3}));
  // 14: copies are independent.
  LogicalShape copy = d;
  copy = copy.WithAxisNames(Names{"other", ""});
  EXPECT_EQ(d.AxisName(0), "batch");
  // 15: dynamic shapes have no size, strides or iteration.
  EXPECT_SK_ERROR(d.Size(), kInvalid,
                  "size: (Float32)[batch=?, 512] is dynamic; resolve it first");
  EXPECT_THROW(d.Strides(), Error);
  EXPECT_THROW(d.Iter(), Error);
  EXPECT_EQ(Dyn({-1}, {"?"}).String(), "(Float32)[?=?]");
}

TEST(LogicalShape, Concatenate17AndChecks18) {
  const LogicalShape c =
      ConcatenateDimensions(Dyn({-1, 512}, {"batch", ""}), F32({3, 4}));
  EXPECT_EQ(Vec(c.dims()), V({-1, 512, 3, 4}));
  EXPECT_EQ(c.AxisName(0), "batch");
  EXPECT_EQ(c.AxisName(3), "");
  EXPECT_EQ(ConcatenateDimensions(F32({}), F32({2})), F32({2}));
  EXPECT_EQ(ConcatenateDimensions(F32({2}), F32({})), F32({2}));
  EXPECT_FALSE(ConcatenateDimensions(F32({2}), F32({3})).has_axis_names());
  EXPECT_SK_ERROR(
      ConcatenateDimensions(F32({2}), LogicalShape::Make(DType::kInt32, V{3})),
      kInvalid,
      "concatenate_dimensions: (Float32)[2] and (Int32)[3] need valid, equal "
      "dtypes");
  const LogicalShape d = Dyn({-1, 512}, {"batch", ""});
  d.CheckDims(V{-1, 512});
  d.CheckDims(V{-1, -1});
  EXPECT_SK_ERROR(d.CheckDims(V{32, 512}), kInvalid,
                  "check: (Float32)[batch=?, 512] axis 0 has dimension -1, "
                  "want 32 (of [32,512])");
  EXPECT_SK_ERROR(d.CheckDims(V{512}), kInvalid,
                  "check: (Float32)[batch=?, 512] has rank 2, want rank 1");
  d.Check(DType::kFloat32, V{-1, 512});
  EXPECT_SK_ERROR(d.Check(DType::kInt32, V{-1, 512}), kInvalid,
                  "check: (Float32)[batch=?, 512] has dtype Float32, want "
                  "Int32");
  F32({}).CheckScalar();
  EXPECT_SK_ERROR(d.CheckScalar(), kInvalid,
                  "check: (Float32)[batch=?, 512] is not a scalar");
  d.CheckRank(2);
}

TEST(LogicalShape, AxisNames19And26And27) {
  EXPECT_TRUE(AxisNameEqual("a", "a"));
  EXPECT_FALSE(AxisNameEqual("a", "c"));
  EXPECT_FALSE(AxisNameEqual("?", "?"));
  EXPECT_FALSE(AxisNameEqual("a", "?"));
  EXPECT_EQ(UnifyAxisName("", ""), "");
  EXPECT_EQ(UnifyAxisName("batch", ""), "batch");
  EXPECT_EQ(UnifyAxisName("", "batch"), "batch");
  EXPECT_EQ(UnifyAxisName("batch", "batch"), "batch");
  EXPECT_SK_ERROR(UnifyAxisName("batch", "time"), kInvalid,
                  "unify: incompatible axis names \"batch\" and \"time\"");
  EXPECT_SK_ERROR(UnifyAxisName("?", ""), kInvalid,
                  "unify: incompatible axis names \"?\" and \"\"");
  const LogicalShape named = Dyn({-1, 512}, {"batch", ""});
  EXPECT_EQ(UnifyAxisNames(named, named),
            (std::vector<std::string>{"batch", ""}));
  EXPECT_EQ(UnifyAxisNames(named, F32({32, 512})),
            (std::vector<std::string>{"batch", ""}));
  EXPECT_TRUE(UnifyAxisNames(F32({2}), F32({2})).empty());
  EXPECT_THROW(UnifyAxisNames(named, Dyn({-1, 512}, {"time", ""})), Error);
  const LogicalShape anonymous = Dyn({-1, 512}, {"?", ""});
  EXPECT_THROW(UnifyAxisNames(anonymous, anonymous), Error);
  // GoMLX lets "?" through when the other side is unnamed; not here.
  EXPECT_THROW(UnifyAxisNames(anonymous, F32({3, 512})), Error);
  EXPECT_SK_ERROR(UnifyAxisNames(named, F32({3})), kInvalid,
                  "unify: (Float32)[batch=?, 512] and (Float32)[3] have "
                  "different ranks");
}

TEST(LogicalShape, Bindings20To25And28) {
  AxisBindings b;
  b.Set("seq_len", 128);
  b.Set("batch", 32);
  EXPECT_EQ(b.Key(), "batch=32,seq_len=128");
  EXPECT_EQ(AxisBindings().Key(), "");
  const LogicalShape d = Dyn({-1, 512}, {"batch", ""});
  AxisBindings batch32;
  batch32.Set("batch", 32);
  const LogicalShape r = d.Resolve(batch32);
  EXPECT_EQ(Vec(r.dims()), V({32, 512}));
  EXPECT_EQ(r.AxisName(0), "batch");
  EXPECT_FALSE(r.IsDynamic());
  EXPECT_SK_ERROR(d.Resolve(AxisBindings()), kInvalid,
                  "resolve: no binding for axis 0 \"batch\" of "
                  "(Float32)[batch=?, 512] in {}");
  for (int64_t bad : {0, -5}) {
    AxisBindings z;
    z.Set("batch", bad);
    EXPECT_SK_ERROR(d.Resolve(z), kInvalid,
                    "resolve: axis 0 \"batch\" of (Float32)[batch=?, 512] "
                    "resolves to " +
                        std::to_string(bad) +
                        "; dynamic axes must be positive");
  }
  AxisBindings two;
  two.Set("batch", 8);
  two.Set("seq_len", 256);
  EXPECT_EQ(
      Vec(Dyn({-1, -1, 768}, {"batch", "seq_len", ""}).Resolve(two).dims()),
      V({8, 256, 768}));
  EXPECT_EQ(Vec(Dyn({-1, 10}, {"=10+batch", ""}).Resolve(batch32).dims()),
            V({42, 10}));
  EXPECT_EQ(F32({32, 512}).Resolve(batch32), F32({32, 512}));
  // Partial resolution leaves unbound axes dynamic.
  EXPECT_EQ(
      Vec(Dyn({-1, -1}, {"batch", "time"}).ResolvePartial(batch32).dims()),
      V({32, -1}));
  // 25: Extract.
  AxisBindings e;
  e.Extract(d, F32({32, 512}));
  EXPECT_EQ(e.Key(), "batch=32");
  AxisBindings e2;
  e2.Extract(Dyn({-1, -1, 768}, {"batch", "seq_len", ""}), F32({8, 128, 768}));
  EXPECT_EQ(e2.Key(), "batch=8,seq_len=128");
  AxisBindings n;
  n.Extract(Dyn({-1, -1}, {"n", "n"}), F32({5, 5}));
  EXPECT_EQ(n.Key(), "n=5");
  AxisBindings conflict;
  EXPECT_SK_ERROR(conflict.Extract(Dyn({-1, -1}, {"n", "n"}), F32({5, 10})),
                  kInvalid,
                  "extract: conflicting values for \"n\": 5 and 10 (axis 1)");
  EXPECT_EQ(conflict.Key(), "");  // unchanged on failure
  EXPECT_SK_ERROR(AxisBindings().Extract(d, F32({1, 2, 3})), kInvalid,
                  "extract: rank mismatch between template "
                  "(Float32)[batch=?, 512] and (Float32)[1, 2, 3]");
  EXPECT_SK_ERROR(AxisBindings().Extract(d, F32({32, 256})), kInvalid,
                  "extract: dimension mismatch at axis 1: template "
                  "(Float32)[batch=?, 512], concrete (Float32)[32, 256]");
  EXPECT_THROW(
      AxisBindings().Extract(d, LogicalShape::Make(DType::kInt32, V{32, 512})),
      Error);
  // 28: extract, then resolve the template.
  const LogicalShape t = Dyn({-1, -1, 768}, {"batch", "seq", ""});
  AxisBindings round;
  round.Extract(t, F32({16, 64, 768}));
  EXPECT_EQ(Vec(t.Resolve(round).dims()), V({16, 64, 768}));
}

TEST(LogicalShape, StridesAndIteration29To31) {
  EXPECT_EQ(Vec(F32({2, 3, 4}).Strides()), V({12, 4, 1}));
  EXPECT_EQ(Vec(F32({5}).Strides()), V({1}));
  EXPECT_EQ(Vec(F32({3, 1, 2}).Strides()), V({2, 2, 1}));
  EXPECT_EQ(Vec(F32({2, 0}).Strides()), V({0, 0}));
  EXPECT_TRUE(F32({}).Strides().empty());
  auto collect = [](IndexRange range) {
    std::vector<std::pair<int64_t, V>> out;
    for (const IndexStep step : range)
      out.push_back({step.flat, Vec(step.index)});
    return out;
  };
  EXPECT_EQ(collect(F32({1, 1, 1, 1}).Iter()),
            (std::vector<std::pair<int64_t, V>>{{0, {0, 0, 0, 0}}}));
  EXPECT_EQ(collect(F32({3, 2}).Iter()),
            (std::vector<std::pair<int64_t, V>>{{0, {0, 0}},
                                                {1, {0, 1}},
                                                {2, {1, 0}},
                                                {3, {1, 1}},
                                                {4, {2, 0}},
                                                {5, {2, 1}}}));
  EXPECT_EQ(collect(F32({3, 1, 2, 1}).Iter()),
            (std::vector<std::pair<int64_t, V>>{{0, {0, 0, 0, 0}},
                                                {1, {0, 0, 1, 0}},
                                                {2, {1, 0, 0, 0}},
                                                {3, {1, 0, 1, 0}},
                                                {4, {2, 0, 0, 0}},
                                                {5, {2, 0, 1, 0}}}));
  EXPECT_EQ(collect(F32({}).Iter()),
            (std::vector<std::pair<int64_t, V>>{{0, {}}}));
  EXPECT_TRUE(collect(F32({2, 0, 3}).Iter()).empty());
  V indices = {0, 1, 0};
  std::vector<int64_t> flats;
  for (const IndexStep step :
       F32({2, 3, 4}).IterOnAxes(V{0, 2}, V{}, indices)) {
    flats.push_back(step.flat);
    EXPECT_EQ(step.index[1], 1);
  }
  EXPECT_EQ(flats, V({4, 5, 6, 7, 16, 17, 18, 19}));
  // IterOn writes into the caller's indices.
  V mine(2, 9);
  int64_t count = 0;
  for (const IndexStep step : F32({2, 2}).IterOn(mine)) {
    EXPECT_EQ(step.index.data(), mine.data());
    ++count;
  }
  EXPECT_EQ(count, 4);
  V two(2, 0);
  EXPECT_SK_ERROR(F32({2, 3}).IterOnAxes(V{2}, V{}, two),
                  ErrorKind::kOutOfRange,
                  "iter_on_axes: axes [2] must be distinct axes of "
                  "(Float32)[2, 3]");
  EXPECT_THROW(F32({2, 3}).IterOn(mine = V(3, 0)), Error);
  // Flat indices that do not fit in int64 (caller strides, or the caller's
  // fixed indices) are refused before the range starts.
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_SK_ERROR(F32({3}).IterOnAxes(V{0}, V{kMax}, mine = V(1, 0)),
                  ErrorKind::kOverflow,
                  "iter_on_axes: element offsets of view shape [3] strides "
                  "[9223372036854775807] offset 0 overflow int64");
  EXPECT_SK_ERROR(F32({2, 3}).IterOnAxes(V{1}, V{}, mine = V{kMax, 0}),
                  ErrorKind::kOverflow,
                  "iter_on_axes: 9223372036854775807 * 3 overflows int64");
}

// Argument checks the vectors above do not reach.
TEST(LogicalShape, ArgumentChecks) {
  const LogicalShape s = F32({2, 3});
  std::vector<int64_t> two(2), three(3);
  EXPECT_SK_ERROR(s.IterOnAxes(V{0}, V{}, three), kInvalid,
                  "iter_on_axes: 3 indices for (Float32)[2, 3]");
  EXPECT_SK_ERROR(s.IterOnAxes(V{0}, V{1}, two), kInvalid,
                  "iter_on_axes: 1 strides for (Float32)[2, 3]");
  // A concrete shape that is itself dynamic binds nothing.
  AxisBindings b;
  EXPECT_SK_ERROR(
      b.Extract(Dyn({-1, 3}, {"batch", ""}), Dyn({-1, 3}, {"batch", ""})),
      kInvalid, "extract: axis 0 of (Float32)[batch=?, 3] is dynamic");
  EXPECT_EQ(b.size(), 0u);
  const std::string long_name(65536, 'a');
  const std::string_view names[] = {long_name, "b"};
  EXPECT_SK_ERROR(s.WithAxisNames(names).Serialize(), kInvalid,
                  "serialize: axis name of 65536 bytes is longer than 65535");
}

TEST(LogicalShape, SerializationRoundTrips16) {
  const std::vector<LogicalShape> shapes = {
      Dyn({-1, 512}, {"batch", ""}),
      F32({4, 3, 2}),
      F32({}),
      LogicalShape(),
      LogicalShape::Make(DType::kComplex128, V{0, 7}),
      Dyn({-1, -1, 768}, {"batch", "=10+seq", "features"})};
  for (const LogicalShape& s : shapes) {
    const std::vector<uint8_t> bytes = s.Serialize();
    const LogicalShape back = LogicalShape::Deserialize(bytes);
    EXPECT_EQ(back, s) << s.String();
    EXPECT_EQ(back.has_axis_names(), s.has_axis_names()) << s.String();
    EXPECT_EQ(back.Serialize(), bytes);
  }
  EXPECT_EQ(F32({2}).Serialize(),
            (std::vector<uint8_t>{'S', 'K', 'S', 'H', 1, 11, 1, 0, 2, 0, 0, 0,
                                  0, 0, 0, 0}));
}

TEST(LogicalShape, SerializationRejectsMalformedInput) {
  const std::vector<uint8_t> good = Dyn({-1, 512}, {"batch", ""}).Serialize();
  // Every truncation fails cleanly.
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_THROW(
        LogicalShape::Deserialize(std::span<const uint8_t>(good.data(), n)),
        Error)
        << n;
  }
  // Every single-byte change either fails cleanly or decodes to a shape
  // that serializes back to exactly the changed bytes.
  for (size_t i = 0; i < good.size(); ++i) {
    for (int delta : {1, 0x80, 0xff}) {
      std::vector<uint8_t> bad = good;
      bad[i] = uint8_t(bad[i] + delta);
      try {
        EXPECT_EQ(LogicalShape::Deserialize(bad).Serialize(), bad) << i;
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), kInvalid);
      }
    }
  }
  std::vector<uint8_t> trailing = good;
  trailing.push_back(0);
  EXPECT_SK_ERROR(LogicalShape::Deserialize(trailing), kInvalid,
                  "deserialize shape: 1 trailing bytes at byte 33");
  std::vector<uint8_t> version = good;
  version[4] = 2;
  EXPECT_SK_ERROR(LogicalShape::Deserialize(version), kInvalid,
                  "deserialize shape: unknown format version 2 at byte 4");
  std::vector<uint8_t> unnamed = F32({3}).Serialize();
  for (int b = 0; b < 8; ++b) unnamed[8 + b] = 0xff;  // dim -1, no name
  EXPECT_SK_ERROR(LogicalShape::Deserialize(unnamed), kInvalid,
                  "deserialize shape: shape: dynamic axis 0 must be named");
  EXPECT_SK_ERROR(LogicalShape::Deserialize(std::vector<uint8_t>{'S', 'K'}),
                  kInvalid,
                  "deserialize shape: truncated at byte 0 (the header needs 8 "
                  "bytes, 2 remain)");
}

}  // namespace
}  // namespace stridekit
