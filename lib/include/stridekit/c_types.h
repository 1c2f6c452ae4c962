/* The types of the stridekit C ABI (stridekit.h declares its functions):
 * status codes, dtypes and the strided view. Valid C99 and C++; names, values
 * and layout are fixed by the contract (docs/c_abi.md). Part of the
 * semantic core: lib/ describes operands with sk_view. */
#ifndef STRIDEKIT_C_TYPES_H_
#define STRIDEKIT_C_TYPES_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

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

/* sk_view_flags bits */
enum {
  SK_C_CONTIGUOUS = 1,
  SK_F_CONTIGUOUS = 2,
  SK_BROADCAST = 4,
  SK_MASKED = 8
};

#ifdef __cplusplus
} /* extern "C" */
#endif

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif /* STRIDEKIT_C_TYPES_H_ */
