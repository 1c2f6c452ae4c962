// Dims: a fixed-capacity, never-allocating vector of int64 used for shapes,
// strides, indices and axis lists. Capacity kMaxRank equals SK_MAX_NDIM.
#ifndef STRIDEKIT_DIMS_H_
#define STRIDEKIT_DIMS_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <type_traits>

#include "stridekit/error.h"

namespace stridekit {

inline constexpr int kMaxRank = 32;

// A vector of at most N elements stored inline. Copies move only size()
// elements, so small ranks stay cheap although the capacity is fixed.
template <typename T, int N>
class InlineVector {
  static_assert(std::is_trivially_copyable_v<T> &&
                std::is_trivially_destructible_v<T>);

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  InlineVector() noexcept : size_(0) {}
  explicit InlineVector(int size, T value = T()) { assign(size, value); }
  InlineVector(std::initializer_list<T> values) { assign(values); }
  // Implicit so that any contiguous range converts; throws when too long.
  InlineVector(std::span<const T> values) { assign(values); }  // NOLINT
  InlineVector(const InlineVector& other) noexcept : size_(other.size_) {
    std::copy_n(other.data_, size_, data_);
  }
  InlineVector& operator=(const InlineVector& other) noexcept {
    size_ = other.size_;
    std::copy_n(other.data_, size_, data_);
    return *this;
  }

  static constexpr int capacity() { return N; }
  int size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  T& operator[](int i) noexcept { return data_[i]; }
  const T& operator[](int i) const noexcept { return data_[i]; }
  T& back() noexcept { return data_[size_ - 1]; }
  const T& back() const noexcept { return data_[size_ - 1]; }

  operator std::span<const T>() const noexcept {
    return {data_, size_t(size_)};
  }
  std::span<T> span() noexcept { return {data_, size_t(size_)}; }

  void clear() noexcept { size_ = 0; }
  void push_back(T value) {
    CheckFits(size_ + 1);
    data_[size_++] = value;
  }
  void pop_back() noexcept { --size_; }
  void resize(int size, T value = T()) {
    CheckFits(size);
    for (int i = size_; i < size; ++i) data_[i] = value;
    size_ = size;
  }
  void assign(int size, T value) {
    size_ = 0;
    resize(size, value);
  }
  void assign(std::span<const T> values) {
    CheckFits(values.size());
    size_ = static_cast<int>(values.size());
    std::copy_n(values.data(), size_, data_);
  }
  void insert(int pos, T value) {
    CheckFits(size_ + 1);
    std::copy_backward(data_ + pos, data_ + size_, data_ + size_ + 1);
    data_[pos] = value;
    ++size_;
  }
  void erase(int pos) noexcept {
    std::copy(data_ + pos + 1, data_ + size_, data_ + pos);
    --size_;
  }

  friend bool operator==(const InlineVector& a, const InlineVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  static void CheckFits(size_t size) {
    if (size > size_t(N)) {
      Fail(ErrorKind::kInvalidArgument, "rank ", size,
           " exceeds the maximum rank ", N);
    }
  }

  // Left uninitialised past size_ (T must be trivially copyable and
  // destructible): constructing a vector costs nothing per capacity slot.
  union {
    T data_[N];
  };
  int size_;
};

using Dims = InlineVector<int64_t, kMaxRank>;
using DimsView = std::span<const int64_t>;

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_DIMS_H_
