/* stridekit C ABI. Valid C99 and C++. Every function is extern "C", never
 * throws, never aborts on bad input and is thread-safe; the message of this
 * thread's last failed call is sk_last_error(). Names, enum values and struct
 * layout are fixed by the contract (docs/c_abi.md). */
#ifndef STRIDEKIT_STRIDEKIT_H_
#define STRIDEKIT_STRIDEKIT_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <stddef.h>
#include <stdint.h>

#include "stridekit/c_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Message of this thread's last failed call, "" if none. */
const char* sk_last_error(void);
/* "MAJOR.MINOR.PATCH" */
const char* sk_version(void);

/* Bytes per element; 0 for an unknown value. */
size_t sk_dtype_size(sk_dtype t);

/* ---- Shapes ---- */
sk_status sk_numel(int32_t ndim, const int64_t* shape, int64_t* out);
sk_status sk_c_strides(int32_t ndim, const int64_t* shape,
                       int64_t* out_strides);
sk_status sk_ravel_index(int32_t ndim, const int64_t* index,
                         const int64_t* strides, int64_t* out);
sk_status sk_unravel_index(int64_t k, int32_t ndim, const int64_t* shape,
                           int64_t* out_index);
/* spec may hold one -1; the result has spec_ndim entries */
sk_status sk_resolve_reshape(int32_t ndim, const int64_t* shape,
                             int32_t spec_ndim, const int64_t* spec,
                             int64_t* out_shape);
/* NumPy broadcasting of n shapes; out_shape has room for SK_MAX_NDIM entries */
sk_status sk_broadcast_shapes(int32_t n, const int32_t* ndims,
                              const int64_t* const* shapes, int32_t* out_ndim,
                              int64_t* out_shape);

/* ---- Batch index kernels (SIMD-dispatched) ---- */
/* out[i] = offset + sum_d indices[i*ndim + d] * strides[d] */
sk_status sk_ravel_batch(int64_t n, int32_t ndim, const int64_t* indices,
                         const int64_t* strides, int64_t offset, int64_t* out);
/* out[i*ndim + d] = C-order multi-index of flat[i]; any flat[i] out of range
 * -> SK_ERR_OUT_OF_RANGE */
sk_status sk_unravel_batch(int64_t n, const int64_t* flat, int32_t ndim,
                           const int64_t* shape, int64_t* out);
/* element offsets of the view's elements begin .. begin+count-1 in C order of
 * its shape; masked-out positions give INT64_MIN. Broadcast index maps are
 * this on an expanded view. */
sk_status sk_view_offsets(const sk_view* v, int64_t begin, int64_t count,
                          int64_t* out);

/* ---- Views (metadata only, never touch data) ----
 * Every function validates its input view as the kernels do, writes every
 * field of *out (entries past ndim zeroed) only on success, and allows out to
 * alias the input. Semantics follow NumPy; see stridekit/view.h. */
sk_status sk_view_make(int32_t ndim, const int64_t* shape,
                       const int64_t* strides /* NULL: C */, int64_t offset,
                       sk_view* out);
/* NumPy reshape without a copy; one -1 is inferred. SK_ERR_NEEDS_COPY when no
 * view of the same buffer has the new shape. */
sk_status sk_view_reshape(const sk_view* v, int32_t ndim, const int64_t* shape,
                          sk_view* out);
/* NumPy broadcast_to */
sk_status sk_view_expand(const sk_view* v, int32_t ndim, const int64_t* shape,
                         sk_view* out);
/* v->ndim axes, negative allowed */
sk_status sk_view_permute(const sk_view* v, const int32_t* axes, sk_view* out);
/* half-open [begin, end) per axis, empty ranges allowed */
sk_status sk_view_shrink(const sk_view* v, const int64_t* begin,
                         const int64_t* end, sk_view* out);
/* virtual padding through the mask; the offset may become negative */
sk_status sk_view_pad(const sk_view* v, const int64_t* before,
                      const int64_t* after, sk_view* out);
