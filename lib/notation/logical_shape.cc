#include "stridekit/logical_shape.h"

#include <charconv>

#include "strided_layout.h"
#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {

namespace {

constexpr uint8_t kMagic[4] = {'S', 'K', 'S', 'H'};
constexpr uint8_t kFormatVersion = 1;
constexpr uint8_t kInvalidDTypeByte = 255;
constexpr uint8_t kHasNamesFlag = 1;

void CheckNameCount(size_t names, int rank, const char* op) {
  if (names != size_t(rank)) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", names,
         " axis names for a shape of rank ", rank);
  }
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Throws unless every dynamic axis of `dims` has a name in `names` (one per
// axis).
void CheckDynamicAxesNamed(DimsView dims,
                           std::span<const std::string_view> names,
                           const char* op) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == LogicalShape::kDynamicDim && names[i].empty()) {
      Fail(ErrorKind::kInvalidArgument, op, ": dynamic axis ", i,
           " must be named");
    }
  }
}

}  // namespace

LogicalShape LogicalShape::Make(DType dtype, DimsView dims) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      Fail(ErrorKind::kInvalidArgument, "shape: dimension ", dims[i],
           " at axis ", i, " of ", ToString(dims),
           " is negative (dynamic axes need MakeDynamic and a name)");
    }
  }
  LogicalShape s;
  s.ok_ = true;
  s.dtype_ = dtype;
  s.dims_ = dims;
  return s;
}

LogicalShape LogicalShape::MakeDynamic(
    DType dtype, DimsView dims, std::span<const std::string_view> names) {
  const char* op = "shape";
  CheckNameCount(names.size(), int(dims.size()), op);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < kDynamicDim) {
      Fail(ErrorKind::kInvalidArgument, op, ": dimension ", dims[i],
           " at axis ", i, " is below -1 (the dynamic dimension)");
    }
  }
  CheckDynamicAxesNamed(dims, names, op);
  LogicalShape s;
  s.ok_ = true;
  s.dtype_ = dtype;
  s.dims_ = dims;
  s.names_.assign(names.begin(), names.end());
  return s;
}

int LogicalShape::NormalizedAxis(int64_t axis, const char* op) const {
  if (axis < -rank() || axis >= rank()) {
    Fail(ErrorKind::kOutOfRange, op, ": axis ", axis, " is out of range for ",
         String());
  }
  return int(axis < 0 ? axis + rank() : axis);
}

int64_t LogicalShape::Dim(int64_t axis) const {
  return dims_[NormalizedAxis(axis, "dim")];
}

bool LogicalShape::IsZeroSize() const {
  for (int64_t d : dims_) {
    if (d == 0) return true;
  }
  return false;
}

bool LogicalShape::IsDynamic() const {
  for (int64_t d : dims_) {
    if (d == kDynamicDim) return true;
  }
  return false;
}

bool LogicalShape::IsAxisDynamic(int64_t axis) const {
  return dims_[NormalizedAxis(axis, "is_axis_dynamic")] == kDynamicDim;
}

int64_t LogicalShape::Size() const {
  if (IsDynamic()) {
    Fail(ErrorKind::kInvalidArgument, "size: ", String(),
         " is dynamic; resolve it first");
  }
  return CheckedNumel(dims_, "size", "shape");
}

int64_t LogicalShape::ByteSize() const {
  return CheckedMul(Size(), int64_t(DTypeSize(dtype_)), "byte_size");
}

Dims LogicalShape::Strides() const {
  Size();  // Throws on dynamic shapes and overflow.
  Dims strides(rank(), 0);
  if (IsZeroSize()) return strides;
  int64_t stride = 1;
  for (int d = rank() - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= dims_[d];  // offset-checked: Size() fits, no dim is 0
  }
  return strides;
}

std::string_view LogicalShape::AxisName(int64_t axis) const {
  const int a = NormalizedAxis(axis, "axis_name");
  return names_.empty() ? std::string_view() : std::string_view(names_[a]);
}

