// Fresh signing keys for the Docker promotion tests, as PEM, made with OpenSSL 3: an Ed25519
// pair (PKCS#8 private key, SubjectPublicKeyInfo public key) and an RSA private key, which the
// promotion must refuse.
#ifndef CODEMODE_TESTS_SUPPORT_SIGNING_KEYS_H_
#define CODEMODE_TESTS_SUPPORT_SIGNING_KEYS_H_

#include <memory>
#include <string>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

namespace codemode::testing {

struct PemKeyPair {
  std::string private_key;
  std::string public_key;
};

namespace signing_keys_detail {

struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};

inline std::string pem_of(EVP_PKEY* key, bool is_private) {
  const std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
  const int written =
      is_private ? PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr)
                 : PEM_write_bio_PUBKEY(bio.get(), key);
  if (written != 1) return {};
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(length));
}

inline PemKeyPair pair_of(EVP_PKEY* raw) {
  const std::unique_ptr<EVP_PKEY, KeyFree> key(raw);
  if (!key) return {};
  return {pem_of(key.get(), true), pem_of(key.get(), false)};
}

}  // namespace signing_keys_detail

inline PemKeyPair ed25519_key_pair() {
  return signing_keys_detail::pair_of(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
}

inline PemKeyPair rsa_key_pair() {
  return signing_keys_detail::pair_of(
      EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<std::size_t>(2048)));
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_SIGNING_KEYS_H_