sk_status sk_view_flip(const sk_view* v, int32_t axis, sk_view* out);
/* NumPy basic indexing written as text: "1:3, ::-1, ..., None, 0" (ints drop
 * an axis, None/newaxis insert one, "..." fills, missing trailing axes are
 * ":") */
sk_status sk_view_slice(const sk_view* v, const char* spec, sk_view* out);

/* flags: SK_C_CONTIGUOUS, SK_F_CONTIGUOUS, SK_BROADCAST, SK_MASKED */
/* 0 for NULL or an invalid view (sk_last_error says why) */
uint32_t sk_view_flags(const sk_view* v);
/* [lo, hi): smallest and one past the largest element offset a valid element
 * touches; lo = hi = 0 for an empty view */
sk_status sk_view_span(const sk_view* v, int64_t* lo, int64_t* hi);

/* dlpack.h declares DLTensor as a typedef of an unnamed struct, which C++
 * cannot also forward-declare as `struct DLTensor`: include dlpack.h before
 * this header to call these with a DLTensor*. Without it, the contract's
 * declaration is used. */
#ifdef DLPACK_VERSION
typedef DLTensor sk_dltensor;
#else
struct DLTensor;
typedef struct DLTensor sk_dltensor;
#endif
/* DLPack's own definition: strides in elements (NULL = C order), as
 * dlpack.h documents them and producers such as NumPy's __dlpack__ export
 * them. byte_offset must divide by the item size. *data = t->data, and
 * out->offset is byte_offset / item size. */
sk_status sk_view_from_dlpack(const sk_dltensor* t, sk_view* out,
                              sk_dtype* dtype, void** data);

/* Additions beyond the contract. */
/* As sk_view_from_dlpack, but reads DLTensor.strides as BYTES (not DLPack's
 * definition; for producers that fill strides in bytes). Every byte stride
 * must divide by the item size. */
sk_status sk_view_from_dlpack_byte_strides(const sk_dltensor* t, sk_view* out,
                                           sk_dtype* dtype, void** data);
/* Deprecated (0.2.0): the same as sk_view_from_dlpack, which now reads
 * element strides; kept for the binary interface, to be removed in 1.0. */
sk_status sk_view_from_dlpack_elements(const sk_dltensor* t, sk_view* out,
                                       sk_dtype* dtype, void** data);
/* Fills *out to describe view v of type t over `data` (the pointer the view's
 * offsets count from): kDLCPU device 0, the DLPack dtype (bool as code 6,
 * bits 8), shape and element strides copied into shape_storage and
 * strides_storage (each with room for v->ndim entries; they may be NULL when
 * v->ndim is 0; out->shape and out->strides point to them, so they must
 * outlive *out), and byte_offset = offset * item size. A negative offset is
 * folded into out->data (byte_offset 0). Masked views: SK_ERR_UNSUPPORTED.
 * Writes nothing to *out on failure. */
sk_status sk_view_to_dlpack(const sk_view* v, sk_dtype t, void* data,
                            int64_t* shape_storage, int64_t* strides_storage,
                            sk_dltensor* out);
/* NumPy squeeze: naxes < 0 removes every size-1 axis */
sk_status sk_view_squeeze(const sk_view* v, int32_t naxes, const int32_t* axes,
                          sk_view* out);
/* NumPy expand_dims: axes index the result */
sk_status sk_view_unsqueeze(const sk_view* v, int32_t naxes,
                            const int32_t* axes, sk_view* out);
sk_status sk_view_swapaxes(const sk_view* v, int32_t axis1, int32_t axis2,
                           sk_view* out);
sk_status sk_view_moveaxis(const sk_view* v, int32_t n, const int32_t* source,
                           const int32_t* destination, sk_view* out);
/* The single view equal to `over` applied to the C-order elements of `base`;
 * SK_ERR_NEEDS_COPY when there is none. */