LogicalShape LogicalShape::WithAxisNames(
    std::span<const std::string_view> names) const {
  CheckNameCount(names.size(), rank(), "with_axis_names");
  CheckDynamicAxesNamed(dims(), names, "with_axis_names");
  LogicalShape s = *this;
  s.names_.assign(names.begin(), names.end());
  return s;
}

bool operator==(const LogicalShape& a, const LogicalShape& b) {
  if (a.ok_ != b.ok_ || a.dtype_ != b.dtype_ || !(a.dims_ == b.dims_)) {
    return false;
  }
  for (int i = 0; i < a.rank(); ++i) {
    if (a.AxisName(i) != b.AxisName(i)) return false;
  }
  return true;
}

bool LogicalShape::EqualDimensions(const LogicalShape& other) const {
  return dims_ == other.dims_;
}

void LogicalShape::CheckRank(int want) const {
  if (rank() != want) {
    Fail(ErrorKind::kInvalidArgument, "check: ", String(), " has rank ", rank(),
         ", want rank ", want);
  }
}

void LogicalShape::CheckScalar() const {
  if (!IsScalar()) {
    Fail(ErrorKind::kInvalidArgument, "check: ", String(), " is not a scalar");
  }
}

void LogicalShape::CheckDims(DimsView want) const {
  CheckRank(int(want.size()));
  for (int i = 0; i < rank(); ++i) {
    if (want[i] != kUncheckedAxis && want[i] != dims_[i]) {
      Fail(ErrorKind::kInvalidArgument, "check: ", String(), " axis ", i,
           " has dimension ", dims_[i], ", want ", want[i], " (of ",
           ToString(want), ")");
    }
  }
}

void LogicalShape::Check(DType want_dtype, DimsView want) const {
  if (!ok_ || dtype_ != want_dtype) {
    Fail(ErrorKind::kInvalidArgument, "check: ", String(), " has dtype ",
         ok_ ? DTypeName(dtype_) : "InvalidDType", ", want ",
         DTypeName(want_dtype));
  }
  CheckDims(want);
}

LogicalShape LogicalShape::Resolve(const AxisBindings& bindings) const {
  return ResolveWith(bindings, false);
}

LogicalShape LogicalShape::ResolvePartial(const AxisBindings& bindings) const {
  return ResolveWith(bindings, true);
}

LogicalShape LogicalShape::ResolveWith(const AxisBindings& bindings,
                                       bool partial) const {
  const char* op = partial ? "resolve_partial" : "resolve";
  LogicalShape s = *this;
  for (int i = 0; i < rank(); ++i) {
    if (dims_[i] != kDynamicDim) continue;
    const std::string_view name = AxisName(i);
    int64_t value;
    if (name.empty() || !bindings.Lookup(name, value)) {
      if (partial) continue;
      if (name.empty()) {
        Fail(ErrorKind::kInvalidArgument, op, ": dynamic axis ", i, " of ",
             String(), " has no name");
      }
      Fail(ErrorKind::kInvalidArgument, op, ": no binding for axis ", i, " \"",
           name, "\" of ", String(), " in {", bindings.Key(), "}");
    }
    if (value <= 0) {
      Fail(ErrorKind::kInvalidArgument, op, ": axis ", i, " \"", name, "\" of ",
           String(), " resolves to ", value, "; dynamic axes must be positive");
    }
    s.dims_[i] = value;
  }
  return s;
}

std::string LogicalShape::String() const {
  std::string out = "(";
  out += ok_ ? DTypeName(dtype_) : "InvalidDType";
  out += ")";
  if (rank() == 0) return out;
  out += "[";
  for (int i = 0; i < rank(); ++i) {
    if (i > 0) out += ", ";
    if (!AxisName(i).empty()) {
      out += AxisName(i);
      out += '=';
    }
    out +=
        dims_[i] == kDynamicDim ? std::string("?") : std::to_string(dims_[i]);
  }
  return out + "]";
}

IndexRange LogicalShape::Iter() const {
  Size();  // Throws on dynamic shapes.
  Dims axes;
  for (int d = 0; d < rank(); ++d) axes.push_back(d);
  return IndexRange(dims_, axes, Strides(), {});
}

