#include "stridekit/shape_inference.h"

#include <algorithm>
#include <set>

#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

constexpr std::array<AxisKind, 3> kAllKinds = {
    AxisKind::kBatch, AxisKind::kInput, AxisKind::kOutput};

std::string ArgumentCount(size_t n) {
  static constexpr const char* kWords[] = {"zero", "one", "two", "three"};
  const std::string count = n < 4 ? kWords[n] : std::to_string(n);
  return StrCat(count, n == 1 ? " argument" : " arguments");
}

template <typename T>
std::vector<T> Slice(const std::vector<T>& v, size_t begin, size_t end) {
  return {v.begin() + begin, v.begin() + end};
}

const BroadcastLogic* AsBroadcast(const UpdateStep& step) {
  return std::get_if<BroadcastLogic>(&step.logic);
}
const TransposeLogic* AsTranspose(const UpdateStep& step) {
  return std::get_if<TransposeLogic>(&step.logic);
}

std::vector<ShapeId> OperandsOf(const UpdateStep& step) {
  if (const BroadcastLogic* b = AsBroadcast(step)) return b->operands;
  if (const TransposeLogic* t = AsTranspose(step)) return {t->operand};
  return {};
}

// The row lengths of an operand split by its slot: at most one row may have
// a row variable, and it takes the axes the closed rows leave.
RowLengths SlotRowLengths(const LabelsSpec& slot, DimsView dims,
                          size_t operand) {
  const AxisKind* open_kind = nullptr;
  int64_t closed_axes = 0;
  for (const AxisKind& kind : kMemoryOrder) {
    const RowSpec& row = slot.row(kind);
    if (!row.row_var) {
      closed_axes += row.num_axes();
    } else if (open_kind) {
      Fail(ErrorKind::kInvalidArgument, "einsum: operand ", operand,
           ": cannot split its ", dims.size(),
           " axes into batch, output and input rows: more than one row of "
           "its spec slot has a row variable (give its row lengths: "
           "EinsumRows, sk_einsum_rows)");
    } else {
      open_kind = &kind;
    }
  }
  const int64_t rest = static_cast<int64_t>(dims.size()) - closed_axes;
  if (open_kind ? rest < slot.row(*open_kind).num_axes() : rest != 0) {
    Fail(ErrorKind::kInvalidArgument, "einsum: operand ", operand, " has ",
         dims.size(), " axes but its spec slot has ",
         open_kind ? "at least " : "",
         closed_axes + (open_kind ? slot.row(*open_kind).num_axes() : 0),
         " (batch, output, input)");
  }
  RowLengths lengths;
  for (AxisKind kind : kMemoryOrder) {
    const int64_t n =
        open_kind && *open_kind == kind ? rest : slot.row(kind).num_axes();
    lengths.of(kind) = n;
  }
  return lengths;
}

// Throws unless each given row length fits its slot's row: equal to a
// closed row's axes, at least those of a row with a variable.
void CheckRowsFitSlot(const LabelsSpec& slot, const RowLengths& lengths,
                      size_t operand) {
  for (AxisKind kind : kMemoryOrder) {
    const RowSpec& row = slot.row(kind);
    const int64_t n = lengths.of(kind);
    if (row.row_var ? n < row.num_axes() : n != row.num_axes()) {
      Fail(ErrorKind::kInvalidArgument, "einsum: operand ", operand, ": its ",
           AxisKindName(kind), " row has ", n, " axes but its spec slot's ",
           AxisKindName(kind), " row ", ToString(row), " has ",
           row.row_var ? "at least " : "", row.num_axes());
    }
  }
}

// An operand's memory-order dims as its rows.
std::array<Dims, 3> SplitRows(DimsView dims, const RowLengths& lengths) {
  std::array<Dims, 3> rows;
  size_t axis = 0;
  for (AxisKind kind : kMemoryOrder) {
    const size_t n = size_t(lengths.of(kind));
    rows[int(kind)] = dims.subspan(axis, n);
    axis += n;
  }
  return rows;
}

}  // namespace

void CheckEinsumArity(const EinsumLabelsSpec& spec, size_t num_operands,
                      bool is_permute) {
  if (spec.operands.size() == num_operands) return;
  if (is_permute) {
    Fail(ErrorKind::kInvalidArgument,
         "Invalid permutation spec (expected one argument): ", spec.text);
  }
  Fail(ErrorKind::kInvalidArgument, "Invalid einsum spec (expected ",
       ArgumentCount(num_operands), "): ", spec.text);
}

