#include "stridekit/einsum_spec.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <utility>

#include "stridekit/error.h"
#include "stridekit/shape.h"
#include "stridekit/shape_inference.h"

namespace stridekit {
namespace {

constexpr int kNumChars = 128;

bool IsLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Parses spec[begin, end) as the term of operand `operand`, or of the
// output when it is negative (named in errors only: no string per call).
EinsumTerm ParseTerm(std::string_view spec, size_t begin, size_t end,
                     int operand) {
  EinsumTerm term;
  for (size_t i = begin; i < end; ++i) {
    const char c = spec[i];
    if (c == ' ') continue;
    if (IsLetter(c)) {
      term.labels.push_back(c);
    } else if (c == '.' && !term.has_ellipsis() && i + 3 <= end &&
               spec.substr(i, 3) == "...") {
      term.ellipsis_at = static_cast<int>(term.labels.size());
      i += 2;
    } else if (c == '.') {
      Fail(ErrorKind::kInvalidArgument,
           "einsum: einstein sum subscripts string contains a '.' that is not "
           "part of an ellipsis ('...') in ",
           operand < 0 ? StrCat("the output") : StrCat("operand ", operand),
           " (column ", i + 1, ")");
    } else {
      Fail(ErrorKind::kInvalidArgument, "einsum: invalid subscript '", c,
           "' in einstein sum subscripts string, subscripts must be letters "
           "(column ",
           i + 1, ")");
    }
  }
  return term;
}

EinsumTerm ImplicitOutput(const std::vector<EinsumTerm>& inputs) {
  std::array<int, kNumChars> count{};
  EinsumTerm output;
  for (const EinsumTerm& term : inputs) {
    for (char c : term.labels) ++count[static_cast<unsigned char>(c)];
    if (term.has_ellipsis()) output.ellipsis_at = 0;
  }
  for (int c = 0; c < kNumChars; ++c) {
    if (count[c] == 1) output.labels.push_back(static_cast<char>(c));
  }
  return output;
}

void CheckExplicitOutput(const EinsumSubscripts& s) {
  std::array<bool, kNumChars> in_input{};
  for (const EinsumTerm& term : s.inputs) {
    for (char c : term.labels) in_input[static_cast<unsigned char>(c)] = true;
  }
  std::array<bool, kNumChars> seen{};
  for (char c : s.output.labels) {
    const auto u = static_cast<unsigned char>(c);
    if (seen[u]) {
      Fail(ErrorKind::kInvalidArgument,
           "einsum: einstein sum subscripts string includes output subscript "
           "'",
           c, "' multiple times");
    }
    if (!in_input[u]) {
      Fail(ErrorKind::kInvalidArgument,
           "einsum: einstein sum subscripts string included output subscript "
           "'",
           c, "' which never appeared in an input");
    }
    seen[u] = true;
  }
}

// Size of each label (by character) or ellipsis position (kNumChars + j)
// after NumPy broadcasting, with the operand that first gave a size > 1.
class LabelSizes {
 public:
  explicit LabelSizes(int ellipsis_rank)
      : size_(kNumChars + ellipsis_rank, -1),
        operand_(kNumChars + ellipsis_rank, -1) {}

  void Add(int key, int64_t size, int operand) {
    int64_t& known = size_[key];
    if (known == -1 || known == 1) {
      known = size;
      operand_[key] = operand;
    } else if (size != 1 && size != known) {
      Fail(ErrorKind::kInvalidArgument,
           "einsum: operands could not be broadcast together: ", KeyName(key),
           " has size ", known, " in operand ", operand_[key], " and size ",
           size, " in operand ", operand);
    }
  }
  int64_t operator[](int key) const { return size_[key]; }

 private:
  static std::string KeyName(int key) {
    if (key < kNumChars) return StrCat("label '", static_cast<char>(key), "'");
    return StrCat("ellipsis dimension ", key - kNumChars);
  }

