// The cast family: golden values of the per-element rules (cast_scalar.h),
// then the dispatched Cast against the per-element reference on every
// target for all 225 dtype pairs over random views and random values
// (NaN, +-inf, +-0, subnormals, out-of-range values, ties), bit-exact over
// whole buffers, plus overlap, threads, masks and errors.
#include "stridekit/cast.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "allocation.h"
#include "cast_reference.h"
#include "cast_scalar.h"
#include "equivalence.h"
#include "random_views.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::MakeView;
using testing::ViewGenerator;
using Bytes = std::vector<unsigned char>;

template <typename To, typename From>
To C(From x) {
  return cast::Cast<To>(x);
}
uint16_t H(float x) { return C<Float16>(x).bits; }
uint16_t B(float x) { return C<BFloat16>(x).bits; }
uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }
uint64_t Bits(double x) { return std::bit_cast<uint64_t>(x); }
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(CastScalar, ToFloat16RoundsToNearestEven) {
  EXPECT_EQ(H(1.0f), 0x3c00);
  EXPECT_EQ(H(-0.0f), 0x8000);
  EXPECT_EQ(H(65504.0f), 0x7bff);
  EXPECT_EQ(H(65519.996f), 0x7bff);  // Below the midpoint to 65536.
  EXPECT_EQ(H(65520.0f), 0x7c00);    // The midpoint: ties to even = inf.
  EXPECT_EQ(H(-kInf), 0xfc00);
  EXPECT_EQ(H(std::ldexp(1.0f, -24)), 0x0001);  // Smallest subnormal.
  EXPECT_EQ(H(std::ldexp(1.0f, -25)), 0x0000);  // Tie to even (0).
  EXPECT_EQ(H(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(H(std::ldexp(3.0f, -25)), 0x0002);         // Tie 1.5 ulp -> 2.
  EXPECT_EQ(H(1.0f + std::ldexp(1.0f, -11)), 0x3c00);  // Tie to even.
  EXPECT_EQ(H(1.0f + std::ldexp(3.0f, -11)), 0x3c02);
  EXPECT_EQ(H(std::nanf("")), 0x7e00);
  EXPECT_EQ(H(-std::bit_cast<float>(0x7f800001u)), 0xfe00);  // sNaN, sign.
  // float64 -> float16 rounds once: via float32 1 + 2^-11 + 2^-30 would
  // become the tie 1 + 2^-11 and then 1.0.
  EXPECT_EQ(C<Float16>(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30)).bits,
            0x3c01);
  // Integers: exact below 2048, then ties to even, >= 65520 -> inf.
  EXPECT_EQ(C<Float16>(int64_t{2049}).bits, C<Float16>(2048.0f).bits);
  EXPECT_EQ(C<Float16>(int64_t{2051}).bits, C<Float16>(2052.0f).bits);
  EXPECT_EQ(C<Float16>(int32_t{65519}).bits, 0x7bff);
  EXPECT_EQ(C<Float16>(int32_t{65520}).bits, 0x7c00);
  EXPECT_EQ(C<Float16>(int64_t{INT64_MIN}).bits, 0xfc00);
  EXPECT_EQ(C<Float16>(uint64_t{UINT64_MAX}).bits, 0x7c00);
}

TEST(CastScalar, ToBFloat16IsRoundToNearestEvenOfTheFloat32Bits) {
  EXPECT_EQ(B(1.0f), 0x3f80);
  EXPECT_EQ(B(std::bit_cast<float>(0x3f808000u)), 0x3f80);  // Tie, even.
  EXPECT_EQ(B(std::bit_cast<float>(0x3f818000u)), 0x3f82);  // Tie, odd.
  EXPECT_EQ(B(std::bit_cast<float>(0x3f808001u)), 0x3f81);
  EXPECT_EQ(B(std::bit_cast<float>(0x7f7fffffu)), 0x7f80);  // Max -> inf.
  EXPECT_EQ(B(std::bit_cast<float>(0x00008000u)), 0x0000);  // Subnormal tie.
  EXPECT_EQ(B(std::bit_cast<float>(0x00018000u)), 0x0002);
  EXPECT_EQ(B(-kInf), 0xff80);
  EXPECT_EQ(B(std::bit_cast<float>(0x7f800001u)), 0x7fc0);
  EXPECT_EQ(B(std::bit_cast<float>(0xffc12345u)), 0xffc0);
  // Once from float64 and integers (through float32 both would round
  // twice: 1 + 2^-8 + 2^-30 -> tie 1 + 2^-8 -> 1.0).
  EXPECT_EQ(C<BFloat16>(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30)).bits,
            0x3f81);
  const int64_t big = (int64_t{1} << 32) + (int64_t{1} << 24) + 1;
  EXPECT_EQ(C<BFloat16>(big).bits,
            B(std::ldexp(1.0f, 32) + std::ldexp(1.0f, 25)));
  EXPECT_EQ(C<BFloat16>(uint64_t{UINT64_MAX}).bits, 0x5f80);  // 2^64.
}

