// An owned byte buffer (Materialize's result, the library's temporaries).
#ifndef STRIDEKIT_BUFFER_H_
#define STRIDEKIT_BUFFER_H_

#include <memory>

namespace stridekit {

using Buffer = std::unique_ptr<unsigned char[]>;

}  // namespace stridekit

#endif  // STRIDEKIT_BUFFER_H_
