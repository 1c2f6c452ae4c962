// An owned byte buffer (Materialize's result, the library's temporaries).
#ifndef STRIDEKIT_BUFFER_H_
#define STRIDEKIT_BUFFER_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <memory>

namespace stridekit {

using Buffer = std::unique_ptr<unsigned char[]>;

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_BUFFER_H_