sk_status sk_view_compose(const sk_view* base, const sk_view* over,
                          sk_view* out);
/* Element offset of the k-th element in C order (masked or not). */
sk_status sk_view_element_offset(const sk_view* v, int64_t k, int64_t* out);

/* ---- Targets ---- */
/* e.g. "AVX3", "AVX2", "NEON", "reference" */
const char* sk_target_active(void);
/* available here, best first, "reference" last */
int32_t sk_target_count(void);
/* NULL when i is out of range */
const char* sk_target_name(int32_t i);
/* NULL or "" returns to the best; unknown -> SK_ERR_UNSUPPORTED */
sk_status sk_target_force(const char* name);

/* ---- Data kernels ----
 * A kernel reads element i of view v at
 * ((char*)data) + (v.offset + sum i_d*v.strides[d]) * size. Inputs broadcast
 * to the output's shape (NumPy rules). Masked-out input positions read the
 * fill value; masked-out output positions are not written. When an input
 * overlaps the output in memory the result is as if every input were first
 * copied to a temporary. */
sk_status sk_copy(sk_dtype t, const sk_view* src, const void* src_data,
                  const sk_view* dst, void* dst_data,
                  const void* fill /* NULL: zero */);
sk_status sk_fill(sk_dtype t, const sk_view* dst, void* dst_data,
                  const void* value);
/* dst = src converted to dst_t, src broadcast to dst (NumPy astype,
 * casting='unsafe'): float -> integer truncates toward zero and saturates at
 * the limits, NaN -> 0; integer -> integer wraps; to float16/bfloat16/
 * float32 rounds to nearest even; any -> bool is != 0 (NaN -> true);
 * complex -> real takes the real part. Masked-out src positions read zero.
 * Details: stridekit/cast.h. */
sk_status sk_cast(sk_dtype src_t, const sk_view* src, const void* src_data,
                  sk_dtype dst_t, const sk_view* dst, void* dst_data);

/* Elementwise and reduction kernels.
 * Inputs broadcast to out's shape; masked-out input positions read zero;
 * masked-out out positions are not written; an input may be out exactly
 * (in place), other overlaps behave as if through a temporary. Dtypes: all
 * 15, where NumPy has the loop with the same dtype in and out (others give
 * SK_ERR_UNSUPPORTED): bool add/max/or are or, mul/min/and are and; float16
 * and bfloat16 compute in float32 and round once; complex has add, sub,
 * mul, div, neg, square, sum, prod. Integers wrap around; integer
 * SK_DIV is floor division (NumPy's //) and SK_MOD floor modulo (NumPy's %):
 * a zero divisor gives SK_ERR_INVALID and INT_MIN / -1 SK_ERR_OUT_OF_RANGE,
 * with out untouched (INT_MIN % -1 is 0); a negative integer SK_POW
 * exponent gives SK_ERR_INVALID; integer SK_SQRT gives SK_ERR_UNSUPPORTED.
 * See stridekit/elementwise.h and reduce.h. */
typedef enum sk_binary_op {
  SK_ADD = 0,
  SK_SUB = 1,
  SK_MUL = 2,
  SK_DIV = 3,
  SK_MIN = 4,
  SK_MAX = 5,
  SK_POW = 6, /* NumPy ** (np.power) */
  SK_MOD = 7, /* NumPy % (np.remainder, floor modulo) */
  SK_AND = 8, /* bitwise on integers, logical on bool */
  SK_OR = 9,
  SK_XOR = 10,
  SK_SHL = 11, /* NumPy << and >>: shifts >= the bit width give 0 */
  SK_SHR = 12, /* (-1 for a negative signed value shifted right) */
  /* Float dtypes unless noted, NumPy 1.24's semantics and special values: */
  SK_ARCTAN2 = 13,
  SK_HYPOT = 14,
  SK_COPYSIGN = 15,
  SK_FMOD = 16,         /* C fmod (sign of a); integers too: C remainder, zero
                           divisor -> SK_ERR_INVALID */
  SK_FLOOR_DIVIDE = 17, /* NumPy //: floats floor(a/b) as NumPy; integers
                           as SK_DIV */
  SK_FMAX = 18,         /* a NaN operand is ignored (NumPy fmax/fmin); */
  SK_FMIN = 19,         /* also integers and bool */
  SK_LOGADDEXP = 20,
  SK_LOGADDEXP2 = 21,
  SK_NEXTAFTER = 22,
  SK_HEAVISIDE = 23, /* NumPy heaviside(a, b): b where a == 0 */
  SK_GCD = 24,       /* integer dtypes only; non-negative */
  SK_LCM = 25
} sk_binary_op;
sk_status sk_binary(sk_binary_op op, sk_dtype t, const sk_view* a,
                    const void* a_data, const sk_view* b, const void* b_data,
                    const sk_view* out, void* out_data);

