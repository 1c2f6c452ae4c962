// LogicalShape: GoMLX's `shapes.Shape` (seed 002) in C++. A dtype, dims and
// optional axis names, with dynamic axes (dim -1, which must be named) that
// AxisBindings resolve. Purely logical: row-major element strides, no
// offset. Every failure throws stridekit::Error (GoMLX panics).
//
// Departures from GoMLX (docs/semantics.md "GoMLX departures"), deliberately:
// - Dim() and AxisName() check the range for every axis (GoMLX: Dim(rank)
//   and AxisName on unnamed shapes skip it).
// - operator== is reflexive: names compare exactly, "?" included (GoMLX's
//   Equal never matches "?"); AxisNameEqual keeps GoMLX's rule for
//   unification.
// - ConcatenateDimensions throws on invalid or mismatched dtypes (GoMLX
//   returns an invalid shape).
// - AxisBindings::Extract compares dtypes and leaves the bindings untouched
//   when it fails; UnifyAxisNames rejects "?" also when one side is unnamed.
// - No tuple shapes; the binary serialization is our own documented format
//   (below), not gob.
// Naming axes allocates (std::string); shapes without names never do, for
// any rank.
#ifndef STRIDEKIT_LOGICAL_SHAPE_H_
#define STRIDEKIT_LOGICAL_SHAPE_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>
#include <iterator>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stridekit/dims.h"
#include "stridekit/dtype.h"

namespace stridekit {

class AxisBindings;
class IndexRange;

class LogicalShape {
 public:
  static constexpr int64_t kDynamicDim = -1;
  static constexpr int64_t kUncheckedAxis = -1;  // in CheckDims
  static constexpr std::string_view kAnonymousAxis = "?";

  // The invalid shape (GoMLX Invalid()): ok() is false.
  LogicalShape() = default;
  // Static dims (each >= 0), no names.
  static LogicalShape Make(DType dtype, DimsView dims);
  // dims may hold -1 (dynamic) on named axes; one name per axis, "" for
  // unnamed. Dims below -1 are rejected.
  static LogicalShape MakeDynamic(DType dtype, DimsView dims,
                                  std::span<const std::string_view> names);

  bool ok() const { return ok_; }
  DType dtype() const { return dtype_; }
  int rank() const { return dims_.size(); }
  DimsView dims() const { return dims_; }
  // Negative axes count from the end.
  int64_t Dim(int64_t axis) const;
  bool IsScalar() const { return ok_ && rank() == 0; }
  bool IsZeroSize() const;
  bool IsDynamic() const;
  bool IsAxisDynamic(int64_t axis) const;
  // Element count; throws on a dynamic shape or int64 overflow.
  int64_t Size() const;
  // Size() times the dtype's byte size.
  int64_t ByteSize() const;
  // Row-major element strides; all 0 when a dim is 0 (GoMLX); empty for a
  // scalar. Throws on a dynamic shape.
  Dims Strides() const;

  bool has_axis_names() const { return !names_.empty(); }
  // "" when the shape has no names.
  std::string_view AxisName(int64_t axis) const;
  // A copy with one name per axis.
  LogicalShape WithAxisNames(std::span<const std::string_view> names) const;

  // Same dtype, dims and names (no names == all names "").
  friend bool operator==(const LogicalShape& a, const LogicalShape& b);
  // Same dims, whatever the dtype and names.
  bool EqualDimensions(const LogicalShape& other) const;

  // Throw unless the rank matches and every dim equals `dims` (-1 in `dims`
  // accepts any value; a dynamic axis passes only with -1).
  void CheckDims(DimsView dims) const;
  void Check(DType dtype, DimsView dims) const;
  void CheckRank(int rank) const;
  void CheckScalar() const;

  // Dynamic axes replaced by their bound values (names kept). A name
  // "=10+batch" sums integer and bound terms. Throws for an unnamed or
  // unbound dynamic axis and for values <= 0.
  LogicalShape Resolve(const AxisBindings& bindings) const;
  // As Resolve, leaving unnamed or unbound dynamic axes at -1.
  LogicalShape ResolvePartial(const AxisBindings& bindings) const;

  // GoMLX format: "(Float32)[batch=?, 512]", "(Float64)", "(InvalidDType)".
  std::string String() const;