namespace {

// The inference of the OCANNL spec "rhs1;...;rhsN=>lhs" on operands of
// `shapes` (memory-order dims), finished.
struct LabelsEinsum {
  ShapeInference inference;
  ShapeId result;
  StepId step;
};

// With `given` rows when set, else each operand split by its slot.
LabelsEinsum InferLabelsEinsum(std::string_view spec,
                               std::span<const DimsView> shapes,
                               const std::span<const RowLengths>* given) {
  if (given) CheckRowLengths(*given, shapes, "einsum");
  const bool is_permute = shapes.size() == 1;
  const EinsumLabelsSpec parsed = ParseEinsumLabels(spec);
  CheckEinsumArity(parsed, shapes.size(), is_permute);
  LabelsEinsum e;
  std::vector<ShapeId> operands;
  for (size_t i = 0; i < shapes.size(); ++i) {
    CheckShape(shapes[i], "einsum");
    const LabelsSpec& slot = parsed.operands[i];
    RowLengths lengths;
    if (given) {
      lengths = (*given)[i];
      CheckRowsFitSlot(slot, lengths, i);
    } else {
      lengths = SlotRowLengths(slot, shapes[i], i);
    }
    const std::array<Dims, 3> rows = SplitRows(shapes[i], lengths);
    operands.push_back(e.inference.ShapeFromDims(
        StrCat("operand ", i), rows[int(AxisKind::kBatch)],
        rows[int(AxisKind::kInput)], rows[int(AxisKind::kOutput)]));
  }
  e.result = e.inference.NewShape("result");
  if (is_permute) {
    e.step = e.inference.AddStep(
        {e.result, TransposeLogic{TransposeType::kPermute, operands[0],
                                  std::string(spec)}});
  } else {
    e.step = e.inference.AddStep(
        {e.result,
         BroadcastLogic{ComposeType::kEinsum, operands, std::string(spec)}});
  }
  e.inference.Finish();
  return e;
}

}  // namespace

Dims LabelsEinsumShape(std::string_view spec,
                       std::span<const DimsView> shapes) {
  const LabelsEinsum e = InferLabelsEinsum(spec, shapes, nullptr);
  return e.inference.ToDims(e.result);
}

Projections LabelsEinsumProjections(std::string_view spec,
                                    std::span<const DimsView> shapes) {
  const LabelsEinsum e = InferLabelsEinsum(spec, shapes, nullptr);
  return e.inference.DeriveProjections(e.step);
}

Dims LabelsEinsumShape(std::string_view spec, std::span<const DimsView> shapes,
                       std::span<const RowLengths> rows) {
  const LabelsEinsum e = InferLabelsEinsum(spec, shapes, &rows);
  return e.inference.ToDims(e.result);
}

Projections LabelsEinsumProjections(std::string_view spec,
                                    std::span<const DimsView> shapes,
                                    std::span<const RowLengths> rows) {
  const LabelsEinsum e = InferLabelsEinsum(spec, shapes, &rows);
  return e.inference.DeriveProjections(e.step);
}

void CheckRowLengths(std::span<const RowLengths> rows,
                     std::span<const DimsView> shapes, const char* op) {
  if (rows.size() != shapes.size()) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", rows.size(),
         " row lengths for ", shapes.size(), " operands");
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const RowLengths& r = rows[i];
    if (r.batch < 0 || r.output < 0 || r.input < 0) {
      Fail(ErrorKind::kInvalidArgument, op, ": operand ", i,
           ": row lengths (batch ", r.batch, ", output ", r.output, ", input ",
           r.input, ") must not be negative");
    }
    const int64_t sum =
        CheckedAdd(CheckedAdd(r.batch, r.output, op), r.input, op);
    if (sum != int64_t(shapes[i].size())) {
      Fail(ErrorKind::kInvalidArgument, op, ": operand ", i,
           ": row lengths (batch ", r.batch, ", output ", r.output, ", input ",
           r.input, ") sum to ", sum, " but it has ", shapes[i].size(),
           " axes");
    }
  }
}

// ---- Variables and shapes ----

int ShapeInference::NewDimVar() {
  const int var = static_cast<int>(dims_.size());
  dims_.push_back({var});
  return var;
}

int ShapeInference::NewRowVar() {
  row_values_.emplace_back();
  return static_cast<int>(row_values_.size()) - 1;
}

Row ShapeInference::FreshRow(int num_axes, bool open) {
  Row row;
  if (open) row.var = NewRowVar();
  for (int i = 0; i < num_axes; ++i) row.end.push_back(Dim::Var(NewDimVar()));
  return row;
}

ShapeId ShapeInference::NewShape(std::string name) {
  std::array<Row, 3> rows;
  for (Row& row : rows) row = FreshRow(0, true);
  return ShapeFromRows(std::move(name), std::move(rows));
}

ShapeId ShapeInference::ShapeFromDims(std::string name, DimsView batch,
                                      DimsView input, DimsView output) {
  std::array<Row, 3> rows;
  const std::array<DimsView, 3> dims = {batch, input, output};
  for (AxisKind kind : kAllKinds) {
    CheckShape(dims[int(kind)], "ShapeFromDims");
    for (int64_t d : dims[int(kind)])
      rows[int(kind)].end.push_back(Dim::Size(d));
  }
  return ShapeFromRows(std::move(name), std::move(rows));
}