typedef enum sk_unary_op {
  SK_NEG = 0,
  SK_ABS = 1,
  SK_SQRT = 2,
  SK_SQUARE = 3,
  /* Float dtypes only, at most 4 ulp from the correctly rounded result,
     the same bits on every target: */
  SK_EXP = 4,
  SK_LOG = 5,
  SK_EXPM1 = 6,
  SK_LOG1P = 7,
  SK_SIN = 8,
  SK_COS = 9,
  SK_TANH = 10,
  /* Exact; integers unchanged (NumPy: float64 of the same values): */
  SK_FLOOR = 11,
  SK_CEIL = 12,
  SK_RINT = 13, /* round half to even */
  SK_TRUNC = 14,
  SK_SIGN = 15,  /* -1, 0 (also for -0), +1; a NaN stays; not bool */
  SK_NOT = 16,   /* NumPy ~ (np.invert): bitwise, logical on bool */
  SK_ISNAN = 17, /* out is SK_BOOL (stridekit/compare.h) */
  SK_ISINF = 18,
  SK_ISFINITE = 19,
  /* Float dtypes, at most 4 ulp from the correctly rounded result, the
     same bits on every target: */
  SK_TAN = 20,
  SK_ARCSIN = 21,
  SK_ARCCOS = 22,
  SK_ARCTAN = 23,
  SK_SINH = 24,
  SK_COSH = 25,
  SK_ARCSINH = 26,
  SK_ARCCOSH = 27,
  SK_ARCTANH = 28,
  SK_EXP2 = 29,
  SK_LOG2 = 30,
  SK_LOG10 = 31,
  SK_CBRT = 32,
  SK_RECIPROCAL = 33, /* 1/x; integers as NumPy (1/x truncated, zero ->
                         SK_ERR_INVALID); complex too */
  SK_SIGNBIT = 34     /* out is SK_BOOL */
} sk_unary_op;
sk_status sk_unary(sk_unary_op op, sk_dtype t, const sk_view* a,
                   const void* a_data, const sk_view* out, void* out_data);

typedef enum sk_reduce_op {
  SK_SUM = 0,
  SK_PROD = 1,
  SK_RMIN = 2,
  SK_RMAX = 3,
  SK_ANY = 4, /* out is SK_BOOL: != 0 (NaN true); empty: any false, all true */
  SK_ALL = 5,
  SK_MEAN = 6 /* float dtypes: pairwise sum / count (halves in float32) */
} sk_reduce_op;
/* out's shape is in's shape with the reduced axes removed, or kept as 1
 * (keepdims); axes may be negative, duplicates are an error. Empty sums
 * give 0, products 1, means NaN; min/max over an empty axis give
 * SK_ERR_INVALID. Means of integers, bool and complex: SK_ERR_UNSUPPORTED
 * (NumPy returns float64 or complex: cast first). */
sk_status sk_reduce(sk_reduce_op op, sk_dtype t, const sk_view* in,
                    const void* in_data, int32_t naxes, const int32_t* axes,
                    const sk_view* out, void* out_data);