IndexRange LogicalShape::IterOn(std::span<int64_t> indices) const {
  Size();
  if (indices.size() != size_t(rank())) {
    Fail(ErrorKind::kInvalidArgument, "iter_on: ", indices.size(),
         " indices for ", String());
  }
  Dims axes;
  for (int d = 0; d < rank(); ++d) axes.push_back(d);
  return IndexRange(dims_, axes, Strides(), indices);
}

IndexRange LogicalShape::IterOnAxes(DimsView axes, DimsView strides,
                                    std::span<int64_t> indices) const {
  const char* op = "iter_on_axes";
  Size();
  if (indices.size() != size_t(rank())) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", indices.size(), " indices for ",
         String());
  }
  if (!strides.empty() && strides.size() != size_t(rank())) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", strides.size(), " strides for ",
         String());
  }
  bool seen[kMaxRank] = {};
  for (int64_t axis : axes) {
    if (axis < 0 || axis >= rank() || seen[axis]) {
      Fail(ErrorKind::kOutOfRange, op, ": axes ", ToString(axes),
           " must be distinct axes of ", String());
    }
    seen[axis] = true;
  }
  const Dims flat_strides = strides.empty() ? Strides() : Dims(strides);
  // Every flat index the range reaches must fit in int64: the fixed axes'
  // part (the caller's indices) plus any index of the moving axes.
  int64_t fixed = 0;
  Dims moving_shape, moving_strides;
  for (int d = 0; d < rank(); ++d) {
    if (seen[d]) {
      moving_shape.push_back(dims_[d]);
      moving_strides.push_back(flat_strides[d]);
    } else {
      fixed =
          CheckedAdd(fixed, CheckedMul(indices[d], flat_strides[d], op), op);
    }
  }
  CheckOffsetsFit(moving_shape, moving_strides, fixed, op);
  return IndexRange(dims_, axes, flat_strides, indices);
}

std::vector<uint8_t> LogicalShape::Serialize() const {
  std::vector<uint8_t> out(kMagic, kMagic + 4);
  out.push_back(kFormatVersion);
  out.push_back(ok_ ? uint8_t(dtype_) : kInvalidDTypeByte);
  out.push_back(uint8_t(rank()));
  out.push_back(names_.empty() ? 0 : kHasNamesFlag);
  for (int64_t d : dims_) {
    for (int b = 0; b < 8; ++b) out.push_back(uint8_t(uint64_t(d) >> (8 * b)));
  }
  for (const std::string& name : names_) {
    if (name.size() > 0xffff) {
      Fail(ErrorKind::kInvalidArgument, "serialize: axis name of ", name.size(),
           " bytes is longer than 65535");
    }
    out.push_back(uint8_t(name.size()));
    out.push_back(uint8_t(name.size() >> 8));
    out.insert(out.end(), name.begin(), name.end());
  }
  return out;
}