ShapeId ShapeInference::ShapeFromSpec(std::string name, std::string_view spec) {
  const LabelsSpec labels = ParseAxisLabels(spec);
  std::map<std::string, int> dim_vars, row_vars;
  auto to_dim = [&](const AxisSpec& axis) {
    switch (axis.kind) {
      case AxisSpec::Kind::kFixedIndex:
        return Dim::Size(axis.index);
      case AxisSpec::Kind::kPlaceholder:
        return Dim::Var(NewDimVar());
      default:
        auto [it, fresh] = dim_vars.emplace(axis.label, 0);
        if (fresh) it->second = NewDimVar();
        return Dim::Var(it->second);
    }
  };
  std::array<Row, 3> rows;
  for (AxisKind kind : kAllKinds) {
    const RowSpec& spec_row = labels.row(kind);
    Row& row = rows[int(kind)];
    for (const AxisSpec& axis : spec_row.beg) row.beg.push_back(to_dim(axis));
    for (const AxisSpec& axis : spec_row.end) row.end.push_back(to_dim(axis));
    if (spec_row.row_var) {
      auto [it, fresh] = row_vars.emplace(*spec_row.row_var, 0);
      if (fresh) it->second = NewRowVar();
      row.var = it->second;
    }
  }
  return ShapeFromRows(std::move(name), std::move(rows));
}

ShapeId ShapeInference::ShapeFromRows(std::string name,
                                      std::array<Row, 3> rows) {
  for (const Row& row : rows) {
    if (row.var && (*row.var < 0 || *row.var >= int(row_values_.size()))) {
      Fail(ErrorKind::kInvalidArgument, "ShapeFromRows: unknown row variable ",
           *row.var, " in shape \"", name, "\"");
    }
    for (const auto* dims : {&row.beg, &row.end}) {
      for (const Dim& d : *dims) {
        if (d.is_known() ? d.size < 0 : d.var >= int(dims_.size())) {
          Fail(ErrorKind::kInvalidArgument,
               "ShapeFromRows: invalid dimension in shape \"", name, "\"");
        }
      }
    }
  }
  shapes_.push_back({std::move(name), std::move(rows), false});
  return static_cast<ShapeId>(shapes_.size()) - 1;
}

// ---- Substitution ----

int ShapeInference::FindDim(int var) const {
  while (dims_[var].parent != var) var = dims_[var].parent;
  return var;
}

Dim ShapeInference::NormDim(Dim d) const {
  if (d.is_known()) return d;
  const int root = FindDim(d.var);
  return dims_[root].value >= 0 ? Dim::Size(dims_[root].value) : Dim::Var(root);
}

Row ShapeInference::NormRow(const Row& row) const {
  Row r = row;
  while (r.var && row_values_[*r.var]) {
    const Row& sub = *row_values_[*r.var];
    r.beg.insert(r.beg.end(), sub.beg.begin(), sub.beg.end());
    r.end.insert(r.end.begin(), sub.end.begin(), sub.end.end());
    r.var = sub.var;
    if (r.num_axes() > kMaxRank) {
      Fail(ErrorKind::kInvalidArgument,
           "Infinite number of axes by rank cycle among row variables (a row "
           "grew beyond ",
           kMaxRank, " axes)");
    }
  }
  if (!r.var) {
    r.end.insert(r.end.begin(), r.beg.begin(), r.beg.end());
    r.beg.clear();
  }
  for (Dim& d : r.beg) d = NormDim(d);
  for (Dim& d : r.end) d = NormDim(d);
  return r;
}

void ShapeInference::BindDim(int root, int64_t value, const Where* where,
                             int pos) {
  const int64_t at_least = dims_[root].at_least;
  if (value < at_least) {
    const std::string message =
        StrCat("At_least_dim constraint failed, expected ", at_least);
    if (where) FailAt(*where, pos, message);
    Fail(ErrorKind::kInvalidArgument, message);
  }
  dims_[root].value = value;
  ++bindings_;
}

void ShapeInference::BindRow(int var, Row value) {
  row_values_[var] = std::move(value);
  ++bindings_;
}

ShapeId ShapeInference::ShapeOf(StepId step, int tensor) const {
  const UpdateStep& s = steps_[step].step;
  return tensor < 0 ? s.shape : OperandsOf(s)[tensor];
}

const Row& ShapeInference::RowOf(StepId step, const Side& side) const {
  if (side.slot >= 0) return steps_[step].templates[side.slot][int(side.kind)];
  return shapes_[ShapeOf(step, side.tensor)].rows[int(side.kind)];
}

// ---- Equalities ----

void ShapeInference::UnifyDims(Dim a, Dim b, const Where& where, int pos) {
  a = NormDim(a);
  b = NormDim(b);
  if (a.is_known() && b.is_known()) {
    if (a.size != b.size) {
      FailAt(where, pos,
             StrCat("solved dimensions for axis: mismatch (", a.size, " vs ",
                    b.size, ")"));
    }
  } else if (b.is_known()) {
    BindDim(a.var, b.size, &where, pos);
  } else if (a.is_known()) {
    BindDim(b.var, a.size, &where, pos);
  } else if (a.var != b.var) {
    dims_[a.var].at_least =
        std::max(dims_[a.var].at_least, dims_[b.var].at_least);
    dims_[b.var].parent = a.var;
    ++bindings_;
  }
}