/* Comparisons and select. out (SK_BOOL, bytes 0/1) = a op b with a and b
 * of dtype t broadcast to out, NumPy's rules: a NaN compares false except
 * SK_NE (true), -0.0 == +0.0, bool compares as 0/1, float16/bfloat16
 * exactly; complex has SK_EQ and SK_NE only (both parts equal): SK_LT ..
 * SK_GE on complex give SK_ERR_UNSUPPORTED (NumPy 1.24 orders complex
 * lexicographically; stridekit refuses). sk_where: out = cond ? a : b,
 * cond SK_BOOL (any non-zero byte true), cond, a, b broadcast to out, all
 * dtypes (bytes moved as they are). Masks and overlaps as above.
 * See stridekit/compare.h and where.h. */
typedef enum sk_compare_op {
  SK_EQ = 0,
  SK_NE = 1,
  SK_LT = 2,
  SK_LE = 3,
  SK_GT = 4,
  SK_GE = 5
} sk_compare_op;
sk_status sk_compare(sk_compare_op op, sk_dtype t, const sk_view* a,
                     const void* a_data, const sk_view* b, const void* b_data,
                     const sk_view* out, void* out_data);
sk_status sk_where(sk_dtype t, const sk_view* cond, const void* cond_data,
                   const sk_view* a, const void* a_data, const sk_view* b,
                   const void* b_data, const sk_view* out, void* out_data);
typedef enum sk_arg_op { SK_ARGMIN = 0, SK_ARGMAX = 1 } sk_arg_op;
/* out (SK_INT64) = index along `axis` of the first minimum/maximum; NaN
 * wins (NumPy). out's shape is in's without the axis, or with 1 there.
 * Negative axes count from the end; an empty axis gives SK_ERR_INVALID;
 * complex gives SK_ERR_UNSUPPORTED. */
sk_status sk_arg_reduce(sk_arg_op op, sk_dtype t, const sk_view* in,
                        const void* in_data, int32_t axis, const sk_view* out,
                        void* out_data);

typedef enum sk_scan_op {
  SK_CUMSUM = 0,
  SK_CUMPROD = 1,
  SK_CUMMIN = 2, /* np.minimum.accumulate (NaN propagates) */
  SK_CUMMAX = 3  /* np.maximum.accumulate */
} sk_scan_op;
/* out has in's shape and dtype (integers wrap: NumPy's cumsum of small
 * integers promotes instead); sequential along `axis` (NumPy's order);
 * out may be in (in place). Complex: cumsum and cumprod only. */
sk_status sk_scan(sk_scan_op op, sk_dtype t, const sk_view* in,
                  const void* in_data, int32_t axis, const sk_view* out,
                  void* out_data);

/* ---- Iteration and threads ----
 * Runtimes run their own loops over stridekit's plans. Operand 0 is the
 * output; inputs broadcast to its shape; each operand has its own element
 * size (bytes, at least 1). Chunks follow the plan: size-1 axes dropped,
 * axes ordered by the output's strides and coalesced, all-negative axes
 * flipped; a chunk is the plan's whole inner axis. An output mask restricts
 * the iteration to its valid box; masked inputs give SK_ERR_UNSUPPORTED
 * (materialise them with sk_copy). Without SK_ITER_REDUCE_OK a stride-0
 * output axis is an error. Operands are not copied: an input that overlaps
 * the output other than exactly sees the loop's own writes. */
typedef struct sk_iter sk_iter; /* opaque */
enum { SK_ITER_REDUCE_OK = 1 }; /* the output may have stride-0 axes */
/* nop in [1, 8]; *out is NULL on failure; free with sk_iter_free. One
 * sk_iter is walked by one thread at a time. */
sk_status sk_iter_new(int32_t nop, const sk_view* const* views,
                      const size_t* elsizes, void* const* datas, uint32_t flags,
                      sk_iter** out);
/* 1 and the next chunk (ptrs[nop], *count elements, byte_strides[nop]); 0 at
 * the end (and on a NULL argument, with sk_last_error set) */