  // (flat index, index) of every element in row-major order, the last axis
  // fastest; nothing when a dim is 0; once for a scalar. Throws on a dynamic
  // shape. The range owns its index; nothing allocates per step.
  IndexRange Iter() const;
  // The same, writing each index into `indices` (rank entries).
  IndexRange IterOn(std::span<int64_t> indices) const;
  // Only `axes` move (the last listed fastest, each from 0); the other
  // entries of `indices` stay as given. The flat index is sum index * strides
  // over all axes, with `strides` (or Strides() when empty).
  IndexRange IterOnAxes(DimsView axes, DimsView strides,
                        std::span<int64_t> indices) const;

  // Binary form, version 1, little-endian:
  //   "SKSH" | u8 version = 1 | u8 dtype (sk_dtype value; 255 = invalid) |
  //   u8 rank (<= 32) | u8 flags (bit 0: axis names follow) |
  //   rank x i64 dims (>= 0, or -1 on a named axis) |
  //   with names: rank x (u16 byte length | bytes).
  // Nothing may follow. Deserialize rejects anything else with an error that
  // names the byte offset.
  std::vector<uint8_t> Serialize() const;
  static LogicalShape Deserialize(std::span<const uint8_t> bytes);

 private:
  friend LogicalShape ConcatenateDimensions(const LogicalShape& a,
                                            const LogicalShape& b);
  LogicalShape ResolveWith(const AxisBindings& bindings, bool partial) const;
  int NormalizedAxis(int64_t axis, const char* op) const;

  bool ok_ = false;
  DType dtype_ = DType::kFloat32;
  Dims dims_;
  std::vector<std::string> names_;  // empty, or one per axis
};

// Dims of a then b (names concatenated, "" filling an unnamed side); a
// scalar side contributes nothing. Throws unless both are valid with the same
// dtype.
LogicalShape ConcatenateDimensions(const LogicalShape& a,
                                   const LogicalShape& b);
// The friend operator== of LogicalShape, declared at namespace scope so that
// the shared library exports it.
bool operator==(const LogicalShape& a, const LogicalShape& b);

// GoMLX's rule: equal and neither is the anonymous "?".
bool AxisNameEqual(std::string_view a, std::string_view b);
// "" unifies with anything; equal names unify; "?" and different names
// throw ("incompatible axis names").
std::string UnifyAxisName(std::string_view a, std::string_view b);
// Per-axis UnifyAxisName of two shapes' names; empty when no axis is named.
std::vector<std::string> UnifyAxisNames(const LogicalShape& a,
                                        const LogicalShape& b);

// Values of named dynamic axes.
class AxisBindings {
 public:
  void Set(std::string_view name, int64_t value);
  // The value of `name`, or of a "=term+term" sum; false when unresolvable.
  bool Lookup(std::string_view name, int64_t& value) const;
  // Binds the template's dynamic axes to the concrete shape's dims. Throws,
  // leaving the bindings unchanged, on a dtype or rank mismatch, a dynamic
  // concrete dim, an unnamed dynamic axis, a conflicting binding or a
  // static dim mismatch.
  void Extract(const LogicalShape& templ, const LogicalShape& concrete);
  // "batch=32,seq_len=128": names sorted, "" when empty.
  std::string Key() const;
  size_t size() const { return values_.size(); }

 private:
  std::map<std::string, int64_t, std::less<>> values_;
};

// One step of an index iteration.
struct IndexStep {
  int64_t flat;
  DimsView index;
};

// The range of LogicalShape::Iter / IterOn / IterOnAxes (an input range).
class IndexRange {
 public:
  class Iterator {
   public:
    using value_type = IndexStep;
    using difference_type = std::ptrdiff_t;
    Iterator() = default;
    explicit Iterator(IndexRange* range) : range_(range) {}
    IndexStep operator*() const;
    Iterator& operator++();
    void operator++(int) { ++*this; }
    friend bool operator==(const Iterator& it, std::default_sentinel_t) {
      return it.range_ == nullptr || it.range_->done();
    }

   private:
    IndexRange* range_ = nullptr;
  };

  Iterator begin() { return Iterator(this); }
  bool done() const { return done_; }
  std::default_sentinel_t end() const { return {}; }

 private:
  friend class LogicalShape;
  // indices: the caller's storage (rank entries), or empty to own it.
  IndexRange(DimsView shape, DimsView axes, DimsView strides,
             std::span<int64_t> indices);
  void Advance();

  int64_t* index() { return external_ != nullptr ? external_ : owned_.data(); }

  Dims shape_;
  Dims axes_;     // the moving axes, slowest first
  Dims strides_;  // per axis, for the flat index
  Dims owned_;    // the index, unless the caller supplied one
  int64_t* external_ = nullptr;
  int64_t flat_ = 0;
  bool done_ = false;
};

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_LOGICAL_SHAPE_H_