void ShapeInference::UnifyRows(const Row& a_row, const Row& b_row,
                               const Where& where) {
  const Row a = NormRow(a_row);
  const Row b = NormRow(b_row);
  if (!a.var && !b.var) {
    if (a.end.size() != b.end.size()) {
      FailRows(where, StrCat("Mismatching number of axes (", a.end.size(),
                             " vs ", b.end.size(), ")"));
    }
    for (size_t i = 0; i < a.end.size(); ++i) {
      UnifyDims(a.end[i], b.end[i], where, int(i));
    }
    return;
  }
  if (!a.var || !b.var) {
    const Row& open = a.var ? a : b;
    const Row& closed = a.var ? b : a;
    const size_t n = closed.end.size();
    if (size_t(open.num_axes()) > n) {
      FailRows(where, StrCat("Number of axes mismatch (at least ",
                             open.num_axes(), " vs ", n, ")"));
    }
    for (size_t i = 0; i < open.beg.size(); ++i) {
      UnifyDims(open.beg[i], closed.end[i], where, int(i));
    }
    const size_t tail = n - open.end.size();
    for (size_t j = 0; j < open.end.size(); ++j) {
      UnifyDims(open.end[j], closed.end[tail + j], where, int(tail + j));
    }
    BindRow(*open.var,
            Row{{}, std::nullopt, Slice(closed.end, open.beg.size(), tail)});
    return;
  }
  if (*a.var == *b.var) {
    if (a.beg.size() != b.beg.size() || a.end.size() != b.end.size()) {
      FailRows(where, "Infinite number of axes by self-reference");
    }
  }
  const size_t kb = std::min(a.beg.size(), b.beg.size());
  const size_t ke = std::min(a.end.size(), b.end.size());
  for (size_t i = 0; i < kb; ++i) UnifyDims(a.beg[i], b.beg[i], where, int(i));
  for (size_t j = 1; j <= ke; ++j) {
    UnifyDims(a.end[a.end.size() - j], b.end[b.end.size() - j], where, -int(j));
  }
  if (*a.var == *b.var) return;
  // Each variable takes the other row's surplus flanks around a shared fresh
  // variable.
  const int middle = NewRowVar();
  BindRow(*a.var, Row{Slice(b.beg, kb, b.beg.size()), middle,
                      Slice(b.end, 0, b.end.size() - ke)});
  BindRow(*b.var, Row{Slice(a.beg, kb, a.beg.size()), middle,
                      Slice(a.end, 0, a.end.size() - ke)});
}

// ---- Inequalities ----

template <typename F>
void ShapeInference::ForEachAlignedPair(const Row& res, const Row& opnd,
                                        F&& f) const {
  const size_t ke = std::min(res.end.size(), opnd.end.size());
  for (size_t j = 1; j <= ke; ++j) {
    const int pos = res.var ? -int(j) : int(res.end.size() - j);
    f(res.end[res.end.size() - j], opnd.end[opnd.end.size() - j], pos);
  }
  if (!opnd.var) return;
  const std::vector<Dim>& res_left = res.var ? res.beg : res.end;
  const size_t kb = std::min(res_left.size(), opnd.beg.size());
  for (size_t i = 0; i < kb; ++i) f(res_left[i], opnd.beg[i], int(i));
}

void ShapeInference::ApplyDimInequality(Dim res, Dim opnd, const Where& where,
                                        int pos) {
  res = NormDim(res);
  opnd = NormDim(opnd);
  if (res.is_known() && opnd.is_known()) {
    if (opnd.size != res.size && opnd.size != 1) {
      FailAt(where, pos,
             StrCat("dimension comparison for axis: mismatch (", res.size,
                    " vs ", opnd.size, ")"));
    }
  } else if (opnd.is_known() && opnd.size != 1) {
    BindDim(res.var, opnd.size, &where, pos);
  } else if (res.is_known() && res.size == 1 && !opnd.is_known()) {
    BindDim(opnd.var, 1, &where, pos);
  }
}

void ShapeInference::ApplyInequality(StepId step, const Inequality& ineq) {
  const Where where{step, ineq.res, ineq.opnd};
  Row res = NormRow(RowOf(step, ineq.res));
  const Row opnd = NormRow(RowOf(step, ineq.opnd));
  if (res.num_axes() < opnd.num_axes()) {
    if (!res.var) {
      FailRows(where,
               "Too many axes in an operand; maybe using * instead of *.?");
    }
    // Template growth: the result has at least the operand's rank.
    BindRow(*res.var, FreshRow(opnd.num_axes() - res.num_axes(), true));
    res = NormRow(RowOf(step, ineq.res));
  }
  ForEachAlignedPair(res, opnd, [&](Dim r, Dim o, int pos) {
    ApplyDimInequality(r, o, where, pos);
  });
}