int32_t sk_iter_next(sk_iter* it, char** ptrs, int64_t* count,
                     int64_t* byte_strides);
/* the plan as text, owned by it ("" for NULL) */
const char* sk_iter_describe(const sk_iter* it);
void sk_iter_free(sk_iter* it); /* NULL is a no-op */

typedef void (*sk_loop_fn)(char* const* ptrs, int64_t count,
                           const int64_t* byte_strides, void* ctx);
/* runs loop over every chunk, split into parts over sk_get_threads() threads
 * (parts of at least 8192 elements; the chunks of one output element of a
 * reduction stay in one part, so results do not depend on the thread
 * count); a transposed input is walked in cache-sized 2-D tiles, the loop
 * then gets one short chunk per row of a tile. loop may run concurrently. */
sk_status sk_iter_run(int32_t nop, const sk_view* const* views,
                      const size_t* elsizes, void* const* datas, uint32_t flags,
                      sk_loop_fn loop, void* ctx);

/* Process-wide thread count of sk_copy, sk_fill, sk_binary, sk_unary,
 * sk_reduce, sk_einsum, sk_einsum_rows and sk_iter_run: 1 = serial
 * (default), 0 = all cores; negative or above 1024 -> SK_ERR_INVALID.
 * Results are the same bits for any count (up to NaN payloads), except
 * float sk_reduce to few outputs (reduce.h); einsum splits its products
 * over rows, columns or batch positions, never a sum.
 * sk_get_threads returns the resolved count (>= 1). */
sk_status sk_set_threads(int32_t n);
int32_t sk_get_threads(void);
/* A host's pool: run part(job, i) for every i in [0, nparts), return when
 * all are done. stridekit's parallel work then runs through run(host, ...)
 * (parallel work started inside a part runs on that thread); NULL restores
 * stridekit's own pool. */
typedef void (*sk_part_fn)(void* job, int64_t i);
typedef void (*sk_executor_fn)(void* host, int64_t nparts, sk_part_fn part,
                               void* job);
sk_status sk_set_executor(sk_executor_fn run, void* host);

/* ---- Einsum ---- */
/* spec is NumPy subscripts ("ij,jk->ik", implicit "ij,jk", "...") or, when it
   contains "=>", OCANNL label notation ("ij;jk=>ik", "b|i->o => o|b->i")
   whose operands' axes are in memory order batch, output, input. out_shape
   has room for SK_MAX_NDIM entries. */
sk_status sk_einsum_shape(const char* spec, int32_t n, const int32_t* ndims,
                          const int64_t* const* shapes, int32_t* out_ndim,
                          int64_t* out_shape);
/* out = einsum(spec, views...) for float32/float64/int32/int64; out's shape
 * must be the one sk_einsum_shape gives. */
sk_status sk_einsum(const char* spec, sk_dtype t, int32_t n,
                    const sk_view* const* views, const void* const* datas,
                    const sk_view* out, void* out_data);
/* The same for OCANNL label specs with each operand's row lengths given:
 * rows[3*i], rows[3*i+1], rows[3*i+2] are operand i's numbers of batch,
 * output and input axes (memory order), each >= 0, summing to its ndim.
 * For specs whose slots have row variables in two or more rows
 * ("..b..|..i..->o"), which sk_einsum_shape/sk_einsum cannot split. A
 * closed row's length must equal its slot row's axes, a row with a variable
 * has at least them. n in [0, SK_MAX_NDIM]; rows may be NULL when n is 0;
 * NumPy subscripts (no "=>") -> SK_ERR_INVALID. sk_einsum_rows_shape and
 * sk_einsum_rows accept the same specs, shapes and rows. */
sk_status sk_einsum_rows_shape(const char* spec, int32_t n, const int32_t* rows,
                               const int32_t* ndims,
                               const int64_t* const* shapes, int32_t* out_ndim,
                               int64_t* out_shape);