  std::vector<int64_t> size_;
  std::vector<int> operand_;
};

// The label key of each axis of an operand with `ndim` axes.
std::vector<int> AxisKeys(const EinsumTerm& term, int ndim, int ellipsis_rank,
                          int operand) {
  const int num_labels = static_cast<int>(term.labels.size());
  if (!term.has_ellipsis() && ndim > num_labels) {
    Fail(ErrorKind::kInvalidArgument, "einsum: operand ", operand,
         " has more dimensions than subscripts given in einstein sum, but no "
         "'...' ellipsis provided to broadcast the extra dimensions.");
  }
  if (ndim < num_labels) {
    Fail(ErrorKind::kInvalidArgument,
         "einsum: einstein sum subscripts string contains too many subscripts "
         "for operand ",
         operand);
  }
  const int own_ellipsis = ndim - num_labels;
  const int ellipsis_at = term.has_ellipsis() ? term.ellipsis_at : num_labels;
  std::vector<int> keys;
  for (int p = 0; p < ellipsis_at; ++p) {
    keys.push_back(static_cast<unsigned char>(term.labels[p]));
  }
  for (int q = 0; q < own_ellipsis; ++q) {
    keys.push_back(kNumChars + ellipsis_rank - own_ellipsis + q);
  }
  for (int p = ellipsis_at; p < num_labels; ++p) {
    keys.push_back(static_cast<unsigned char>(term.labels[p]));
  }
  return keys;
}

// The projections of plain subscripts (letters, commas and at most one
// "->": no ellipsis, no spaces) on shapes they fit, computed without the
// general path's parse and union-find: the same Projections, loops
// numbered alike (result axes first, then operand axes by first
// appearance), into p. False for anything else, errors included, which
// the general path then derives (and reports) on its own; p is then partly
// written.
bool PlainSubscriptProjections(std::string_view spec,
                               std::span<const DimsView> shapes,
                               Projections& p) {
  constexpr int kNone = -1;
  // Letters as 0..51 in ASCII order (the implicit output's order).
  constexpr int kLetters = 52;
  const auto letter = [](char c) { return c <= 'Z' ? c - 'A' : c - 'a' + 26; };
  const auto letter_char = [](int l) {
    return static_cast<char>(l < 26 ? 'A' + l : 'a' + l - 26);
  };
  const size_t arrow = spec.find("->");
  const size_t inputs_end =
      arrow == std::string_view::npos ? spec.size() : arrow;
  // The general path's order: the spec first (letters counted, the
  // output's checked), then the operand count, then every shape.
  const int num_operands = static_cast<int>(shapes.size());
  if (num_operands == 0 || num_operands > kMaxRank) return false;
  size_t term_begin[kMaxRank + 1];
  // Letters as bits: those in the inputs, those there more than once (no
  // per-letter table to clear: a call costs what its spec holds).
  uint64_t present = 0, repeated = 0;
  const auto bit = [](int l) { return uint64_t{1} << l; };
  int terms = 0;
  for (size_t i = 0;; ++i) {
    if (i == inputs_end || spec[i] == ',') {
      if (terms == num_operands) return false;
      term_begin[terms++] = i;  // One past the term's end, for now.
      if (i == inputs_end) break;
    } else if (IsLetter(spec[i])) {
      const uint64_t b = bit(letter(spec[i]));
      repeated |= present & b;
      present |= b;
    } else {
      return false;
    }
  }
  if (terms != num_operands) return false;
  for (int k = num_operands - 1; k >= 0; --k) {  // Ends to beginnings.
    term_begin[k] = k == 0 ? 0 : term_begin[k - 1] + 1;
  }
  char result[kLetters];
  int rank = 0;
  if (arrow != std::string_view::npos) {
    if (spec.size() - arrow - 2 > size_t{kMaxRank}) return false;
    uint64_t seen = 0;
    for (size_t i = arrow + 2; i < spec.size(); ++i) {
      if (!IsLetter(spec[i])) return false;
      const uint64_t b = bit(letter(spec[i]));
      if ((seen & b) != 0 || (present & b) == 0) return false;
      seen |= b;
      result[rank++] = spec[i];
    }
  } else {
    for (uint64_t once = present & ~repeated; once != 0; once &= once - 1) {
      result[rank++] = letter_char(std::countr_zero(once));
    }
    if (rank > kMaxRank) return false;
  }
  for (DimsView shape : shapes) CheckShape(shape, "einsum");
  // Label sizes after broadcasting; a term must name every axis once.
  // Only the inputs' letters are set (and read).
  std::array<int64_t, kLetters> size;
  std::array<int, kLetters> loop;
  for (uint64_t left = present; left != 0; left &= left - 1) {
    size[size_t(std::countr_zero(left))] = kNone;
    loop[size_t(std::countr_zero(left))] = kNone;
  }
  for (int k = 0; k < num_operands; ++k) {
    const DimsView shape = shapes[size_t(k)];
    const size_t begin = term_begin[k];
    const size_t length =
        (k + 1 < num_operands ? term_begin[k + 1] - 1 : inputs_end) - begin;
    if (length != shape.size()) return false;
    for (size_t i = 0; i < length; ++i) {
      const int c = letter(spec[begin + i]);
      const int64_t n = shape[i];
      for (size_t j = 0; j < i; ++j) {  // A repeated label's sizes agree.
        if (spec[begin + j] == spec[begin + i] && shape[j] != n) {
          return false;
        }
      }
      if (size[c] == kNone || size[c] == 1) {
        size[c] = n;
      } else if (n != 1 && n != size[c]) {
        return false;
      }
    }
  }
  // The index of an axis of label c and size n (a broadcast or size-1
  // axis: fixed at 0), numbering loops in order of first appearance.
  bool too_many = false;
  const auto index = [&](int c, int64_t n) {
    if (n != size[c] || n == 1) return AxisIndex::Fixed(0);
    if (loop[c] == kNone) {
      if (p.product_space.size() == kMaxRank) too_many = true;
      if (too_many) return AxisIndex::Fixed(0);
      loop[c] = p.product_space.size();
      p.product_space.push_back(n);
    }
    return AxisIndex::Iterator(loop[c]);
  };
  for (int a = 0; a < rank; ++a) {
    const int c = letter(result[a]);
    p.result_shape.push_back(size[c]);
    p.result_map.push_back(index(c, size[c]));
  }
  const int result_loops = p.product_space.size();
  p.operand_shapes.reserve(shapes.size());
  p.operand_maps.resize(shapes.size());
  size_t at = 0;
  for (size_t t = 0; t < shapes.size(); ++t) {
    p.operand_shapes.emplace_back(shapes[t]);
    AxisMap& map = p.operand_maps[t];
    for (int64_t n : shapes[t]) {
      map.push_back(index(letter(spec[at++]), n));
    }
    ++at;  // The comma.
  }
  if (too_many) return false;
  p.is_reduction.assign(p.product_space.size(), false);
  for (int l = result_loops; l < p.product_space.size(); ++l) {
    p.is_reduction[size_t(l)] = true;
  }
  p.initialize_neutral = result_loops < p.product_space.size();
  return true;
}

}  // namespace

EinsumSubscripts ParseEinsumSubscripts(std::string_view spec) {
  EinsumSubscripts s;
  const size_t arrow = spec.find("->");
  for (size_t i = 0; i < spec.size(); ++i) {
    if ((spec[i] != '-' && spec[i] != '>') || i == arrow || i == arrow + 1) {
      continue;
    }
    if (spec.substr(i, 2) == "->") {
      Fail(ErrorKind::kInvalidArgument,
           "einsum: einstein sum subscripts string contains '->' more than "
           "once (column ",
           i + 1, ")");
    }
    Fail(ErrorKind::kInvalidArgument,
         "einsum: einstein sum subscript string does not contain proper '->' "
         "output specified (column ",
         i + 1, ")");
  }
  const size_t inputs_end =
      arrow == std::string_view::npos ? spec.size() : arrow;
  for (size_t begin = 0;;) {
    const size_t comma = std::min(spec.find(',', begin), inputs_end);
    s.inputs.push_back(
        ParseTerm(spec, begin, comma, static_cast<int>(s.inputs.size())));
    if (comma == inputs_end) break;
    begin = comma + 1;
  }
  s.explicit_output = arrow != std::string_view::npos;
  if (s.explicit_output) {
    s.output = ParseTerm(spec, arrow + 2, spec.size(), -1);
    CheckExplicitOutput(s);
  } else {
    s.output = ImplicitOutput(s.inputs);
  }
  return s;
}

Projections EinsumProjections(const EinsumSubscripts& subscripts,
                              std::span<const DimsView> shapes) {
  const int num_operands = static_cast<int>(shapes.size());
  const int num_terms = static_cast<int>(subscripts.inputs.size());
  if (num_operands > num_terms) {
    Fail(ErrorKind::kInvalidArgument,
         "einsum: more operands provided to einstein sum function than "
         "specified in the subscripts string (",
         num_operands, " vs ", num_terms, ")");
  }
  if (num_operands < num_terms) {
    Fail(ErrorKind::kInvalidArgument,
         "einsum: fewer operands provided to einstein sum function than "
         "specified in the subscripts string (",
         num_operands, " vs ", num_terms, ")");
  }
  int ellipsis_rank = 0;
  for (int k = 0; k < num_operands; ++k) {
    CheckShape(shapes[k], "einsum");
    const int own = static_cast<int>(shapes[k].size()) -
                    static_cast<int>(subscripts.inputs[k].labels.size());
    if (subscripts.inputs[k].has_ellipsis()) {
      ellipsis_rank = std::max(ellipsis_rank, own);
    }
  }
  LabelSizes sizes(ellipsis_rank);
  std::vector<std::vector<int>> keys;
  for (int k = 0; k < num_operands; ++k) {
    keys.push_back(AxisKeys(subscripts.inputs[k],
                            static_cast<int>(shapes[k].size()), ellipsis_rank,
                            k));
    std::vector<int64_t> own_size(kNumChars + ellipsis_rank, -1);
    for (size_t axis = 0; axis < keys[k].size(); ++axis) {
      const int key = keys[k][axis];
      const int64_t size = shapes[k][axis];
      if (own_size[key] != -1 && own_size[key] != size) {
        Fail(ErrorKind::kInvalidArgument, "einsum: dimensions in operand ", k,
             " for collapsing index '", static_cast<char>(key),
             "' don't match (", own_size[key], " != ", size, ")");
      }
      own_size[key] = size;
      sizes.Add(key, size, k);
    }
  }
  const EinsumTerm& out = subscripts.output;
  if (ellipsis_rank > 0 && !out.has_ellipsis()) {
    Fail(ErrorKind::kInvalidArgument,
         "einsum: output has more dimensions than subscripts given in einstein "
         "sum, but no '...' ellipsis provided to broadcast the extra "
         "dimensions.");
  }
  const std::vector<int> result_keys =
      AxisKeys(out, static_cast<int>(out.labels.size()) + ellipsis_rank,
               ellipsis_rank, 0);
  Dims result_shape;
  for (int key : result_keys) result_shape.push_back(sizes[key]);

  ProjectionBuilder builder(result_shape, shapes);
  std::vector<std::optional<ProjectionBuilder::AxisRef>> representative(
      kNumChars + ellipsis_rank);
  for (size_t axis = 0; axis < result_keys.size(); ++axis) {
    representative[result_keys[axis]] = {ProjectionBuilder::kResult,
                                         static_cast<int>(axis)};
  }
  for (int k = 0; k < num_operands; ++k) {
    for (size_t axis = 0; axis < keys[k].size(); ++axis) {
      const int key = keys[k][axis];
      const ProjectionBuilder::AxisRef ref{k, static_cast<int>(axis)};
      if (shapes[k][axis] != sizes[key]) {
        builder.Pin(ref, AxisIndex::Fixed(0));  // A broadcast size-1 axis.
      } else if (representative[key]) {
        builder.Equate(*representative[key], ref);
      } else {
        representative[key] = ref;
      }
    }
  }
  return builder.Build();
}

Dims EinsumShape(std::string_view spec, std::span<const DimsView> shapes) {
  return EinsumProjections(ParseEinsumSubscripts(spec), shapes).result_shape;
}

Projections EinsumSpecProjections(
    std::string_view spec, std::span<const DimsView> shapes,
    std::optional<std::span<const RowLengths>> rows) {
  if (spec.find("=>") != std::string_view::npos) {
    return rows ? LabelsEinsumProjections(spec, shapes, *rows)
                : LabelsEinsumProjections(spec, shapes);
  }
  if (rows) {
    Fail(ErrorKind::kInvalidArgument,
         "einsum: row lengths apply to OCANNL label specs (with \"=>\"), "
         "not to NumPy subscripts \"",
         spec, "\"");
  }
  Projections p;  // Returned in place (one object on every path).
  if (!PlainSubscriptProjections(spec, shapes, p)) {
    p = EinsumProjections(ParseEinsumSubscripts(spec), shapes);
  }
  return p;
}

}  // namespace stridekit
