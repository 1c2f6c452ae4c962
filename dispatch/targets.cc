#include "stridekit/targets.h"

#include <stdlib.h>

#include <atomic>
#include <string>
#include <vector>

#include "dispatch/executor.h"
#include "dispatch/target_registry.h"
#include "hwy/targets.h"
#include "index_reference.h"
#include "scalar_ops.h"
#include "simd/dispatch_table.h"
#include "stridekit/error.h"

namespace stridekit {
namespace dispatch {
namespace {

constexpr char kEnvironmentVariable[] = "STRIDEKIT_TARGET";
constexpr char kUnsupportedName[] = "unsupported";

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) {
      return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// A Highway target's kernels: its entry of every simd/ kernel table that
// TargetKernels lists (other kernel functions read theirs through
// FamilyKernel).
TargetKernels KernelsOf(int64_t target) {
#define STRIDEKIT_FAMILY_ENTRIES(Kind)                   \
  {                                                      \
    simd::Kind##FloatKernels().ForTarget(target),        \
        simd::Kind##HalfKernels().ForTarget(target),     \
        simd::Kind##SignedKernels().ForTarget(target),   \
        simd::Kind##UnsignedKernels().ForTarget(target), \
        simd::Kind##ComplexKernels().ForTarget(target)   \
  }
  // In KernelFamily order.
  return {simd::CopyKernels().ForTarget(target),
          simd::CastKernels().ForTarget(target),
          simd::CastRowKernels().ForTarget(target),
          STRIDEKIT_FAMILY_ENTRIES(Elementwise),
          STRIDEKIT_FAMILY_ENTRIES(ElementwiseRow),
          STRIDEKIT_FAMILY_ENTRIES(Reduce),
          simd::GemmKernels().ForTarget(target),
          simd::GemmScratchBytesKernels().ForTarget(target),
          simd::RavelBatchKernels().ForTarget(target),
          simd::UnravelBatchKernels().ForTarget(target),
          simd::ViewOffsetsKernels().ForTarget(target),
          simd::CompareFloatKernels().ForTarget(target),
          simd::CompareIntegerKernels().ForTarget(target),
          simd::WhereKernels().ForTarget(target),
          simd::MultiplyAddKernels().ForTarget(target),
          simd::EinsumNestKernels().ForTarget(target)};
#undef STRIDEKIT_FAMILY_ENTRIES
}

// The reference's kernels: only the index kernels (lib/index_reference.h)
// and the multiply-add rule; its kernel functions run their reference
// runners.
TargetKernels ReferenceKernels() {
  TargetKernels k{};
  k.ravel_batch = [](int64_t n, const int64_t* indices, DimsView strides,
                     int64_t offset, int64_t* out) -> int64_t {
    reference::RavelBatch(n, indices, strides, offset, out);
    return 0;
  };
  k.unravel_batch = [](int64_t n, const int64_t* flat, DimsView shape,
                       int64_t numel, int64_t* out) -> int64_t {
    reference::UnravelBatch(n, flat, shape, numel, out);
    return 0;
  };
  k.view_offsets = [](const sk_view& view, int64_t begin, int64_t count,
                      int64_t* out) -> int64_t {
    reference::ViewOffsets(view, begin, count, out);
    return 0;
  };
  k.multiply_add = [](DType t, const void* a, const void* b, const void* c,
                      void* out, int64_t n) -> int64_t {
    const auto rows = [&](auto zero) {
      using T = decltype(zero);
      for (int64_t i = 0; i < n; ++i) {
        static_cast<T*>(out)[i] = scalar_ops::MulAdd(
            static_cast<const T*>(a)[i], static_cast<const T*>(b)[i],
            static_cast<const T*>(c)[i]);
      }
    };
    if (t == DType::kFloat32) rows(float{});
    if (t == DType::kFloat64) rows(double{});
    return 0;
  };
  return k;
}

// One executor per runnable target, best first, the reference last.
// Immutable after construction except for `active`, the selected executor
// (nullptr while an invalid STRIDEKIT_TARGET is in force).
class Registry {
 public:
  Registry() {
    const int64_t runnable = simd::CompiledTargets() & hwy::SupportedTargets();
    // Highway's tables hold one fallback slot; EMU128 takes it when compiled.
    const int64_t fallback =
        (runnable & HWY_EMU128) ? HWY_EMU128 : (runnable & HWY_SCALAR);
    // Lower bits are better targets.
    for (int64_t bits = runnable; bits != 0; bits &= bits - 1) {
      const int64_t target = bits & -bits;
      if ((target & (HWY_EMU128 | HWY_SCALAR)) && target != fallback) continue;
      targets_.push_back({hwy::TargetName(target), target, KernelsOf(target)});
    }
    targets_.push_back({"reference", 0, ReferenceKernels()});
    for (const Executor& t : targets_) {
      available_list_ += (available_list_.empty() ? "" : ", ");
      available_list_ += t.name;
    }
    const char* requested = getenv(kEnvironmentVariable);
    if (requested == nullptr || *requested == '\0') {
      active_.store(&targets_.front());
    } else if (const Executor* t = Find(requested)) {
      active_.store(t);
    } else {
      environment_error_ = StrCat(
          kEnvironmentVariable, "=\"", requested,
          "\" names no available target; available targets: ", available_list_);
    }
  }

  const Executor* Find(std::string_view name) const {
    for (const Executor& t : targets_) {
      if (EqualsIgnoringCase(name, t.name)) return &t;
    }
    return nullptr;
  }

  const std::vector<Executor>& targets() const { return targets_; }
  const std::string& available_list() const { return available_list_; }
  const std::string& environment_error() const { return environment_error_; }
  const Executor* active() const { return active_.load(); }
  void set_active(const Executor* t) { active_.store(t); }

 private:
  std::vector<Executor> targets_;
  std::string available_list_;
  std::string environment_error_;
  std::atomic<const Executor*> active_{nullptr};
};

Registry& GetRegistry() {
  static Registry registry;
  return registry;
}

// The HWY_TARGET of this thread's last kernel (0: the reference), or -1;
// named when asked (LastKernelTarget), not on every call.
thread_local int64_t last_kernel_target = -1;

}  // namespace

const Executor& SelectedExecutor(const char* op) {
  const Registry& registry = GetRegistry();
  const Executor* t = registry.active();
  if (t == nullptr) {
    Fail(ErrorKind::kUnsupported, op, ": ", registry.environment_error());
  }
  return *t;
}

void NoteKernelRan(int64_t hwy_target) { last_kernel_target = hwy_target; }

int32_t TargetCount() {
  return static_cast<int32_t>(GetRegistry().targets().size());
}

const char* TargetName(int32_t i) {
  const std::vector<Executor>& targets = GetRegistry().targets();
  if (i < 0 || i >= static_cast<int32_t>(targets.size())) return nullptr;
  return targets[static_cast<size_t>(i)].name;
}

const char* ActiveTargetName() {
  const Executor* t = GetRegistry().active();
  return t == nullptr ? kUnsupportedName : t->name;
}

}  // namespace dispatch

std::string_view ActiveTarget() { return dispatch::ActiveTargetName(); }

std::vector<std::string_view> AvailableTargets() {
  std::vector<std::string_view> names;
  for (const dispatch::Executor& t : dispatch::GetRegistry().targets()) {
    names.push_back(t.name);
  }
  return names;
}

void ForceTarget(std::string_view name) {
  dispatch::Registry& registry = dispatch::GetRegistry();
  const dispatch::Executor* t = registry.Find(name);
  if (t == nullptr) {
    Fail(ErrorKind::kUnsupported,
         "force_target: unknown or unavailable target \"", name,
         "\"; available targets: ", registry.available_list());
  }
  registry.set_active(t);
}

void ResetTarget() {
  dispatch::Registry& registry = dispatch::GetRegistry();
  registry.set_active(&registry.targets().front());
}

std::string_view LastKernelTarget() {
  const int64_t target = dispatch::last_kernel_target;
  return target < 0 ? "" : target == 0 ? "reference" : hwy::TargetName(target);
}

void ClearLastKernelTarget() { dispatch::last_kernel_target = -1; }

}  // namespace stridekit