LogicalShape LogicalShape::Deserialize(std::span<const uint8_t> bytes) {
  const char* op = "deserialize shape";
  size_t pos = 0;
  auto need = [&](size_t n, const char* what) {
    if (bytes.size() - pos < n) {
      Fail(ErrorKind::kInvalidArgument, op, ": truncated at byte ", pos, " (",
           what, " needs ", n, " bytes, ", bytes.size() - pos, " remain)");
    }
  };
  need(8, "the header");
  for (int i = 0; i < 4; ++i) {
    if (bytes[i] != kMagic[i]) {
      Fail(ErrorKind::kInvalidArgument, op, ": bad magic at byte ", i);
    }
  }
  if (bytes[4] != kFormatVersion) {
    Fail(ErrorKind::kInvalidArgument, op, ": unknown format version ",
         int(bytes[4]), " at byte 4");
  }
  const uint8_t dtype = bytes[5], rank = bytes[6], flags = bytes[7];
  pos = 8;
  const bool invalid = dtype == kInvalidDTypeByte;
  if (!invalid && !IsValidDType(dtype)) {
    Fail(ErrorKind::kInvalidArgument, op, ": unknown dtype ", int(dtype),
         " at byte 5");
  }
  if (rank > kMaxRank || (invalid && rank != 0)) {
    Fail(ErrorKind::kInvalidArgument, op, ": rank ", int(rank),
         " at byte 6 is not allowed");
  }
  if ((flags & ~kHasNamesFlag) != 0 || (invalid && flags != 0)) {
    Fail(ErrorKind::kInvalidArgument, op, ": unknown flags ", int(flags),
         " at byte 7");
  }
  Dims dims;
  for (int i = 0; i < rank; ++i) {
    need(8, "a dimension");
    uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v |= uint64_t(bytes[pos + b]) << (8 * b);
    dims.push_back(int64_t(v));
    pos += 8;
  }
  std::vector<std::string> names;
  if (flags & kHasNamesFlag) {
    for (int i = 0; i < rank; ++i) {
      need(2, "a name length");
      const size_t length = bytes[pos] | size_t(bytes[pos + 1]) << 8;
      pos += 2;
      need(length, "a name");
      names.emplace_back(reinterpret_cast<const char*>(bytes.data() + pos),
                         length);
      pos += length;
    }
  }
  if (pos != bytes.size()) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", bytes.size() - pos,
         " trailing bytes at byte ", pos);
  }
  if (invalid) return LogicalShape();
  std::vector<std::string_view> views(names.begin(), names.end());
  if (views.empty()) views.assign(size_t(rank), std::string_view());
  try {
    LogicalShape s = MakeDynamic(DType(dtype), dims, views);
    if (names.empty()) s.names_.clear();
    return s;
  } catch (const Error& e) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", e.what());
  }
}

LogicalShape ConcatenateDimensions(const LogicalShape& a,
                                   const LogicalShape& b) {
  if (!a.ok() || !b.ok() || a.dtype() != b.dtype()) {
    Fail(ErrorKind::kInvalidArgument, "concatenate_dimensions: ", a.String(),
         " and ", b.String(), " need valid, equal dtypes");
  }
  if (a.IsScalar()) return b;
  if (b.IsScalar()) return a;
  LogicalShape s = a;
  for (int64_t d : b.dims()) s.dims_.push_back(d);
  if (a.has_axis_names() || b.has_axis_names()) {
    s.names_.clear();
    for (int i = 0; i < a.rank(); ++i) s.names_.emplace_back(a.AxisName(i));
    for (int i = 0; i < b.rank(); ++i) s.names_.emplace_back(b.AxisName(i));
  }
  return s;
}

bool AxisNameEqual(std::string_view a, std::string_view b) {
  return a != LogicalShape::kAnonymousAxis &&
         b != LogicalShape::kAnonymousAxis && a == b;
}

std::string UnifyAxisName(std::string_view a, std::string_view b) {
  if (a == LogicalShape::kAnonymousAxis || b == LogicalShape::kAnonymousAxis ||
      (!a.empty() && !b.empty() && a != b)) {
    Fail(ErrorKind::kInvalidArgument, "unify: incompatible axis names \"", a,
         "\" and \"", b, "\"");
  }
  return std::string(a.empty() ? b : a);
}

std::vector<std::string> UnifyAxisNames(const LogicalShape& a,
                                        const LogicalShape& b) {
  if (!a.has_axis_names() && !b.has_axis_names()) return {};
  if (a.rank() != b.rank()) {
    Fail(ErrorKind::kInvalidArgument, "unify: ", a.String(), " and ",
         b.String(), " have different ranks");
  }
  std::vector<std::string> names;
  bool any = false;
  for (int i = 0; i < a.rank(); ++i) {
    names.push_back(UnifyAxisName(a.AxisName(i), b.AxisName(i)));
    any = any || !names.back().empty();
  }
  if (!any) names.clear();
  return names;
}

void AxisBindings::Set(std::string_view name, int64_t value) {
  values_.insert_or_assign(std::string(name), value);
}

