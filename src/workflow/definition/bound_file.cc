#include "workflow/definition/bound_file.h"

#include <array>
#include <cerrno>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/process/unique_fd.h"

namespace codemode::internal {
namespace {

// What identifies one version of a file's content without reading it.
using FileVersion = std::tuple<dev_t, ino_t, off_t, std::int64_t, std::int64_t>;

FileVersion version_of(const struct stat& info) {
  return {info.st_dev, info.st_ino, info.st_size,
          info.st_mtim.tv_sec * 1'000'000'000LL + info.st_mtim.tv_nsec,
          info.st_ctim.tv_sec * 1'000'000'000LL + info.st_ctim.tv_nsec};
}

struct DigestCache {
  std::mutex mutex;
  std::map<std::string, std::pair<FileVersion, std::string>> by_path;  // guarded by mutex
};

DigestCache& cache() {
  static DigestCache* instance = new DigestCache();  // never destroyed: used until exit
  return *instance;
}

struct DigestContextFree {
  void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};

// "sha256:<hex>" of everything readable from `fd`, or empty on a read error.
std::string digest_of(int fd) {
  std::unique_ptr<EVP_MD_CTX, DigestContextFree> context(EVP_MD_CTX_new());
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1) return {};
  std::array<unsigned char, 1 << 16> buffer{};
  for (;;) {
    const ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return {};
    if (got == 0) break;
    if (EVP_DigestUpdate(context.get(), buffer.data(), static_cast<std::size_t>(got)) != 1) {
      return {};
    }
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context.get(), digest.data(), &length) != 1) return {};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text = "sha256:";
  for (unsigned int i = 0; i < length; ++i) {
    text += kHex[digest[i] >> 4];
    text += kHex[digest[i] & 0xF];
  }
  return text;
}

}  // namespace

Result<std::string> bound_file_state(const std::string& path) {
  const Error unavailable = Error::storage_unavailable(
      "tool_binding", "A file a phase's tool names could not be read just now; try again.");
  // O_NONBLOCK: a FIFO put at the path must not hang the runtime; it is refused below.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (!fd.valid()) {
    if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == ENAMETOOLONG) {
      return std::string("absent");
    }
    if (errno == EACCES || errno == EPERM) return std::string("unreadable");
    if (errno == ENXIO || errno == ENODEV) return std::string("not_regular");
    return unavailable;
  }
  struct stat before {};
  if (::fstat(fd.get(), &before) != 0) return unavailable;
  if (!S_ISREG(before.st_mode)) return std::string("not_regular");
  const FileVersion version = version_of(before);
  DigestCache& digests = cache();
  {
    std::lock_guard lock(digests.mutex);
    auto found = digests.by_path.find(path);
    if (found != digests.by_path.end() && found->second.first == version) {
      return found->second.second;
    }
  }
  std::string digest = digest_of(fd.get());
  if (digest.empty()) return unavailable;
  struct stat after {};
  // A file changed while it was read is reported as read, but not remembered.
  if (::fstat(fd.get(), &after) == 0 && version_of(after) == version) {
    std::lock_guard lock(digests.mutex);
    digests.by_path[path] = {version, digest};
  }
  return digest;
}

}  // namespace codemode::internal
