// Contract tests for sha256_hex: FIPS 180-4 / NIST example vectors.
#include <string>

#include <gtest/gtest.h>

#include "codemode/json.h"

namespace codemode {
namespace {

TEST(Sha256Hex, MatchesNistVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1'000'000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256Hex, HashesEmbeddedNulBytes) {
  EXPECT_NE(sha256_hex(std::string("a\0b", 3)), sha256_hex("a"));
  EXPECT_EQ(sha256_hex(std::string("a\0b", 3)).size(), 64u);
}

}  // namespace
}  // namespace codemode
