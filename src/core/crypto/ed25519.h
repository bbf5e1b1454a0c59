// Ed25519 signatures through OpenSSL 3 (EVP one-shot sign and verify), and the "base64:" signature
// text (image promotions, signed approvals). Keys are PEM: SubjectPublicKeyInfo ("BEGIN PUBLIC
// KEY") to verify, unencrypted PKCS#8 ("BEGIN PRIVATE KEY") to sign; any other algorithm or form is
// refused.
#ifndef CODEMODE_CORE_CRYPTO_ED25519_H_
#define CODEMODE_CORE_CRYPTO_ED25519_H_

#include <optional>
#include <string>
#include <string_view>

namespace codemode::internal {

inline constexpr std::size_t kEd25519SignatureBytes = 64;

enum class Ed25519Check {
  kValid,
  kInvalid,    // a well-formed key, and the signature does not verify with it
  kKeyRefused  // not a single PEM key of the required form, or not Ed25519
};

// Verifies the 64-byte `signature` of `message` with `public_key_pem`.
Ed25519Check ed25519_verify(std::string_view public_key_pem, std::string_view message,
                            std::string_view signature);

// The 64-byte signature of `message`; nullopt when the key is refused.
std::optional<std::string> ed25519_sign(std::string_view private_key_pem, std::string_view message);

// The DER SubjectPublicKeyInfo of an Ed25519 public key in PEM, to compare two keys whatever
// their PEM line breaks; nullopt when the key is refused.
std::optional<std::string> ed25519_public_key_der(std::string_view public_key_pem);

// The PEM SubjectPublicKeyInfo of the Ed25519 private key `private_key_pem`; nullopt when the key
// is refused.
std::optional<std::string> ed25519_public_key_pem(std::string_view private_key_pem);

// "base64:" + standard base64 with padding.
std::string encode_signature_text(std::string_view signature);

// The raw bytes of a signature text: ^base64:[A-Za-z0-9+/]+={0,2}$ that decodes to exactly 64
// bytes and encodes back to the same text; nullopt otherwise.
std::optional<std::string> decode_signature_text(std::string_view text);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_CRYPTO_ED25519_H_