std::vector<ShapeInference::Inequality> ShapeInference::Inequalities(
    const StepState& state) const {
  using K = AxisKind;
  auto ineq = [](int res, K res_kind, int opnd, K opnd_kind) {
    return Inequality{{res, -1, res_kind}, {opnd, -1, opnd_kind}};
  };
  constexpr int kC = -1, kA = 0, kB = 1;
  std::vector<Inequality> out;
  if (const BroadcastLogic* b = AsBroadcast(state.step)) {
    if (b->type == ComposeType::kPointwiseBin) {
      for (K k : kAllKinds) {
        out.push_back(ineq(kC, k, kA, k));
        out.push_back(ineq(kC, k, kB, k));
      }
    } else if (b->type == ComposeType::kCompose) {
      out = {ineq(kA, K::kInput, kB, K::kOutput),
             ineq(kC, K::kBatch, kA, K::kBatch),
             ineq(kC, K::kBatch, kB, K::kBatch),
             ineq(kC, K::kInput, kB, K::kInput),
             ineq(kC, K::kOutput, kA, K::kOutput)};
    }
  } else if (const TransposeLogic* t = AsTranspose(state.step)) {
    if (t->type == TransposeType::kPointwiseUn) {
      for (K k : kAllKinds) out.push_back(ineq(kC, k, kA, k));
    } else if (t->type == TransposeType::kTranspose) {
      out = {ineq(kC, K::kBatch, kA, K::kBatch),
             ineq(kC, K::kInput, kA, K::kOutput),
             ineq(kC, K::kOutput, kA, K::kInput)};
    }
  }
  return out;
}

// ---- Steps ----

void ShapeInference::BuildTemplates(StepState& state) {
  auto to_dim = [&](const AxisSpec& axis) {
    const int var = NewDimVar();
    switch (axis.kind) {
      case AxisSpec::Kind::kFixedIndex:
        dims_[var].at_least = CheckedAdd(axis.index, 1, "fixed index");
        return Dim::Var(var);
      case AxisSpec::Kind::kPlaceholder:
        return Dim::Var(var);
      default:
        return Dim::Var(
            state.label_vars.emplace(axis.label, var).first->second);
    }
  };
  auto to_rows = [&](const LabelsSpec& labels) {
    std::array<Row, 3> rows;
    for (AxisKind kind : kAllKinds) {
      const RowSpec& spec_row = labels.row(kind);
      Row& row = rows[int(kind)];
      for (const AxisSpec& axis : spec_row.beg) row.beg.push_back(to_dim(axis));
      for (const AxisSpec& axis : spec_row.end) row.end.push_back(to_dim(axis));
      if (spec_row.row_var) {
        auto [it, fresh] = state.row_vars.emplace(*spec_row.row_var, 0);
        if (fresh) it->second = NewRowVar();
        row.var = it->second;
      }
    }
    return rows;
  };
  for (const LabelsSpec& operand : state.spec->operands) {
    state.templates.push_back(to_rows(operand));
  }
  state.templates.push_back(to_rows(state.spec->result));
}

StepId ShapeInference::AddStep(UpdateStep step) {
  const int num_shapes = static_cast<int>(shapes_.size());
  for (ShapeId id : OperandsOf(step)) {
    if (id < 0 || id >= num_shapes) {
      Fail(ErrorKind::kInvalidArgument, "AddStep: unknown operand shape ", id);
    }
  }
  if (step.shape < 0 || step.shape >= num_shapes) {
    Fail(ErrorKind::kInvalidArgument, "AddStep: unknown result shape ",
         step.shape);
  }
  StepState state{step, std::nullopt, {}, {}, {}, -1};
  if (const BroadcastLogic* b = AsBroadcast(step)) {
    if (b->type == ComposeType::kEinsum) {
      state.spec = ParseEinsumLabels(b->spec);
      CheckEinsumArity(*state.spec, b->operands.size(), false);
    } else if (b->operands.size() != 2) {
      Fail(ErrorKind::kInvalidArgument,
           b->type == ComposeType::kCompose ? "Compose" : "Pointwise_bin",
           " takes two operands, got ", b->operands.size());
    }
  } else if (const TransposeLogic* t = AsTranspose(step)) {
    if (t->type == TransposeType::kPermute) {
      state.spec = ParseEinsumLabels(t->spec);
      CheckEinsumArity(*state.spec, 1, true);
    } else if (t->type == TransposeType::kBatchSlice) {
      state.slice_var = NewDimVar();
    }
  }
  if (state.spec) BuildTemplates(state);
  steps_.push_back(std::move(state));
  const StepId id = static_cast<StepId>(steps_.size()) - 1;
  Apply(id);
  return id;
}

void ShapeInference::Propagate(StepId step) {
  if (step < 0 || step >= int(steps_.size())) {
    Fail(ErrorKind::kInvalidArgument, "Propagate: unknown step ", step);
  }
  Apply(step);
}

void ShapeInference::Apply(StepId step) {
  const StepState& state = steps_[step];
  if (const auto* terminal = std::get_if<TerminalLogic>(&state.step.logic)) {
    if (terminal->is_parameter) shapes_[state.step.shape].is_parameter = true;
    return;
  }
  if (state.spec) {
    const int num_operands = static_cast<int>(state.spec->operands.size());
    for (int slot = 0; slot <= num_operands; ++slot) {
      const int tensor = slot == num_operands ? -1 : slot;
      for (AxisKind kind : kAllKinds) {
        const Where where{step, {tensor, -1, kind}, {-1, slot, kind}};
        UnifyRows(RowOf(step, where.left), RowOf(step, where.right), where);
      }
    }
    return;
  }
  const TransposeLogic* t = AsTranspose(state.step);
  if (t && t->type == TransposeType::kBatchSlice) {
    for (AxisKind kind : kAllKinds) {
      const Where where{step, {0, -1, kind}, {-1, -1, kind}};
      Row result = NormRow(RowOf(step, where.right));
      if (kind == AxisKind::kBatch) {
        std::vector<Dim>& flank = result.var ? result.beg : result.end;
        flank.insert(flank.begin(), Dim::Var(state.slice_var));
      }
      UnifyRows(RowOf(step, where.left), result, where);
    }
    return;
  }
  for (const Inequality& ineq : Inequalities(state))
    ApplyInequality(step, ineq);
}