sk_status sk_einsum_rows(const char* spec, sk_dtype t, int32_t n,
                         const int32_t* rows, const sk_view* const* views,
                         const void* const* datas, const sk_view* out,
                         void* out_data);

/* ---- Plans (check and plan once, execute many times) ----
 * sk_plan_<kernel> takes sk_<kernel>'s arguments without its data pointers
 * and checks them as sk_<kernel> does (same status, same message); it
 * selects the target (kept by the plan) and resolves the kernel and its
 * iteration plan. sk_plan_execute runs it on data of those layouts: inputs
 * holds one pointer per input operand, in the order of sk_<kernel>'s
 * arguments (sk_plan_fill's is the value), out the output's. Executing
 * re-checks no layout: it decides only what depends on the pointers (row
 * alignment; an input overlapping out other than exactly: as if through a
 * temporary) and on the data (an integer zero divisor: the one-shot call's
 * error, out untouched), on the sk_get_threads() setting in force. A plan
 * is immutable: any number of threads may execute one plan at once, each on
 * its own out. Executing allocates nothing unless the kernel needs a
 * temporary (overlap, masked inputs, einsum's packing): SK_ERR_NOMEM, out
 * untouched, when it cannot. A NULL `plan` argument is SK_ERR_INVALID; on
 * failure *plan is NULL. Using a plan after sk_plan_free is the caller's
 * bug (not detected). */
typedef struct sk_plan sk_plan; /* opaque */
sk_status sk_plan_copy(sk_dtype t, const sk_view* src, const sk_view* dst,
                       const void* fill /* NULL: zero; copied */,
                       sk_plan** plan);
sk_status sk_plan_fill(sk_dtype t, const sk_view* dst,
                       sk_plan** plan); /* inputs[0]: the value */
sk_status sk_plan_cast(sk_dtype src_t, const sk_view* src, sk_dtype dst_t,
                       const sk_view* dst, sk_plan** plan);
sk_status sk_plan_binary(sk_binary_op op, sk_dtype t, const sk_view* a,
                         const sk_view* b, const sk_view* out, sk_plan** plan);
sk_status sk_plan_unary(sk_unary_op op, sk_dtype t, const sk_view* a,
                        const sk_view* out, sk_plan** plan);
sk_status sk_plan_compare(sk_compare_op op, sk_dtype t, const sk_view* a,
                          const sk_view* b, const sk_view* out, sk_plan** plan);
sk_status sk_plan_where(sk_dtype t, const sk_view* cond, const sk_view* a,
                        const sk_view* b, const sk_view* out, sk_plan** plan);
sk_status sk_plan_reduce(sk_reduce_op op, sk_dtype t, const sk_view* in,
                         int32_t naxes, const int32_t* axes, const sk_view* out,
                         sk_plan** plan);
sk_status sk_plan_arg_reduce(sk_arg_op op, sk_dtype t, const sk_view* in,
                             int32_t axis, const sk_view* out, sk_plan** plan);
sk_status sk_plan_scan(sk_scan_op op, sk_dtype t, const sk_view* in,
                       int32_t axis, const sk_view* out, sk_plan** plan);
sk_status sk_plan_einsum(const char* spec, sk_dtype t, int32_t n,
                         const sk_view* const* views, const sk_view* out,
                         sk_plan** plan);
/* inputs: sk_plan_inputs(plan) pointers (may be NULL when that is 0) */
sk_status sk_plan_execute(const sk_plan* plan, const void* const* inputs,
                          void* out);
int32_t sk_plan_inputs(const sk_plan* plan); /* -1 for a NULL plan */
/* kernel, dtypes, target, plan; owned by plan ("" for NULL) */
const char* sk_plan_describe(const sk_plan* plan);
void sk_plan_free(sk_plan* plan); /* NULL: no-op */

#ifdef __cplusplus
} /* extern "C" */
#endif

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif /* STRIDEKIT_STRIDEKIT_H_ */
