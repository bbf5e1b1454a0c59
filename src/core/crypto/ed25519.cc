#include "core/crypto/ed25519.h"

#include <memory>

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

namespace codemode::internal {
namespace {

constexpr std::string_view kBase64Alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kSignaturePrefix = "base64:";

struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct ContextFree {
  void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;

// Never asks for a passphrase: an encrypted key is refused, not prompted for.
int no_passphrase(char* /*buffer*/, int /*size*/, int /*rwflag*/, void* /*user*/) { return -1; }

std::string_view trimmed(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

// One PEM block of `label`, nothing before or after it but whitespace.
bool is_single_pem_block(std::string_view pem, std::string_view label) {
  const std::string begin = "-----BEGIN " + std::string(label) + "-----";
  const std::string end = "-----END " + std::string(label) + "-----";
  const std::string_view text = trimmed(pem);
  return text.starts_with(begin) && text.ends_with(end) && text.rfind("-----BEGIN") == 0 &&
         text.find("-----END") == text.size() - end.size();
}

KeyPtr read_key(std::string_view pem, bool is_private) {
  if (!is_single_pem_block(pem, is_private ? "PRIVATE KEY" : "PUBLIC KEY")) return nullptr;
  const std::unique_ptr<BIO, BioFree> bio(
      BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  if (!bio) return nullptr;
  KeyPtr key(is_private ? PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr)
                        : PEM_read_bio_PUBKEY(bio.get(), nullptr, no_passphrase, nullptr));
  if (!key || EVP_PKEY_get_base_id(key.get()) != EVP_PKEY_ED25519) return nullptr;
  return key;
}

}  // namespace

Ed25519Check ed25519_verify(std::string_view public_key_pem, std::string_view message,
                            std::string_view signature) {
  const KeyPtr key = read_key(public_key_pem, /*is_private=*/false);
  if (!key) return Ed25519Check::kKeyRefused;
  if (signature.size() != kEd25519SignatureBytes) return Ed25519Check::kInvalid;
  const std::unique_ptr<EVP_MD_CTX, ContextFree> context(EVP_MD_CTX_new());
  if (!context || EVP_DigestVerifyInit(context.get(), nullptr, nullptr, nullptr, key.get()) != 1) {
    return Ed25519Check::kInvalid;
  }
  const int verified = EVP_DigestVerify(
      context.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
      reinterpret_cast<const unsigned char*>(message.data()), message.size());
  return verified == 1 ? Ed25519Check::kValid : Ed25519Check::kInvalid;
}

std::optional<std::string> ed25519_sign(std::string_view private_key_pem,
                                        std::string_view message) {
  const KeyPtr key = read_key(private_key_pem, /*is_private=*/true);
  if (!key) return std::nullopt;
  const std::unique_ptr<EVP_MD_CTX, ContextFree> context(EVP_MD_CTX_new());
  if (!context || EVP_DigestSignInit(context.get(), nullptr, nullptr, nullptr, key.get()) != 1) {
    return std::nullopt;
  }
  std::string signature(kEd25519SignatureBytes, '\0');
  std::size_t length = signature.size();
  if (EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1 ||
      length != kEd25519SignatureBytes) {
    return std::nullopt;
  }
  return signature;
}

std::optional<std::string> ed25519_public_key_der(std::string_view public_key_pem) {
  const KeyPtr key = read_key(public_key_pem, /*is_private=*/false);
  if (!key) return std::nullopt;
  unsigned char* der = nullptr;
  const int length = i2d_PUBKEY(key.get(), &der);
  if (length <= 0 || der == nullptr) return std::nullopt;
  std::string bytes(reinterpret_cast<const char*>(der), static_cast<std::size_t>(length));
  OPENSSL_free(der);
  return bytes;
}

std::optional<std::string> ed25519_public_key_pem(std::string_view private_key_pem) {
  const KeyPtr key = read_key(private_key_pem, /*is_private=*/true);
  if (!key) return std::nullopt;
  const std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PUBKEY(bio.get(), key.get()) != 1) return std::nullopt;
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio.get(), &data);
  if (length <= 0) return std::nullopt;
  return std::string(data, static_cast<std::size_t>(length));
}

std::string encode_signature_text(std::string_view signature) {
  std::string text(kSignaturePrefix);
  std::size_t i = 0;
  const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(signature[at]); };
  for (; i + 3 <= signature.size(); i += 3) {
    const unsigned group = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    for (int shift = 18; shift >= 0; shift -= 6) text += kBase64Alphabet[(group >> shift) & 63];
  }
  const std::size_t rest = signature.size() - i;
  if (rest > 0) {
    const unsigned group = (byte(i) << 16) | (rest == 2 ? byte(i + 1) << 8 : 0u);
    text += kBase64Alphabet[(group >> 18) & 63];
    text += kBase64Alphabet[(group >> 12) & 63];
    text += rest == 2 ? kBase64Alphabet[(group >> 6) & 63] : '=';
    text += '=';
  }
  return text;
}

std::optional<std::string> decode_signature_text(std::string_view text) {
  if (!text.starts_with(kSignaturePrefix)) return std::nullopt;
  std::string_view body = text.substr(kSignaturePrefix.size());
  if (body.empty() || body.size() % 4 != 0) return std::nullopt;
  std::string bytes;
  unsigned group = 0;
  int bits = 0;
  std::size_t padding = 0;
  for (const char c : body) {
    if (c == '=') {
      ++padding;
      continue;
    }
    if (padding > 0) return std::nullopt;  // '=' only at the end
    const std::size_t value = kBase64Alphabet.find(c);
    if (value == std::string_view::npos) return std::nullopt;
    group = (group << 6) | static_cast<unsigned>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes += static_cast<char>((group >> bits) & 0xFF);
    }
  }
  if (padding > 2 || bytes.size() != kEd25519SignatureBytes) return std::nullopt;
  // The canonical text only: no stray bits in the last character, no missing or extra padding.
  if (encode_signature_text(bytes) != text) return std::nullopt;
  return bytes;
}

}  // namespace codemode::internal