TEST(CastScalar, FromHalfAndBFloat16IsExact) {
  EXPECT_EQ(C<float>(Float16{0x0001}), std::ldexp(1.0f, -24));
  EXPECT_EQ(C<float>(Float16{0x7bff}), 65504.0f);
  EXPECT_EQ(C<float>(Float16{0xfc00}), -kInf);
  EXPECT_EQ(Bits(C<float>(Float16{0x7c01})), 0x7fc00000u);
  EXPECT_EQ(Bits(C<float>(Float16{0xfe00})), 0xffc00000u);
  EXPECT_EQ(Bits(C<float>(Float16{0x8000})), 0x80000000u);
  EXPECT_EQ(Bits(C<float>(BFloat16{0x0001})), 0x00010000u);
  EXPECT_EQ(Bits(C<float>(BFloat16{0x7f81})), 0x7fc00000u);
  EXPECT_EQ(Bits(C<double>(BFloat16{0xff81})), 0xfff8000000000000ull);
  EXPECT_EQ(C<double>(Float16{0x3555}), 0.333251953125);
}

TEST(CastScalar, FloatToIntegerTruncatesAndSaturates) {
  EXPECT_EQ(C<int32_t>(3.7f), 3);
  EXPECT_EQ(C<int32_t>(-3.7f), -3);
  EXPECT_EQ(C<int32_t>(1e10f), INT32_MAX);
  EXPECT_EQ(C<int32_t>(-1e10f), INT32_MIN);
  EXPECT_EQ(C<int32_t>(2147483648.0f), INT32_MAX);
  EXPECT_EQ(C<int32_t>(-2147483648.0f), INT32_MIN);
  EXPECT_EQ(C<int32_t>(std::nanf("")), 0);
  EXPECT_EQ(C<int32_t>(-kInf), INT32_MIN);
  EXPECT_EQ(C<int8_t>(300.0), 127);
  EXPECT_EQ(C<int8_t>(-128.9), -128);
  EXPECT_EQ(C<int8_t>(-129.0), -128);
  EXPECT_EQ(C<uint8_t>(-0.9), 0);
  EXPECT_EQ(C<uint8_t>(-1.0), 0);
  EXPECT_EQ(C<uint8_t>(255.9), 255);
  EXPECT_EQ(C<uint64_t>(1e30), UINT64_MAX);
  EXPECT_EQ(C<uint64_t>(18446744073709549568.0), 18446744073709549568ull);
  EXPECT_EQ(C<int64_t>(9223372036854775808.0), INT64_MAX);
  EXPECT_EQ(C<int64_t>(-9223372036854775808.0), INT64_MIN);
  EXPECT_EQ(C<int64_t>(kNaN), 0);
  EXPECT_EQ(C<int16_t>(Float16{0x7c00}), INT16_MAX);  // inf
  EXPECT_EQ(C<uint16_t>(Float16{0x7bff}), 65504);
  EXPECT_EQ(C<int32_t>(Complex64{-2.5f, 9.0f}), -2);
}