void ShapeInference::PropagateToFixpoint() {
  for (;;) {
    const int64_t before = bindings_;
    for (StepId step = 0; step < int(steps_.size()); ++step) Apply(step);
    if (bindings_ == before) return;
  }
}

// ---- Closing ----

std::optional<int64_t> ShapeInference::RowBound(
    int var, std::vector<bool>& visiting) const {
  if (visiting[var]) return std::nullopt;
  visiting[var] = true;
  std::optional<int64_t> best;
  for (StepId step = 0; step < int(steps_.size()); ++step) {
    for (const Inequality& ineq : Inequalities(steps_[step])) {
      const Row opnd = NormRow(RowOf(step, ineq.opnd));
      if (opnd.var != var) continue;
      const Row res = NormRow(RowOf(step, ineq.res));
      // The result's known axes, plus its own variable's bound. An open
      // result with no known axis and no bound gives no information.
      std::optional<int64_t> rank;
      if (!res.var) {
        rank = res.num_axes();
      } else if (auto bound = RowBound(*res.var, visiting)) {
        rank = *bound + res.num_axes();
      } else if (res.num_axes() > 0) {
        rank = res.num_axes();
      }
      if (!rank) continue;
      const int64_t candidate = std::max<int64_t>(0, *rank - opnd.num_axes());
      best = best ? std::min(*best, candidate) : candidate;
    }
  }
  visiting[var] = false;
  return best;
}

std::optional<int64_t> ShapeInference::DimBound(
    int root, std::vector<bool>& visiting) const {
  if (visiting[root]) return std::nullopt;
  visiting[root] = true;
  std::set<int64_t> values;
  for (StepId step = 0; step < int(steps_.size()); ++step) {
    for (const Inequality& ineq : Inequalities(steps_[step])) {
      const Row res = NormRow(RowOf(step, ineq.res));
      const Row opnd = NormRow(RowOf(step, ineq.opnd));
      ForEachAlignedPair(res, opnd, [&](Dim r, Dim o, int) {
        if (o.is_known() || o.var != root) return;
        if (r.is_known()) {
          values.insert(r.size);
        } else if (auto bound = DimBound(r.var, visiting)) {
          values.insert(*bound);
        }
      });
    }
  }
  visiting[root] = false;
  if (values.empty()) return std::nullopt;
  // Users that disagree make the axis broadcast.
  return values.size() == 1 ? *values.begin() : 1;
}

bool ShapeInference::CloseOne() {
  std::vector<int> open_rows, open_dims;
  for (const ShapeInfo& shape : shapes_) {
    for (const Row& raw : shape.rows) {
      const Row row = NormRow(raw);
      if (row.var) open_rows.push_back(*row.var);
      for (const auto* dims : {&row.beg, &row.end}) {
        for (const Dim& d : *dims) {
          if (!d.is_known()) open_dims.push_back(d.var);
        }
      }
    }
  }
  if (open_rows.empty() && open_dims.empty()) return false;
  std::vector<bool> row_visiting(row_values_.size());
  for (int var : open_rows) {
    if (auto bound = RowBound(var, row_visiting)) {
      BindRow(var, FreshRow(static_cast<int>(*bound), false));
      return true;
    }
  }
  std::vector<bool> dim_visiting(dims_.size());
  for (int root : open_dims) {
    const int64_t at_least = dims_[root].at_least;
    if (at_least == 1) {  // Fixed index 0: a "keepdim" axis.
      BindDim(root, 1, nullptr, 0);
      return true;
    }
    if (auto bound = DimBound(root, dim_visiting)) {
      if (*bound < at_least) {
        Fail(ErrorKind::kInvalidArgument, "dereferenced at dimension ",
             at_least, ", higher than use site ", *bound);
      }
      BindDim(root, *bound, nullptr, 0);
      return true;
    }
  }
  // Parameters are not guessed: a row with no known axis or an unknown dim
  // left now is an error (a row with axes may still close to no more axes).
  for (ShapeId id = 0; id < int(shapes_.size()); ++id) {
    if (!shapes_[id].is_parameter) continue;
    for (AxisKind kind : kMemoryOrder) {
      const Row row = ResolvedRow(id, kind);
      const auto unknown = [](const Dim& d) { return !d.is_known(); };
      if ((row.var && row.num_axes() == 0) ||
          std::any_of(row.beg.begin(), row.beg.end(), unknown) ||
          std::any_of(row.end.begin(), row.end.end(), unknown)) {
        Fail(ErrorKind::kInvalidArgument,
             "You forgot to specify the hidden dimension(s) of parameter \"",
             shapes_[id].name, "\" (", AxisKindName(kind),
             " row): ", ToString(id));
      }
    }
  }
  if (!open_rows.empty()) {
    BindRow(open_rows.front(), Row{});
  } else {
    BindDim(open_dims.front(),
            std::max<int64_t>(1, dims_[open_dims.front()].at_least), nullptr,
            0);
  }
  return true;
}

