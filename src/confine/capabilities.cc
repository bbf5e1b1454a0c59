// Layer: capabilities. See capabilities.h for why the drop runs before any thread exists.
#include "confine/capabilities.h"

#include <array>
#include <cerrno>
#include <string_view>

#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "codemode/rules.h"

#include "confine/confine_error.h"

namespace codemode::confine {
namespace {

constexpr std::string_view kLayer = "capabilities";

// Version 3 of the capget/capset ABI: 64 capability bits as two 32-bit words per set.
using CapabilitySets = std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3>;

// glibc has no wrapper for capget/capset; libcap is not worth a dependency for two calls.
bool read_sets(CapabilitySets& sets) {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  return syscall(SYS_capget, &header, sets.data()) == 0;
}

bool all_empty(const CapabilitySets& sets) {
  for (const __user_cap_data_struct& word : sets) {
    if (word.effective != 0 || word.permitted != 0 || word.inheritable != 0) return false;
  }
  return true;
}

bool holds_setpcap(const CapabilitySets& sets) {
  static_assert(CAP_SETPCAP < 32);
  return (sets[0].effective & (1u << CAP_SETPCAP)) != 0;
}

// PR_CAPBSET_READ answers EINVAL past the kernel's last capability, which is how the loops below
// find the end without reading /proc/sys/kernel/cap_last_cap.
bool bounding_set_empty() {
  for (unsigned long cap = 0;; ++cap) {
    const int held = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
    if (held < 0) return errno == EINVAL && cap > 0;
    if (held == 1) return false;
  }
}

bool empty_bounding_set() {
  for (unsigned long cap = 0;; ++cap) {
    const int held = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
    if (held < 0) return errno == EINVAL && cap > 0;
    if (held == 1 && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) return false;
  }
}

// Kernels before 4.3 have no ambient set (EINVAL): nothing to clear there.
bool clear_ambient_set() {
  return prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == 0 || errno == EINVAL;
}

bool ambient_set_empty() {
  for (unsigned long cap = 0;; ++cap) {
    const int held = prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, cap, 0, 0);
    if (held < 0) return errno == EINVAL;
    if (held == 1) return false;
  }
}

bool clear_thread_sets() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  CapabilitySets none{};
  return syscall(SYS_capset, &header, none.data()) == 0;
}

}  // namespace

Status drop_capabilities() {
  CapabilitySets sets{};
  if (!read_sets(sets)) return confinement_failed(kLayer, rules::kCapabilities);
  // The bounding set first: dropping from it needs CAP_SETPCAP, which the last step takes away.
  const bool bounding_dropped = holds_setpcap(sets) ? empty_bounding_set() : true;
  if (!bounding_dropped || !clear_ambient_set() || !clear_thread_sets()) {
    return confinement_failed(kLayer, rules::kCapabilities);
  }
  if (holds_setpcap(sets) && !bounding_set_empty())
    return confinement_failed(kLayer, rules::kCapabilities);
  return check_capabilities_dropped();
}

Status drop_bounding_set() {
  CapabilitySets sets{};
  if (!read_sets(sets)) return confinement_failed(kLayer, rules::kCapabilities);
  if (holds_setpcap(sets) && (!empty_bounding_set() || !bounding_set_empty())) {
    return confinement_failed(kLayer, rules::kCapabilities);
  }
  return {};
}

Status check_capabilities_dropped() {
  CapabilitySets sets{};
  if (!read_sets(sets) || !all_empty(sets) || !ambient_set_empty()) {
    return confinement_failed(kLayer, rules::kCapabilities);
  }
  return {};
}

}  // namespace codemode::confine