TEST(CastScalar, IntegersWrapAndRoundOnceToFloat) {
  EXPECT_EQ(C<int8_t>(int32_t{300}), 44);
  EXPECT_EQ(C<uint16_t>(int8_t{-1}), 65535);
  EXPECT_EQ(C<int32_t>(uint64_t{0xfffffffffull}), -1);
  EXPECT_EQ(C<int64_t>(uint32_t{0xffffffffu}), 4294967295);
  EXPECT_EQ(C<float>(int32_t{16777217}), 16777216.0f);  // Tie to even.
  EXPECT_EQ(C<float>(int32_t{16777219}), 16777220.0f);
  const int64_t x = (int64_t{1} << 40) + (int64_t{1} << 16) + 1;
  EXPECT_EQ(C<float>(x), std::ldexp(1.0f, 40) + std::ldexp(1.0f, 17));
  EXPECT_EQ(C<float>(uint64_t{UINT64_MAX}), std::ldexp(1.0f, 64));
  EXPECT_EQ(C<double>(uint64_t{UINT64_MAX}), std::ldexp(1.0, 64));
  EXPECT_EQ(C<double>(int64_t{INT64_MIN}), -std::ldexp(1.0, 63));
  EXPECT_EQ(C<double>(int64_t{(int64_t{1} << 53) + 1}), std::ldexp(1.0, 53));
}

TEST(CastScalar, BoolAndComplex) {
  EXPECT_EQ(C<Bool>(kNaN).byte, 1);
  EXPECT_EQ(C<Bool>(-0.0).byte, 0);
  EXPECT_EQ(C<Bool>(Float16{0x8000}).byte, 0);
  EXPECT_EQ(C<Bool>(BFloat16{0x0001}).byte, 1);
  EXPECT_EQ(C<Bool>(int64_t{256}).byte, 1);
  EXPECT_EQ(C<Bool>(Complex64{0.0f, -0.0f}).byte, 0);
  EXPECT_EQ(C<Bool>(Complex128{0.0, 1.0}).byte, 1);
  EXPECT_EQ(C<int32_t>(Bool{2}), 1);
  EXPECT_EQ(C<float>(Bool{1}), 1.0f);
  EXPECT_EQ(C<Float16>(Bool{7}).bits, 0x3c00);
  EXPECT_EQ(C<Bool>(Bool{7}).byte, 7);  // Equal dtypes copy the bits.
  const Complex64 z = C<Complex64>(Complex128{1.0 + 1e-12, kNaN});
  EXPECT_EQ(z.re, 1.0f);
  EXPECT_EQ(Bits(z.im), 0x7fc00000u);
  const Complex128 w = C<Complex128>(int8_t{-3});
  EXPECT_EQ(w.re, -3.0);
  EXPECT_EQ(Bits(w.im), 0u);
  EXPECT_EQ(C<double>(Complex128{2.5, 7.0}), 2.5);
  EXPECT_EQ(C<Float16>(Complex64{65520.0f, 0}).bits, 0x7c00);
}

// ---- Equivalence of every target with the reference.