void ShapeInference::Finish() {
  do {
    PropagateToFixpoint();
  } while (CloseOne());
}

// ---- Results ----

Row ShapeInference::ResolvedRow(ShapeId shape, AxisKind kind) const {
  return NormRow(shapes_.at(shape).rows[int(kind)]);
}

bool ShapeInference::IsResolved(ShapeId shape) const {
  for (AxisKind kind : kAllKinds) {
    const Row row = ResolvedRow(shape, kind);
    if (row.var) return false;
    for (const Dim& d : row.end) {
      if (!d.is_known()) return false;
    }
  }
  return true;
}

Dims ShapeInference::ToDims(ShapeId shape) const {
  if (!IsResolved(shape)) {
    Fail(ErrorKind::kInvalidArgument,
         "Not enough shape information: unresolved variable in shape \"",
         shapes_[shape].name, "\" ", ToString(shape));
  }
  Dims dims;
  for (AxisKind kind : kMemoryOrder) {
    for (const Dim& d : ResolvedRow(shape, kind).end) dims.push_back(d.size);
  }
  return dims;
}

std::string ShapeInference::ToString(ShapeId shape) const {
  std::array<std::string, 3> text;
  int axis = 0;
  for (AxisKind kind : kMemoryOrder) {
    const Row row = ResolvedRow(shape, kind);
    std::string& out = text[int(kind)];
    auto add = [&](const std::string& item) {
      if (!out.empty()) out += ",";
      out += item;
    };
    auto add_dims = [&](const std::vector<Dim>& dims) {
      for (const Dim& d : dims) {
        add(d.is_known() ? StrCat(axis, ":", d.size) : StrCat(axis, ":?"));
        ++axis;
      }
    };
    add_dims(row.beg);
    if (row.var) add("<..>");
    add_dims(row.end);
  }
  std::string out;
  if (!text[int(AxisKind::kBatch)].empty()) {
    out += text[int(AxisKind::kBatch)] + "|";
  }
  if (!text[int(AxisKind::kInput)].empty()) {
    out += text[int(AxisKind::kInput)] + "->";
  }
  return out + text[int(AxisKind::kOutput)];
}

Dims ShapeInference::LabelDims(StepId step, std::string_view name) const {
  const StepState& state = steps_.at(step);
  const std::string key(name);
  Row row;
  if (auto it = state.label_vars.find(key); it != state.label_vars.end()) {
    row.end.push_back(Dim::Var(it->second));
  } else if (auto it = state.row_vars.find(key); it != state.row_vars.end()) {
    row.var = it->second;
  } else {
    Fail(ErrorKind::kInvalidArgument, "Variable ", name,
         " not found in environments for spec: ",
         state.spec ? state.spec->text : std::string());
  }
  row = NormRow(row);
  Dims dims;
  for (const Dim& d : row.end) {
    if (row.var || !d.is_known()) {
      Fail(ErrorKind::kInvalidArgument,
           "Not enough shape information: unresolved variable ", name);
    }
    dims.push_back(d.size);
  }
  if (row.var) {
    Fail(ErrorKind::kInvalidArgument,
         "Not enough shape information: unresolved variable ", name);
  }
  return dims;
}

// ---- Errors ----

std::string ShapeInference::DescribeStep(StepId step) const {
  const UpdateStep& s = steps_[step].step;
  std::string op;
  if (const BroadcastLogic* b = AsBroadcast(s)) {
    op = b->type == ComposeType::kPointwiseBin ? "Pointwise_bin"
         : b->type == ComposeType::kCompose
             ? "Compose"
             : StrCat("Einsum \"", b->spec, "\"");
  } else if (const TransposeLogic* t = AsTranspose(s)) {
    op = t->type == TransposeType::kTranspose     ? "Transpose"
         : t->type == TransposeType::kPointwiseUn ? "Pointwise_un"
         : t->type == TransposeType::kBatchSlice
             ? "Batch_slice"
             : StrCat("Permute \"", t->spec, "\"");
  }
  return StrCat(op, " for \"", shapes_[s.shape].name, "\"");
}

std::string ShapeInference::Describe(StepId step, const Side& side) const {
  const char* kind = AxisKindName(side.kind);
  if (side.slot >= 0) {
    const EinsumLabelsSpec& spec = *steps_[step].spec;
    const bool is_result = side.slot == int(spec.operands.size());
    const LabelsSpec& labels =
        is_result ? spec.result : spec.operands[side.slot];
    return StrCat(
        kind, " row ", stridekit::ToString(labels.row(side.kind)), " of spec ",
        is_result ? std::string("result") : StrCat("slot ", side.slot + 1));
  }
  const ShapeId id = ShapeOf(step, side.tensor);
  return StrCat(kind, " row of \"", shapes_[id].name, "\" ", ToString(id));
}

