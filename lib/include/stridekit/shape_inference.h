// OCANNL-style shape inference (seed 004; docs/semantics.md, "OCANNL
// notation"): shapes with batch/input/output rows whose dims and rows may be
// unknown, update steps that relate a result shape to its operands,
// propagation to a fixpoint, a closing pass, and derive_projections.
//
// Semantics chosen where the reference leaves a choice:
//  * Einsum, Permute and Batch_slice use equalities (0.6.3/HEAD): no size-1
//    broadcasting inside einsum.
//  * Pointwise, Compose and Transpose use inequalities `res <= opnd`: the
//    operand broadcasts into the result per row kind, trailing axes aligned
//    from the right, leading flanks from the left, new axes in the middle;
//    any size-1 dim broadcasts (0.6.x, NumPy-like; there are no bases).
//  * "_" is a fresh dimension variable at every occurrence.
#ifndef STRIDEKIT_SHAPE_INFERENCE_H_
#define STRIDEKIT_SHAPE_INFERENCE_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "stridekit/dims.h"
#include "stridekit/ocannl_labels.h"
#include "stridekit/projections.h"

namespace stridekit {

using ShapeId = int;
using StepId = int;

// A dimension: a known size, or a dimension variable of a ShapeInference.
struct Dim {
  int64_t size = -1;
  int var = -1;

  static Dim Size(int64_t n) { return {n, -1}; }
  static Dim Var(int v) { return {-1, v}; }
  bool is_known() const { return var < 0; }
};

// A row: leading flank, optional row variable, trailing flank. A closed row
// (no variable) keeps all its axes in `end`.
struct Row {
  std::vector<Dim> beg;
  std::optional<int> var;
  std::vector<Dim> end;

  int num_axes() const { return static_cast<int>(beg.size() + end.size()); }
};

enum class ComposeType {
  kPointwiseBin,  // NumPy-style broadcast of both operands, per row kind
  kCompose,       // s1 * s2: s1's inputs consume (and sum) s2's outputs
  kEinsum,        // "rhs1;...;rhsN=>lhs", any number of operands
};
enum class TransposeType {
  kTranspose,    // swaps input and output rows
  kPointwiseUn,  // same shape
  kPermute,      // "rhs=>lhs"
  kBatchSlice,   // removes the leftmost batch axis
};

struct BroadcastLogic {
  ComposeType type;
  std::vector<ShapeId> operands;  // two, except for kEinsum
  std::string spec;               // kEinsum only
};
struct TransposeLogic {
  TransposeType type;
  ShapeId operand;
  std::string spec;  // kPermute only
};
// A leaf. Parameters must have every unknown dim and row determined by the
// other steps: the closing pass does not guess them.
struct TerminalLogic {
  bool is_parameter = false;
};
using Logic = std::variant<BroadcastLogic, TransposeLogic, TerminalLogic>;

struct UpdateStep {
  ShapeId shape;  // the result
  Logic logic;
};

// Throws OCANNL's "Invalid einsum spec (expected two arguments): ..." (or
// "Invalid permutation spec (expected one argument): ..." for a permute)
// unless `spec` has one slot per operand.
void CheckEinsumArity(const EinsumLabelsSpec& spec, size_t num_operands,
                      bool is_permute);

// The result dims, in memory order batch, output, input, of the OCANNL spec
// "rhs1;...;rhsN=>lhs" (a permute when N is 1) applied to operands given by
// their memory-order dims. Each operand is split into rows by its slot: at
// most one of the slot's rows may have a row variable, and it takes the axes
// the closed rows leave.
Dims LabelsEinsumShape(std::string_view spec, std::span<const DimsView> shapes);
// Its projections, with every tensor's axes in memory order.
Projections LabelsEinsumProjections(std::string_view spec,
                                    std::span<const DimsView> shapes);

// The same with each operand's rows given (rows[i] for shapes[i]) instead
// of split by its slot, so slots with row variables in several rows work.
// A row's length must equal its slot row's axes when that row is closed, and
// be at least them when it has a row variable. Checks rows with
// CheckRowLengths(rows, shapes, "einsum") first.
Dims LabelsEinsumShape(std::string_view spec, std::span<const DimsView> shapes,
                       std::span<const RowLengths> rows);
Projections LabelsEinsumProjections(std::string_view spec,
                                    std::span<const DimsView> shapes,
                                    std::span<const RowLengths> rows);

// Throws kInvalidArgument, the message starting with `op`, unless there is
// one RowLengths per shape, none negative, each summing to its shape's
// axes (kOverflow when the sum overflows).
void CheckRowLengths(std::span<const RowLengths> rows,
                     std::span<const DimsView> shapes, const char* op);

class ShapeInference {
 public:
  // A shape with three open rows (fully unknown).
  ShapeId NewShape(std::string name);
  // A shape with closed rows of known dims.
  ShapeId ShapeFromDims(std::string name, DimsView batch, DimsView input,
                        DimsView output);
  // A shape from a labels spec where integers are sizes, labels are dims
  // variables and "..v.." row variables, both local to this shape:
  // "3, ..rho.., 7", "b|i->o".
  ShapeId ShapeFromSpec(std::string name, std::string_view spec);
  // A shape from rows built with NewDimVar/NewRowVar (shared between shapes).
  ShapeId ShapeFromRows(std::string name, std::array<Row, 3> rows);
  int NewDimVar();
  int NewRowVar();