// Special values of each type's bits, written over part of a random buffer.
std::vector<Bytes> SpecialValues(DType t) {
  std::vector<Bytes> out;
  auto add = [&](auto x) {
    Bytes b(sizeof(x));
    std::memcpy(b.data(), &x, sizeof(x));
    out.push_back(b);
  };
  const std::vector<double> reals = {
      0.0,
      -0.0,
      kNaN,
      -kNaN,
      std::numeric_limits<double>::infinity(),
      -std::numeric_limits<double>::infinity(),
      1.5,
      -2.5,
      0.49999997,
      65504.0,
      65519.0,
      65520.0,
      -65520.0,
      2147483520.0,
      2147483648.0,
      -2147483904.0,
      4294967296.0,
      9.3e18,
      -9.3e18,
      1.9e19,
      1e30,
      3.5e38,
      1e-40,
      -3e-8,
      6e-8,
      std::ldexp(1.0, -25),
      1e-310,
      127.9,
      -128.5,
      255.5,
      -1.0,
      32768.0,
      1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30)};
  switch (t) {
    case DType::kFloat16:
      for (uint16_t b : {0x0000, 0x8000, 0x0001, 0x03ff, 0x7bff, 0x7c00, 0xfc00,
                         0x7c01, 0xfe00, 0x7e00, 0x3c00, 0xc000})
        add(b);
      break;
    case DType::kBFloat16:
      for (uint16_t b : {0x0000, 0x8000, 0x0001, 0x007f, 0x7f7f, 0x7f80, 0xff80,
                         0x7f81, 0xffc0, 0x4f00, 0xdf00, 0x5f80})
        add(b);
      break;
    case DType::kFloat32:
      for (double r : reals) add(float(r));
      add(std::bit_cast<float>(0x7f800001u));
      add(std::bit_cast<float>(0x3f808000u));
      add(std::bit_cast<float>(0x00018000u));
      break;
    case DType::kFloat64:
      for (double r : reals) add(r);
      break;
    case DType::kComplex64:
      for (double r : reals) add(Complex64{float(r), float(-r)});
      add(Complex64{0.0f, 1.0f});
      break;
    case DType::kComplex128:
      for (double r : reals) add(Complex128{r, 0.0});
      add(Complex128{0.0, -0.0});
      break;
    case DType::kInt64:
      for (int64_t v : {INT64_MIN, INT64_MAX, int64_t{-1}, int64_t{65520},
                        (int64_t{1} << 32) + (int64_t{1} << 24) + 1,
                        (int64_t{1} << 53) + 1})
        add(v);
      break;
    case DType::kUint64:
      for (uint64_t v : {UINT64_MAX, uint64_t{1} << 63, uint64_t{2049},
                         (uint64_t{1} << 40) + (uint64_t{1} << 16) + 1})
        add(v);
      break;
    case DType::kInt32:
      for (int32_t v : {INT32_MIN, INT32_MAX, 16777217, -65520, 2049}) add(v);
      break;
    case DType::kBool:
      for (uint8_t v : {0, 1, 2, 255}) add(v);
      break;
    default:
      break;
  }
  return out;
}

// Random bytes with every fourth element a special value.
void FillValues(ViewGenerator& gen, DType t, size_t misalign, Bytes& buffer) {
  gen.Randomize(buffer);
  const auto specials = SpecialValues(t);
  if (specials.empty()) return;
  const size_t size = DTypeSize(t);
  for (size_t at = misalign; at + size <= buffer.size(); at += size) {
    if (gen.Chance(25)) {
      const Bytes& s = specials[size_t(gen.Uniform(0, specials.size() - 1))];
      std::memcpy(buffer.data() + at, s.data(), size);
    }
  }
}

struct CastCase {
  DType src_t, dst_t;
  sk_view src, dst;
  bool src_in_dst_buffer;
  Bytes src_buffer, dst_buffer;
  size_t src_misalign, dst_misalign;  // Bytes past the buffers' starts.
};

std::string Describe(const CastCase& c) {
  return std::string(DTypeName(c.src_t)) + " -> " +
         std::string(DTypeName(c.dst_t)) + " overlap " +
         std::to_string(c.src_in_dst_buffer) + "\nsrc " +
         testing::Describe(c.src) + "\ndst " + testing::Describe(c.dst);
}