bool AxisBindings::Lookup(std::string_view name, int64_t& value) const {
  if (const auto it = values_.find(name); it != values_.end()) {
    value = it->second;
    return true;
  }
  if (name.empty() || name.front() != '=') return false;
  // "=10+batch": a sum of integer literals and bound names.
  std::string_view rest = name.substr(1);
  int64_t sum = 0;
  while (true) {
    const size_t plus = rest.find('+');
    const std::string_view term = Trim(rest.substr(0, plus));
    if (term.empty()) return false;
    int64_t v;
    const auto [end, ec] =
        std::from_chars(term.data(), term.data() + term.size(), v);
    if (ec != std::errc() || end != term.data() + term.size()) {
      const auto it = values_.find(term);
      if (it == values_.end()) return false;
      v = it->second;
    }
    if (__builtin_add_overflow(sum, v, &sum)) return false;
    if (plus == std::string_view::npos) break;
    rest = rest.substr(plus + 1);
  }
  value = sum;
  return true;
}

void AxisBindings::Extract(const LogicalShape& templ,
                           const LogicalShape& concrete) {
  const char* op = "extract";
  if (templ.rank() != concrete.rank()) {
    Fail(ErrorKind::kInvalidArgument, op, ": rank mismatch between template ",
         templ.String(), " and ", concrete.String());
  }
  if (templ.dtype() != concrete.dtype()) {
    Fail(ErrorKind::kInvalidArgument, op, ": dtype mismatch between template ",
         templ.String(), " and ", concrete.String());
  }
  AxisBindings next = *this;
  for (int i = 0; i < templ.rank(); ++i) {
    const int64_t want = templ.dims()[i], got = concrete.dims()[i];
    if (got == LogicalShape::kDynamicDim) {
      Fail(ErrorKind::kInvalidArgument, op, ": axis ", i, " of ",
           concrete.String(), " is dynamic");
    }
    if (want == LogicalShape::kDynamicDim) {
      const std::string_view name = templ.AxisName(i);
      if (name.empty()) {
        Fail(ErrorKind::kInvalidArgument, op, ": dynamic axis ", i, " of ",
             templ.String(), " has no name");
      }
      const auto it = next.values_.find(name);
      if (it != next.values_.end() && it->second != got) {
        Fail(ErrorKind::kInvalidArgument, op, ": conflicting values for \"",
             name, "\": ", it->second, " and ", got, " (axis ", i, ")");
      }
      next.Set(name, got);
    } else if (want != got) {
      Fail(ErrorKind::kInvalidArgument, op, ": dimension mismatch at axis ", i,
           ": template ", templ.String(), ", concrete ", concrete.String());
    }
  }
  *this = std::move(next);
}

std::string AxisBindings::Key() const {
  std::string key;
  for (const auto& [name, value] : values_) {  // std::map: sorted by name
    if (!key.empty()) key += ',';
    key += name;
    key += '=';
    key += std::to_string(value);
  }
  return key;
}

IndexRange::IndexRange(DimsView shape, DimsView axes, DimsView strides,
                       std::span<int64_t> indices)
    : shape_(shape), axes_(axes), strides_(strides) {
  if (indices.empty()) {
    owned_.assign(int(shape.size()), 0);
  } else {
    external_ = indices.data();
  }
  for (int64_t d : shape_) done_ = done_ || d <= 0;
  int64_t* index = this->index();
  for (int64_t axis : axes_) index[axis] = 0;
  // Canonical strides, or IterOnAxes validated every flat index.
  // offset-checked: see above
  for (int d = 0; d < shape_.size(); ++d) flat_ += index[d] * strides_[d];
}

void IndexRange::Advance() {
  int64_t* index = this->index();
  for (int k = axes_.size() - 1; k >= 0; --k) {
    const int axis = int(axes_[k]);
    if (++index[axis] < shape_[axis]) {
      flat_ += strides_[axis];  // offset-checked: as in the constructor
      return;
    }
    // offset-checked: as in the constructor
    flat_ -= (index[axis] - 1) * strides_[axis];
    index[axis] = 0;
  }
  done_ = true;
}

IndexStep IndexRange::Iterator::operator*() const {
  return {range_->flat_,
          DimsView(range_->index(), size_t(range_->shape_.size()))};
}

IndexRange::Iterator& IndexRange::Iterator::operator++() {
  range_->Advance();
  return *this;
}

}  // namespace stridekit
