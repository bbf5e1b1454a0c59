// The JSON-RPC 2.0 layer: each malformed case gets its own test, named for the rule it breaks.
#include "mcp/transport/json_rpc.h"

#include <string>

#include <gtest/gtest.h>

namespace codemode::mcp {
namespace {

RpcMessage parsed(std::string_view text) {
  auto result = parse_rpc_message(text);
  EXPECT_TRUE(std::holds_alternative<RpcMessage>(result)) << text;
  return std::get<RpcMessage>(result);
}

RpcRefusal refused(std::string_view text) {
  auto result = parse_rpc_message(text);
  EXPECT_TRUE(std::holds_alternative<RpcRefusal>(result)) << text;
  return std::holds_alternative<RpcRefusal>(result) ? std::get<RpcRefusal>(result) : RpcRefusal{};
}

TEST(JsonRpcTest, ParsesARequestWithAnIntegerId) {
  const RpcMessage message = parsed(R"({"jsonrpc":"2.0","id":7,"method":"ping"})");
  EXPECT_EQ(message.kind, RpcMessage::Kind::kRequest);
  EXPECT_EQ(message.id, 7);
  EXPECT_EQ(message.method, "ping");
  EXPECT_EQ(message.params, Json::object());
}

TEST(JsonRpcTest, ParsesARequestWithAStringIdAndParams) {
  const RpcMessage message =
      parsed(R"({"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}})");
  EXPECT_EQ(message.id, "a");
  EXPECT_EQ(message.params, Json({{"name", "x"}}));
}

TEST(JsonRpcTest, AMessageWithoutIdIsANotification) {
  EXPECT_EQ(parsed(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").kind,
            RpcMessage::Kind::kNotification);
}

TEST(JsonRpcTest, ParsesResultAndErrorResponses) {
  const RpcMessage ok = parsed(R"({"jsonrpc":"2.0","id":1,"result":{"x":1}})");
  EXPECT_EQ(ok.kind, RpcMessage::Kind::kResponse);
  EXPECT_EQ(ok.result, Json({{"x", 1}}));
  const RpcMessage failed =
      parsed(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}})");
  ASSERT_TRUE(failed.error.has_value());
  EXPECT_EQ(failed.error->at("code"), -32601);
}

TEST(JsonRpcTest, InvalidJsonIsAParseErrorWithANullId) {
  const RpcRefusal refusal = refused(R"({"jsonrpc":"2.0","id":1,)");
  EXPECT_EQ(refusal.code, kParseError);
  EXPECT_TRUE(refusal.id.is_null());
}

TEST(JsonRpcTest, AnOversizedMessageIsAParseError) {
  const std::string big = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":")" +
                          std::string(200, 'a') + R"("}})";
  auto result = parse_rpc_message(big, 100);
  ASSERT_TRUE(std::holds_alternative<RpcRefusal>(result));
  EXPECT_EQ(std::get<RpcRefusal>(result).code, kParseError);
}

TEST(JsonRpcTest, ABatchIsAnInvalidRequest) {
  EXPECT_EQ(refused(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])").code, kInvalidRequest);
}

TEST(JsonRpcTest, AWrongVersionIsAnInvalidRequest) {
  EXPECT_EQ(refused(R"({"jsonrpc":"1.0","id":1,"method":"ping"})").code, kInvalidRequest);
  EXPECT_EQ(refused(R"({"id":1,"method":"ping"})").code, kInvalidRequest);
}

TEST(JsonRpcTest, ANullOrFractionalOrObjectIdIsAnInvalidRequest) {
  for (const char* id : {"null", "1.5", "{}", "true"}) {
    const RpcRefusal refusal =
        refused(std::string(R"({"jsonrpc":"2.0","method":"ping","id":)") + id + "}");
    EXPECT_EQ(refusal.code, kInvalidRequest) << id;
    EXPECT_TRUE(refusal.id.is_null()) << id;
  }
}

TEST(JsonRpcTest, FieldReadsNeverThrowOnTheWrongType) {
  const Json object = Json::parse(R"({"flag":true,"text":"a","wrong":"true","number":1})");
  EXPECT_TRUE(field_is_true(object, "flag"));
  EXPECT_FALSE(field_is_true(object, "wrong"));
  EXPECT_FALSE(field_is_true(object, "missing"));
  EXPECT_FALSE(field_is_true(Json("flag"), "flag"));
  EXPECT_TRUE(field_equals(object, "text", "a"));
  EXPECT_FALSE(field_equals(object, "number", "1"));
  EXPECT_FALSE(field_equals(object, "flag", "true"));
  EXPECT_FALSE(field_equals(Json::array({"text"}), "text", "a"));
}

TEST(JsonRpcTest, ANonStringMethodIsAnInvalidRequestCarryingTheId) {
  const RpcRefusal refusal = refused(R"({"jsonrpc":"2.0","id":9,"method":3})");
  EXPECT_EQ(refusal.code, kInvalidRequest);
  EXPECT_EQ(refusal.id, 9);
}

TEST(JsonRpcTest, PositionalParamsAreInvalidParams) {
  const RpcRefusal refusal = refused(R"({"jsonrpc":"2.0","id":2,"method":"ping","params":[1]})");
  EXPECT_EQ(refusal.code, kInvalidParams);
  EXPECT_EQ(refusal.id, 2);
}

TEST(JsonRpcTest, AnUnknownMemberIsAnInvalidRequest) {
  EXPECT_EQ(refused(R"({"jsonrpc":"2.0","id":2,"method":"ping","extra":1})").code, kInvalidRequest);
}

TEST(JsonRpcTest, AResponseWithBothResultAndErrorIsRefused) {
  EXPECT_EQ(refused(R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}})").code,
            kInvalidRequest);
  EXPECT_EQ(refused(R"({"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}})").code,
            kInvalidRequest);
}

TEST(JsonRpcTest, RefusalsNeverEchoThePeersData) {
  const RpcRefusal refusal = refused(R"({"jsonrpc":"2.0","id":1,"method":"ping","secret-x":1})");
  EXPECT_EQ(refusal.message.find("secret-x"), std::string::npos);
}

TEST(JsonRpcTest, BuildersWriteJsonRpc20) {
  EXPECT_EQ(rpc_result(1, Json::object()), Json::parse(R"({"jsonrpc":"2.0","id":1,"result":{}})"));
  EXPECT_EQ(rpc_error(nullptr, kParseError, "m"),
            Json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}})"));
  EXPECT_EQ(rpc_notification("n", {{"a", 1}}),
            Json::parse(R"({"jsonrpc":"2.0","method":"n","params":{"a":1}})"));
}

}  // namespace
}  // namespace codemode::mcp