CastCase RandomCase(ViewGenerator& gen, DType src_t, DType dst_t,
                    int64_t max_elements) {
  CastCase c{};
  c.src_t = src_t;
  c.dst_t = dst_t;
  const size_t src_size = DTypeSize(src_t), dst_size = DTypeSize(dst_t);
  // Long contiguous rows half the time: the vector paths.
  const bool row = gen.Chance(40);
  const auto shape = row ? std::vector<int64_t>{gen.Uniform(0, 300)}
                         : gen.Shape(int(gen.Uniform(0, 5)), max_elements);
  const auto src_shape = gen.Chance(30) ? gen.BroadcastSource(shape) : shape;
  const int64_t dst_end = gen.Layout(shape, gen.Uniform(0, 5), c.dst);
  c.dst_misalign = gen.Chance(15) ? size_t(gen.Uniform(1, 7)) : 0;
  c.src_in_dst_buffer = gen.Chance(25);
  // Source offsets are in its own elements; within dst's buffer it starts
  // somewhere inside dst's bytes.
  const int64_t dst_bytes = dst_end * int64_t(dst_size);
  int64_t src_base = gen.Uniform(0, 5);
  if (c.src_in_dst_buffer) {
    c.src_misalign = c.dst_misalign;
    src_base = gen.Uniform(0, dst_bytes / int64_t(src_size) + 1);
  } else {
    c.src_misalign = gen.Chance(15) ? size_t(gen.Uniform(1, 7)) : 0;
  }
  const int64_t src_end = gen.Layout(src_shape, src_base, c.src);
  if (gen.Chance(25)) gen.Mask(c.src);
  if (gen.Chance(15)) gen.Mask(c.dst);
  int64_t total = dst_bytes + 16 * int64_t(dst_size);
  if (c.src_in_dst_buffer) {
    total = std::max(total, src_end * int64_t(src_size) + 16);
  }
  c.dst_buffer.resize(size_t(total) + c.dst_misalign);
  c.src_buffer.resize(size_t(src_end + 3) * src_size + c.src_misalign);
  FillValues(gen, src_t, c.src_misalign, c.src_buffer);
  if (c.src_in_dst_buffer) {
    FillValues(gen, src_t, c.src_misalign, c.dst_buffer);
  } else {
    gen.Randomize(c.dst_buffer);
  }
  return c;
}

template <typename CastFn>
Bytes RunCase(const CastCase& c, CastFn fn) {
  Bytes dst = c.dst_buffer, src = c.src_buffer;
  const void* src_data = c.src_in_dst_buffer ? dst.data() + c.src_misalign
                                             : src.data() + c.src_misalign;
  fn(c.src_t, c.src, src_data, c.dst_t, c.dst, dst.data() + c.dst_misalign);
  return dst;
}

