// OCANNL's labels specifications and generalized einsum notation (seed 004,
// docs/semantics.md "OCANNL notation"): "batch|input->output" rows of axes,
// single-char and multichar modes, "..." and "..v.." row variables, "_"
// placeholders, fixed integer indices, "rhs=>lhs" permute and
// "rhs1;...;rhsN=>lhs" einsum specs. Affine ("2*i+1"), convolution
// ("o<+k") and concatenation ("a^b") axes are recognised and rejected as
// unsupported.
#ifndef STRIDEKIT_OCANNL_LABELS_H_
#define STRIDEKIT_OCANNL_LABELS_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stridekit {

// The three rows of a shape. Written order is batch|input->output; memory
// (index) order is batch, output, input.
enum class AxisKind { kBatch = 0, kInput = 1, kOutput = 2 };
inline constexpr std::array<AxisKind, 3> kMemoryOrder = {
    AxisKind::kBatch, AxisKind::kOutput, AxisKind::kInput};
// "batch", "input" or "output": also the name "..." stands for in that row.
const char* AxisKindName(AxisKind kind);

// How many axes each row of a tensor has; its axes are in memory order
// batch, output, input. Given with an einsum's operands (LabelsEinsumShape
// in shape_inference.h), they split operands whose spec slot has row
// variables in two or more rows.
struct RowLengths {
  int64_t batch = 0;
  int64_t output = 0;
  int64_t input = 0;

  int64_t of(AxisKind kind) const {
    return const_cast<RowLengths*>(this)->of(kind);
  }
  int64_t& of(AxisKind kind) {
    return kind == AxisKind::kBatch    ? batch
           : kind == AxisKind::kOutput ? output
                                       : input;
  }
  friend bool operator==(const RowLengths&, const RowLengths&) = default;
};

struct AxisSpec {
  enum class Kind {
    kLabel,       // a dimension variable scoped to the whole spec
    kFixedIndex,  // an integer: in einsum specs an index, in shape specs a size
    kPlaceholder,  // "_": a fresh anonymous axis at every occurrence
  };
  Kind kind = Kind::kLabel;
  std::string label;  // kLabel only
  int64_t index = 0;  // kFixedIndex only

  static AxisSpec Label(std::string name) {
    return {Kind::kLabel, std::move(name), 0};
  }
  static AxisSpec FixedIndex(int64_t n) { return {Kind::kFixedIndex, "", n}; }
  static AxisSpec Placeholder() { return {Kind::kPlaceholder, "", 0}; }
  friend bool operator==(const AxisSpec&, const AxisSpec&) = default;
};

// One row: a leading flank aligned from the left, an optional row variable
// absorbing 0+ axes, and a trailing flank aligned from the right. A row
// without a variable is closed and all its axes are in `end`.
struct RowSpec {
  std::vector<AxisSpec> beg;
  std::optional<std::string> row_var;
  std::vector<AxisSpec> end;

  int num_axes() const { return static_cast<int>(beg.size() + end.size()); }
  friend bool operator==(const RowSpec&, const RowSpec&) = default;
};

struct LabelsSpec {
  std::array<RowSpec, 3> rows;  // indexed by AxisKind

  const RowSpec& row(AxisKind kind) const { return rows[int(kind)]; }
  RowSpec& row(AxisKind kind) { return rows[int(kind)]; }
};

// rhs1;...;rhsN=>lhs. N is 1 for a permute spec.
struct EinsumLabelsSpec {
  std::string text;
  std::vector<LabelsSpec> operands;
  LabelsSpec result;
};

// True when `spec` is lexed in multichar mode: it contains one of , * + ^ &
// < or an '=' not followed by '>'.
bool IsMultichar(std::string_view spec);

// Parses a labels spec (no "=>"). Errors give the 1-based column.
LabelsSpec ParseAxisLabels(std::string_view spec);
// Parses "rhs1;...;rhsN=>lhs" and rejects a name used both as a label and as
// a row variable.
EinsumLabelsSpec ParseEinsumLabels(std::string_view spec);

// The reference's row notation: "[a,b]", "[a <..v..> b]", "#2" for a fixed
// index, "_" for a placeholder.
std::string ToString(const RowSpec& row);

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_OCANNL_LABELS_H_