void ShapeInference::FailAt(const Where& where, int pos,
                            const std::string& message) const {
  Fail(ErrorKind::kInvalidArgument, message, " at axis ", pos, ": ",
       Describe(where.step, where.left), " vs ",
       Describe(where.step, where.right), " in ", DescribeStep(where.step));
}

void ShapeInference::FailRows(const Where& where,
                              const std::string& message) const {
  Fail(ErrorKind::kInvalidArgument, message, ": ",
       Describe(where.step, where.left), " vs ",
       Describe(where.step, where.right), " in ", DescribeStep(where.step));
}

// ---- Projections ----

Projections ShapeInference::DeriveProjections(StepId step) const {
  const StepState& state = steps_.at(step);
  if (std::holds_alternative<TerminalLogic>(state.step.logic)) {
    Fail(ErrorKind::kInvalidArgument,
         "derive_projections: a Terminal step has no operands");
  }
  const std::vector<ShapeId> operands = OperandsOf(state.step);
  const int num_operands = static_cast<int>(operands.size());
  // Per tensor (result at index 0, operand i at i + 1): each kind's memory
  // offset and length.
  std::vector<std::array<int, 3>> offset(num_operands + 1),
      length(num_operands + 1);
  std::vector<Dims> dims;
  for (int t = -1; t < num_operands; ++t) {
    const ShapeId id = t < 0 ? state.step.shape : operands[t];
    dims.push_back(ToDims(id));
    int axis = 0;
    for (AxisKind kind : kMemoryOrder) {
      offset[t + 1][int(kind)] = axis;
      length[t + 1][int(kind)] = ResolvedRow(id, kind).num_axes();
      axis += length[t + 1][int(kind)];
    }
  }
  const std::vector<DimsView> operand_dims(dims.begin() + 1, dims.end());
  ProjectionBuilder builder(dims[0], operand_dims);
  using AxisRef = ProjectionBuilder::AxisRef;
  auto ref = [&](int tensor, AxisKind kind, int pos) {
    return AxisRef{tensor, offset[tensor + 1][int(kind)] + pos};
  };

  if (state.spec) {
    std::map<std::string, AxisRef> representative;
    auto equate = [&](const std::string& key, AxisRef axis) {
      auto [it, fresh] = representative.emplace(key, axis);
      if (!fresh) builder.Equate(it->second, axis);
    };
    for (int t = -1; t < num_operands; ++t) {
      const LabelsSpec& labels =
          t < 0 ? state.spec->result : state.spec->operands[t];
      for (AxisKind kind : kAllKinds) {
        const RowSpec& row = labels.row(kind);
        const int n = length[t + 1][int(kind)];
        const int tail = n - static_cast<int>(row.end.size());
        for (int pos = 0; pos < n; ++pos) {
          const AxisRef axis = ref(t, kind, pos);
          const AxisSpec* spec = pos < int(row.beg.size()) ? &row.beg[pos]
                                 : pos >= tail ? &row.end[pos - tail]
                                               : nullptr;
          if (!spec) {
            equate(StrCat("..", *row.row_var, "..#", pos - row.beg.size()),
                   axis);
          } else if (spec->kind == AxisSpec::Kind::kFixedIndex) {
            builder.Pin(axis, AxisIndex::Fixed(spec->index));
          } else if (spec->kind == AxisSpec::Kind::kLabel) {
            equate(spec->label, axis);
          }
        }
      }
    }
    return builder.Build();
  }
  // Inequalities and slices pair rows from the right; a size-1 operand axis
  // against a longer result axis is read at index 0.
  auto pair_rows = [&](const Side& res, const Side& opnd, int skip_leading) {
    const int nr = length[res.tensor + 1][int(res.kind)];
    const int no = length[opnd.tensor + 1][int(opnd.kind)] - skip_leading;
    for (int j = 1; j <= std::min(nr, no); ++j) {
      const AxisRef r = ref(res.tensor, res.kind, nr - j);
      const AxisRef o = ref(opnd.tensor, opnd.kind, skip_leading + no - j);
      const int64_t opnd_size = dims[o.tensor + 1][o.axis];
      if (opnd_size == 1 && dims[r.tensor + 1][r.axis] != 1) {
        builder.Pin(o, AxisIndex::Fixed(0));
      } else {
        builder.Equate(r, o);
      }
    }
  };
  const TransposeLogic* t = AsTranspose(state.step);
  if (t && t->type == TransposeType::kBatchSlice) {
    builder.Pin(ref(0, AxisKind::kBatch, 0), AxisIndex::SliceIndex());
    for (AxisKind kind : kAllKinds) {
      pair_rows({-1, -1, kind}, {0, -1, kind}, kind == AxisKind::kBatch);
    }
    return builder.Build();
  }
  for (const Inequality& ineq : Inequalities(state)) {
    pair_rows(ineq.res, ineq.opnd, 0);
  }
  return builder.Build();
}

}  // namespace stridekit
