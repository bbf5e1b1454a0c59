#include "repository/paging/page_cursor.h"

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

namespace codemode::repository {
namespace {

Error invalid() {
  return Error::tool_failed("cursor_invalid",
                            "next_cursor is not a cursor these tools issued; pass it unchanged.");
}

Error mismatch() {
  return Error::tool_failed(
      "cursor_mismatch",
      "next_cursor belongs to another operation, snapshot or set of "
      "arguments; repeat the request that returned it, changing only cursor.");
}

std::string base64url(std::string_view bytes) {
  std::string text(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.data()),
                                      reinterpret_cast<const unsigned char*>(bytes.data()),
                                      static_cast<int>(bytes.size()));
  text.resize(static_cast<std::size_t>(written));
  while (!text.empty() && text.back() == '=') text.pop_back();
  for (char& c : text) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  return text;
}

std::optional<std::string> from_base64url(std::string_view text) {
  std::string standard;
  standard.reserve(text.size() + 3);
  for (char c : text) {
    if (c == '-')
      c = '+';
    else if (c == '_')
      c = '/';
    else if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
      return std::nullopt;
    }
    standard.push_back(c);
  }
  if (standard.size() % 4 == 1) return std::nullopt;
  const std::size_t padding = (4 - standard.size() % 4) % 4;
  standard.append(padding, '=');
  std::string bytes(3 * standard.size() / 4, '\0');
  const int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(bytes.data()),
                                      reinterpret_cast<const unsigned char*>(standard.data()),
                                      static_cast<int>(standard.size()));
  if (written < 0) return std::nullopt;
  bytes.resize(static_cast<std::size_t>(written) - padding);
  // Canonical text only: a second spelling of the same bytes is not the cursor issued.
  if (base64url(bytes) != text) return std::nullopt;
  return bytes;
}

// Keeps a cursor short whatever the names it binds: 128 bits of SHA-256 are plenty to tell
// requests apart, and the MAC is what makes a cursor unforgeable.
std::string short_digest(std::string_view text) { return sha256_hex(text).substr(0, 32); }

}  // namespace

CursorKey::CursorKey() {
  if (RAND_bytes(key_.data(), static_cast<int>(key_.size())) != 1) std::abort();
}

std::string CursorKey::tag(std::string_view payload) const {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
       reinterpret_cast<const unsigned char*>(payload.data()), payload.size(), mac, &length);
  return std::string(reinterpret_cast<const char*>(mac), length);
}

std::string CursorKey::seal(std::string_view tool, std::string_view scope,
                            std::string_view arguments, const Json& offset) const {
  const Json payload{{"v", 1},
                     {"tool", tool},
                     {"scope", short_digest(scope)},
                     {"args", short_digest(arguments)},
                     {"offset", offset}};
  const std::string text = payload.dump();
  return base64url(text) + "." + base64url(tag(text));
}

Result<Json> CursorKey::open(std::string_view cursor, std::string_view tool, std::string_view scope,
                             std::string_view arguments) const {
  if (cursor.size() > kMaxCursorBytes) return invalid();
  const std::size_t dot = cursor.find('.');
  if (dot == std::string_view::npos) return invalid();
  std::optional<std::string> payload = from_base64url(cursor.substr(0, dot));
  std::optional<std::string> mac = from_base64url(cursor.substr(dot + 1));
  if (!payload || !mac) return invalid();
  const std::string expected = tag(*payload);
  if (mac->size() != expected.size() ||
      CRYPTO_memcmp(mac->data(), expected.data(), expected.size()) != 0) {
    return invalid();
  }
  // Authentic, so it is JSON this class wrote.
  const Json fields = Json::parse(*payload, nullptr, false);
  if (!fields.is_object() || fields.value("v", 0) != 1) return invalid();
  if (fields.value("tool", "") != tool || fields.value("scope", "") != short_digest(scope) ||
      fields.value("args", "") != short_digest(arguments)) {
    return mismatch();
  }
  return fields["offset"];
}

std::string request_digest(const Json& input) {
  Json kept = input;
  for (const char* paging :
       {"cursor", "max_bytes", "max_items", "max_results", "max_lines", "format"}) {
    kept.erase(paging);
  }
  Result<std::string> text = canonical_json(kept);
  return sha256_hex(text.ok() ? *text : kept.dump());
}

}  // namespace codemode::repository