  // Registers a step and applies it once (propagate_shapes). Throws on a
  // malformed step (wrong operand count, bad spec) or a conflict; errors name
  // both shapes (or the spec slot) and the axis.
  StepId AddStep(UpdateStep step);
  // Applies the step again with what is known now.
  void Propagate(StepId step);
  // Applies every step until no variable gets bound.
  void PropagateToFixpoint();
  // Closes what is still unknown: rows and dims with lower bounds from the
  // inequalities take them, fixed index n gives n+1 (0 gives 1), parameters
  // left unknown are an error, everything else closes to no axes / size 1.
  void Finish();

  // The row with every solved variable substituted.
  Row ResolvedRow(ShapeId shape, AxisKind kind) const;
  bool IsResolved(ShapeId shape) const;
  // Dims in memory order batch, output, input. Throws if unresolved.
  Dims ToDims(ShapeId shape) const;
  // The reference's printout "0:4|2:2->1:3" (memory_axis:size, written
  // batch|input->output, empty rows omitted); "?" for an unknown dim and
  // "<..>" for an open row.
  std::string ToString(ShapeId shape) const;
  // The inferred dims of an einsum/permute step's label ([size]) or row
  // variable (its dims): OCANNL's captured variables.
  Dims LabelDims(StepId step, std::string_view name) const;

  // The projections of a step whose shapes are fully inferred.
  Projections DeriveProjections(StepId step) const;

 private:
  struct DimVarInfo {
    int parent;
    int64_t value = -1;
    int64_t at_least = 0;  // from fixed indices: size >= at_least
  };
  struct ShapeInfo {
    std::string name;
    std::array<Row, 3> rows;
    bool is_parameter = false;
  };
  struct StepState {
    UpdateStep step;
    std::optional<EinsumLabelsSpec> spec;  // Einsum and Permute
    // Template rows per spec slot: operands, then the result.
    std::vector<std::array<Row, 3>> templates;
    std::map<std::string, int> label_vars;
    std::map<std::string, int> row_vars;
    int slice_var = -1;  // Batch_slice
  };
  // One side of a constraint: a row of the step's result (tensor -1) or of
  // operand `tensor`, or of the template of spec slot `slot` (when >= 0).
  struct Side {
    int tensor = -1;
    int slot = -1;
    AxisKind kind;
  };
  struct Where {
    StepId step;
    Side left, right;
  };
  struct Inequality {
    Side res, opnd;  // res <= opnd: opnd broadcasts into res
  };

  Dim NormDim(Dim d) const;
  Row NormRow(const Row& row) const;
  const Row& RowOf(StepId step, const Side& side) const;
  int FindDim(int var) const;
  // Binds a dim variable; `where` (null in the closing pass) names the
  // constraint when the value violates the variable's lower bound.
  void BindDim(int root, int64_t value, const Where* where, int pos);
  void BindRow(int var, Row value);
  Row FreshRow(int num_axes, bool open);
  ShapeId ShapeOf(StepId step, int tensor) const;

  void UnifyDims(Dim a, Dim b, const Where& where, int pos);
  void UnifyRows(const Row& a, const Row& b, const Where& where);
  void ApplyInequality(StepId step, const Inequality& ineq);
  void ApplyDimInequality(Dim res, Dim opnd, const Where& where, int pos);
  template <typename F>
  void ForEachAlignedPair(const Row& res, const Row& opnd, F&& f) const;

  void Apply(StepId step);
  void BuildTemplates(StepState& state);
  std::vector<Inequality> Inequalities(const StepState& state) const;
  std::optional<int64_t> RowBound(int var, std::vector<bool>& visiting) const;
  std::optional<int64_t> DimBound(int root, std::vector<bool>& visiting) const;
  bool CloseOne();

  std::string Describe(StepId step, const Side& side) const;
  std::string DescribeStep(StepId step) const;
  [[noreturn]] void FailAt(const Where& where, int pos,
                           const std::string& message) const;
  [[noreturn]] void FailRows(const Where& where,
                             const std::string& message) const;

  std::vector<DimVarInfo> dims_;
  std::vector<std::optional<Row>> row_values_;
  std::vector<ShapeInfo> shapes_;
  std::vector<StepState> steps_;
  int64_t bindings_ = 0;  // grows whenever a variable gets bound
};

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_SHAPE_INFERENCE_H_
