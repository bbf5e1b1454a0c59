#include "worker/build_id.h"

#include <cstdint>
#include <cstring>

#include <elf.h>
#include <link.h>

namespace codemode::worker {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_hex(std::string& out, const unsigned char* bytes, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) {
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 0xF]);
  }
}

// Appends the build id found in one PT_NOTE segment, if any.
void append_notes(std::string& out, const unsigned char* notes, std::size_t size) {
  std::size_t offset = 0;
  while (offset + sizeof(ElfW(Nhdr)) <= size) {
    ElfW(Nhdr) header;
    std::memcpy(&header, notes + offset, sizeof(header));
    const std::size_t name_size = (header.n_namesz + 3) & ~std::size_t{3};
    const std::size_t desc_size = (header.n_descsz + 3) & ~std::size_t{3};
    const unsigned char* name = notes + offset + sizeof(header);
    const unsigned char* desc = name + name_size;
    if (offset + sizeof(header) + name_size + desc_size > size) return;
    if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
        std::memcmp(name, "GNU", 4) == 0) {
      if (!out.empty()) out.push_back('.');
      append_hex(out, desc, header.n_descsz);
    }
    offset += sizeof(header) + name_size + desc_size;
  }
}

// The stencil depends on the engine library and on the binary that embeds it; the C and C++
// runtimes and the kernel's vDSO do not matter to it, so a system update keeps the cache.
bool is_identity_object(const char* name) {
  return name == nullptr || name[0] == '\0' || std::strstr(name, "libmozjs") != nullptr;
}

bool is_executable(const char* name) { return name == nullptr || name[0] == '\0'; }

struct Collect {
  bool (*wanted)(const char* name);
  std::string out;
};

int append_object(dl_phdr_info* info, std::size_t, void* data) {
  auto& collect = *static_cast<Collect*>(data);
  std::string& out = collect.out;
  if (!collect.wanted(info->dlpi_name)) return 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    append_notes(out, reinterpret_cast<const unsigned char*>(info->dlpi_addr + segment.p_vaddr),
                 segment.p_memsz);
  }
  return 0;
}

}  // namespace

const std::string& process_build_id() {
  static const std::string id = [] {
    Collect collect{.wanted = is_identity_object};
    dl_iterate_phdr(append_object, &collect);
    return collect.out;
  }();
  return id;
}

std::string executable_build_id() {
  Collect collect{.wanted = is_executable};
  dl_iterate_phdr(append_object, &collect);
  return collect.out;
}

}  // namespace codemode::worker
