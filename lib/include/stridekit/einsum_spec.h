// NumPy einsum subscripts ("ij,jk->ik", implicit output "ij,jk", "...",
// repeated labels for diagonals, any number of operands): the parser and the
// shape-level plan (result shape and projections) that execution consumes.
// Error messages follow NumPy 1.24's wording, prefixed with "einsum: ".
#ifndef STRIDEKIT_EINSUM_SPEC_H_
#define STRIDEKIT_EINSUM_SPEC_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stridekit/dims.h"
#include "stridekit/ocannl_labels.h"
#include "stridekit/projections.h"

namespace stridekit {

// The subscripts of one operand or of the output: its letters in written
// order with "..." removed, and where the "..." stood.
struct EinsumTerm {
  std::string labels;
  int ellipsis_at = -1;  // index into labels before which "..." stands, or -1

  bool has_ellipsis() const { return ellipsis_at >= 0; }
  friend bool operator==(const EinsumTerm&, const EinsumTerm&) = default;
};

struct EinsumSubscripts {
  std::vector<EinsumTerm> inputs;
  // The explicit output, or the implicit one: "..." first if any input has
  // one, then the labels that appear exactly once, sorted by ASCII (so
  // uppercase before lowercase).
  EinsumTerm output;
  bool explicit_output = false;
};

// Parses NumPy subscripts. Spaces are ignored; labels are ASCII letters.
EinsumSubscripts ParseEinsumSubscripts(std::string_view spec);

// The result shape and projections of `subscripts` applied to operands of
// `shapes`: labels and ellipsis dims broadcast NumPy-style (an operand axis
// of size 1 against a longer label is pinned at index 0), repeated labels in
// one operand must have equal sizes and read the diagonal.
Projections EinsumProjections(const EinsumSubscripts& subscripts,
                              std::span<const DimsView> shapes);

// The result shape of np.einsum(spec, *operands of `shapes`).
Dims EinsumShape(std::string_view spec, std::span<const DimsView> shapes);

// The projections of an einsum spec in either notation: OCANNL labels
// (LabelsEinsumProjections of shape_inference.h, with `rows` when given)
// when `spec` contains "=>", else NumPy subscripts, which take no rows
// (kInvalidArgument when given).
Projections EinsumSpecProjections(
    std::string_view spec, std::span<const DimsView> shapes,
    std::optional<std::span<const RowLengths>> rows = std::nullopt);

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_EINSUM_SPEC_H_
