/* stridekit C ABI. Valid C99 and C++. Every function is extern "C", never
 * throws, never aborts on bad input and is thread-safe; the message of this
 * thread's last failed call is sk_last_error(). Names, enum values and struct
 * layout are fixed by the contract in C_API.md. */
#ifndef STRIDEKIT_STRIDEKIT_H_
#define STRIDEKIT_STRIDEKIT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SK_MAX_NDIM 32

typedef enum sk_status {
  SK_OK = 0,
  SK_ERR_INVALID =
      1, /* bad argument: shape, axis, spec, dtype, incompatible shapes */
  SK_ERR_OUT_OF_RANGE = 2, /* an index or bound outside its range */
  SK_ERR_OVERFLOW = 3,     /* a size, stride or offset does not fit in int64 */
  SK_ERR_NEEDS_COPY = 4,   /* not expressible as a view of the same buffer */
  SK_ERR_UNSUPPORTED = 5,  /* dtype/op combination, or unknown target name */
  SK_ERR_NOMEM = 6
} sk_status;

/* Message of this thread's last failed call, "" if none. */
const char* sk_last_error(void);
/* "MAJOR.MINOR.PATCH" */
const char* sk_version(void);

typedef enum sk_dtype {
  SK_BOOL = 0,
  SK_INT8 = 1,
  SK_INT16 = 2,
  SK_INT32 = 3,
  SK_INT64 = 4,
  SK_UINT8 = 5,
  SK_UINT16 = 6,
  SK_UINT32 = 7,
  SK_UINT64 = 8,
  SK_FLOAT16 = 9,
  SK_BFLOAT16 = 10,
  SK_FLOAT32 = 11,
  SK_FLOAT64 = 12,
  SK_COMPLEX64 = 13,
  SK_COMPLEX128 = 14
} sk_dtype;
/* Bytes per element; 0 for an unknown value. */
size_t sk_dtype_size(sk_dtype t);

typedef struct sk_view {
  int32_t ndim;     /* 0..SK_MAX_NDIM */
  int32_t has_mask; /* 0: every index valid */
  int64_t offset;   /* elements; may be negative after pad */
  int64_t shape[SK_MAX_NDIM];
  int64_t
      strides[SK_MAX_NDIM]; /* elements; 0 = broadcast, negative = reversed */
  int64_t
      mask_begin[SK_MAX_NDIM];   /* with has_mask: index i on axis d is valid */
  int64_t mask_end[SK_MAX_NDIM]; /*   iff mask_begin[d] <= i < mask_end[d] */
} sk_view;                       /* entries at d >= ndim are ignored */

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

/* ---- Einsum ---- */
/* spec is NumPy subscripts ("ij,jk->ik", implicit "ij,jk", "...") or, when it
   contains "=>", OCANNL label notation ("ij;jk=>ik", "b|i->o => o|b->i")
   whose operands' axes are in memory order batch, output, input. out_shape
   has room for SK_MAX_NDIM entries. */
sk_status sk_einsum_shape(const char* spec, int32_t n, const int32_t* ndims,
                          const int64_t* const* shapes, int32_t* out_ndim,
                          int64_t* out_shape);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STRIDEKIT_STRIDEKIT_H_ */