// Every dtype pair on every SIMD target, compared with the reference.
TEST(CastEquivalence, EveryPairMatchesReferenceOnRandomViews) {
  std::string names;
  for (const std::string& name : testing::TestedTargets()) {
    names += (names.empty() ? "" : ", ") + name;
  }
  std::printf("targets: %s\n", names.c_str());
  ViewGenerator gen(20261123);
  const int per_pair = testing::Trials(24);
  for (int s = 0; s < kNumDTypes; ++s) {
    for (int d = 0; d < kNumDTypes; ++d) {
      for (int trial = 0; trial < per_pair; ++trial) {
        const CastCase c =
            RandomCase(gen, DType(s), DType(d), trial % 8 == 0 ? 20000 : 600);
        const Bytes want = RunCase(c, [](auto... a) { reference::Cast(a...); });
        testing::ForEachTarget([&](const std::string& target) {
          const Bytes got = RunCase(c, [](auto... a) { Cast(a...); });
          ASSERT_EQ(got, want)
              << target << " trial " << trial << " " << Describe(c);
        });
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// Threads split the plan and give the same bits.
TEST(CastEquivalence, ThreadsGiveTheSameResult) {
  if (!testing::ThreadsAllowed()) GTEST_SKIP();
  ViewGenerator gen(99);
  const DType hot[][2] = {
      {DType::kFloat32, DType::kFloat16}, {DType::kFloat32, DType::kBFloat16},
      {DType::kFloat64, DType::kFloat32}, {DType::kInt32, DType::kFloat32},
      {DType::kUint8, DType::kFloat32},   {DType::kFloat32, DType::kInt32},
      {DType::kInt64, DType::kFloat16}};
  for (int trial = 0; trial < testing::Trials(60); ++trial) {
    const auto& pair = hot[trial % std::size(hot)];
    const CastCase c = RandomCase(gen, pair[0], pair[1], 40000);
    const Bytes want = RunCase(c, [](auto... a) { reference::Cast(a...); });
    CopyOptions options;
    options.threads = 3;
    testing::ForEachTarget([&](const std::string& target) {
      const Bytes got = RunCase(c, [&](auto... a) { Cast(a..., options); });
      ASSERT_EQ(got, want) << target << " trial " << trial << " "
                           << Describe(c);
    });
  }
}

// Long rows of every hot pair, contiguous and transposed, all alignments of
// the tail.
TEST(CastEquivalence, HotPairsOnLongRows) {
  ViewGenerator gen(5);
  const DType types[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16,
                         DType::kFloat64, DType::kInt32,   DType::kUint8,
                         DType::kInt64,   DType::kUint32};
  for (DType s : types) {
    for (DType d : types) {
      for (int64_t n : {1, 7, 8, 15, 16, 17, 31, 33, 64, 1000, 1027}) {
        for (bool transposed : {false, true}) {
          CastCase c{};
          c.src_t = s;
          c.dst_t = d;
          const int64_t rows = transposed ? 5 : 1;
          c.dst = MakeView({rows, n}, {n, 1}, 0);
          c.src = transposed ? MakeView({rows, n}, {1, rows}, 0) : c.dst;
          c.src_buffer.resize(size_t(rows * n) * DTypeSize(s));
          c.dst_buffer.resize(size_t(rows * n) * DTypeSize(d));
          FillValues(gen, s, 0, c.src_buffer);
          gen.Randomize(c.dst_buffer);
          const Bytes want =
              RunCase(c, [](auto... a) { reference::Cast(a...); });
          testing::ForEachTarget([&](const std::string& target) {
            const Bytes got = RunCase(c, [](auto... a) { Cast(a...); });
            ASSERT_EQ(got, want) << target << " n " << n << " " << Describe(c);
          });
        }
      }
    }
  }
}

// A source read across the destination's rows, at least 16 KiB: staged
// chunk by chunk (each chunk transposed into scratch by the copy engine,
// then cast along rows), split over 1 and 3 threads; 2-D and 3-D, odd
// edges, widening, narrowing and integer-to-float pairs, bit-exact against
// the reference.
TEST(CastEquivalence, TransposedSourcesStagedOnThreads) {
  ViewGenerator gen(17);
  struct Layout {
    std::vector<int64_t> shape, src_strides, dst_strides;
  };
  const Layout layouts[] = {
      {{67, 131}, {1, 67}, {131, 1}},
      {{5, 41, 43}, {1, 5 * 43, 5}, {41 * 43, 43, 1}},
  };
  const std::pair<DType, DType> pairs[] = {{DType::kFloat32, DType::kFloat64},
                                           {DType::kFloat64, DType::kFloat16},
                                           {DType::kInt32, DType::kFloat32},
                                           {DType::kUint8, DType::kInt64}};
  for (const Layout& l : layouts) {
    int64_t n = 1;
    for (int64_t e : l.shape) n *= e;
    for (const auto& [s, d] : pairs) {
      CastCase c{};
      c.src_t = s;
      c.dst_t = d;
      c.src = MakeView(l.shape, l.src_strides, 0);
      c.dst = MakeView(l.shape, l.dst_strides, 0);
      c.src_buffer.resize(size_t(n) * DTypeSize(s));
      c.dst_buffer.resize(size_t(n) * DTypeSize(d));
      FillValues(gen, s, 0, c.src_buffer);
      gen.Randomize(c.dst_buffer);
      const Bytes want = RunCase(c, [](auto... a) { reference::Cast(a...); });
      testing::ForEachTarget([&](const std::string& target) {
        for (int threads : {1, testing::ThreadsAllowed() ? 3 : 1}) {
          const Bytes got =
              RunCase(c, [&](auto... a) { Cast(a..., CopyOptions{threads}); });
          ASSERT_EQ(got, want)
              << target << " threads " << threads << " " << Describe(c);
        }
      });
    }
  }
}

// Every float16 and bfloat16 bit pattern, and float32 patterns covering
// every sign, exponent and top 11 mantissa bits with the low bits that
// decide rounding (ties, just above and below), through the hot pairs: the
// vector paths (hardware F16C conversions, the bfloat16 bit arithmetic)
// against the scalar rules.
TEST(CastEquivalence, ExhaustiveHalfPatternsAndFloat32Rounding) {
  std::vector<uint16_t> halves(1 << 16);
  for (size_t i = 0; i < halves.size(); ++i) halves[i] = uint16_t(i);
  std::vector<uint32_t> floats;
  // Every high part natively; every 10th under emulation (Trials).
  const uint32_t step = uint32_t(10 / testing::Trials(10));
  for (uint32_t high = 0; high < (1u << 20); high += step) {
    for (uint32_t low : {0x000u, 0x001u, 0x7ffu, 0x800u, 0x801u, 0xfffu}) {
      floats.push_back(high << 12 | low);
    }
  }
  auto check = [](DType from, const void* data, int64_t n, DType to) {
    const sk_view v = MakeView({n}, {1}, 0);
    Bytes want(size_t(n) * DTypeSize(to)), got(want.size());
    reference::Cast(from, v, data, to, v, want.data());
    testing::ForEachTarget([&](const std::string& target) {
      Cast(from, v, data, to, v, got.data());
      ASSERT_TRUE(got == want)
          << target << " " << DTypeName(from) << " -> " << DTypeName(to);
    });
  };
  for (DType to :
       {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kBool}) {
    check(DType::kFloat16, halves.data(), int64_t(halves.size()), to);
    check(DType::kBFloat16, halves.data(), int64_t(halves.size()), to);
  }
  for (DType to :
       {DType::kFloat16, DType::kBFloat16, DType::kInt32, DType::kFloat64}) {
    check(DType::kFloat32, floats.data(), int64_t(floats.size()), to);
  }
}

TEST(Cast, MasksReadZeroAndSkipWrites) {
  // Pad [2,3] int32 by one row above and two columns on the right: [3,5].
  const int32_t src_data[6] = {1, -2, 3, 4, 5, 6};
  sk_view src = MakeView({3, 5}, {3, 1}, -3);
  src.has_mask = 1;
  src.mask_begin[0] = 1, src.mask_end[0] = 3;
  src.mask_begin[1] = 0, src.mask_end[1] = 3;
  sk_view dst = MakeView({3, 5}, {5, 1}, 0);
  dst.has_mask = 1;
  dst.mask_begin[0] = 0, dst.mask_end[0] = 3;
  dst.mask_begin[1] = 0, dst.mask_end[1] = 4;  // Column 4 not written.
  testing::ForEachTarget([&](const std::string&) {
    std::vector<double> out(15, -9.0);
    Cast(DType::kInt32, src, src_data, DType::kFloat64, dst, out.data());
    const std::vector<double> want = {0, 0,  0, 0, -9, 1, -2, 3,
                                      0, -9, 4, 5, 6,  0, -9};
    EXPECT_EQ(out, want);
  });
}

TEST(Cast, OverlapBehavesAsThroughATemporary) {
  testing::ForEachTarget([&](const std::string&) {
    // float32 -> float64 in place over the same bytes: a[0:4] (float32)
    // widened into the whole buffer as 4 doubles.
    alignas(8) unsigned char buffer[32];
    const float in[4] = {1.5f, -2.0f, 3.25f, 1e30f};
    std::memcpy(buffer, in, sizeof(in));
    Cast(DType::kFloat32, MakeView({4}, {1}, 0), buffer, DType::kFloat64,
         MakeView({4}, {1}, 0), buffer);
    double out[4];
    std::memcpy(out, buffer, sizeof(out));
    EXPECT_EQ(out[0], 1.5);
    EXPECT_EQ(out[1], -2.0);
    EXPECT_EQ(out[2], 3.25);
    EXPECT_EQ(out[3], double(1e30f));
    // int32 -> float32 exactly in place (same mapping, no temporary).
    std::vector<int32_t> a = {1, 2, 16777217, -5};
    Cast(DType::kInt32, MakeView({4}, {1}, 0), a.data(), DType::kFloat32,
         MakeView({4}, {1}, 0), a.data());
    float f[4];
    std::memcpy(f, a.data(), sizeof(f));
    EXPECT_EQ(f[2], 16777216.0f);
    EXPECT_EQ(f[3], -5.0f);
  });
}

TEST(Cast, AllocationFailureLeavesTheDestinationUntouched) {
  alignas(8) unsigned char buffer[32] = {1, 2, 3, 4, 5, 6, 7, 8};
  unsigned char before[32];
  std::memcpy(before, buffer, 32);
  testing::ForEachTarget([&](const std::string&) {
    FailAllocationAfterForTest(0);
    EXPECT_SK_ERROR(Cast(DType::kFloat32, MakeView({4}, {1}, 0), buffer,
                         DType::kFloat64, MakeView({4}, {1}, 0), buffer),
                    ErrorKind::kNoMemory,
                    "cast: cannot allocate a 16-byte buffer");
    FailAllocationAfterForTest(-1);
    EXPECT_EQ(std::memcmp(buffer, before, 32), 0);
  });
}

TEST(Cast, Errors) {
  float a[6] = {}, b[6] = {};
  const sk_view v = MakeView({2, 3}, {3, 1}, 0);
  EXPECT_SK_ERROR(Cast(DType(15), v, a, DType::kFloat32, v, b),
                  ErrorKind::kUnsupported,
                  "cast: unknown source dtype 15 (valid: 0..14)");
  EXPECT_SK_ERROR(Cast(DType::kFloat32, v, a, DType(-1), v, b),
                  ErrorKind::kUnsupported,
                  "cast: unknown destination dtype -1 (valid: 0..14)");
  EXPECT_SK_ERROR(
      Cast(DType::kFloat32, MakeView({4}, {1}, 0), a, DType::kFloat64, v, b),
      ErrorKind::kInvalidArgument,
      "cast: cannot broadcast source shape [4] to destination "
      "shape [2,3]");
  EXPECT_SK_ERROR(
      Cast(DType::kFloat32, v, a, DType::kInt8, MakeView({2, 3}, {0, 1}, 0), b),
      ErrorKind::kInvalidArgument,
      "cast: destination is a broadcast view (stride 0 on axis 0 of "
      "size 2) and is not writeable");
  EXPECT_SK_ERROR(Cast(DType::kFloat32, v, nullptr, DType::kInt8, v, b),
                  ErrorKind::kInvalidArgument,
                  "cast: source data is NULL for a non-empty view");
  // A byte offset that overflows for the wider type only.
  const sk_view far = MakeView({2}, {int64_t{1} << 60, 1}, 0);
  EXPECT_SK_ERROR(
      Cast(DType::kInt8, MakeView({2}, {1}, 0), a, DType::kFloat64, far, b),
      ErrorKind::kOverflow,
      "cast: byte offsets of view offset 0 span [0, 1152921504606846976] "
      "with element size 8 overflow int64");
  // Empty views need no data.
  const sk_view empty = MakeView({0, 3}, {3, 1}, 0);
  Cast(DType::kFloat64, empty, nullptr, DType::kBFloat16, empty, nullptr);
}

}  // namespace
}  // namespace stridekit
