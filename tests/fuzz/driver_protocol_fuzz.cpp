// Fuzz target: the live driver's protocol messages (proofs/conformance/driver_protocol.hpp), read
// by the SUT (requests) and by the driver (replies, written by programs kcspec does not control).
// An input is one line (up to its first '\n'; the parsers read one line and keep nothing between
// lines), parsed both ways; the parsers never throw; a message that parses encodes to a line that
// parses to a message encoding the same way. scripts/fuzz passes -max_len=1200, past the
// 1024-byte line limit below; seed files of many lines are cut into one file per line, and CTest
// replays them line by line.
#include <algorithm>
#include <string>
#include <variant>

#include "fuzz_support.hpp"
#include "proofs/conformance/driver_protocol.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec::fuzz {

std::vector<std::pair<std::string, std::string>> builtinSeeds() {
  using namespace conformance;
  const Config config = *preset("default");
  const spec::ClusterState initial = spec::initialState(config);
  std::vector<std::pair<std::string, std::string>> seeds = {
      {"request-init.json", encodeRequest(InitRequest{1, kDriverProtocolVersion, std::string(*presetText("default"))})},
      {"request-step.json", encodeRequest(StepRequest{2, "elect-controller 1"})},
      {"request-reset.json", encodeRequest(ResetRequest{3})},
      {"request-quit.json", encodeRequest(QuitRequest{4})},
      {"request-init-2.json", encodeRequest(InitRequest{1, kDriverProtocolGivenVersion, std::string(*presetText("default"))})},
      {"request-given.json", encodeRequest(GivenRequest{5, initial.world})}};
  Reply init_ok{.type = ReplyType::InitOk, .id = 1, .observation = initial.world};
  init_ok.actions = std::vector<ActionKind>{ActionKind{}};
  Reply step_ok{.type = ReplyType::StepOk, .id = 2, .observation = initial.world};
  Reply error{.type = ReplyType::Error, .id = 3, .code = ErrorCode::NotEnabled, .message = "not enabled"};
  Reply quit_ok{.type = ReplyType::QuitOk, .id = 4};
  seeds.emplace_back("reply-init-ok.json", encodeReply(init_ok));
  seeds.emplace_back("reply-step-ok.json", encodeReply(step_ok));
  seeds.emplace_back("reply-error.json", encodeReply(error));
  seeds.emplace_back("reply-quit-ok.json", encodeReply(quit_ok));
  Reply init_ok_2{.type = ReplyType::InitOk, .id = 1, .observation = initial.world, .protocol = kDriverProtocolGivenVersion};
  Reply given_ok{.type = ReplyType::GivenOk, .id = 5, .observation = initial.world};
  seeds.emplace_back("reply-init-ok-2.json", encodeReply(init_ok_2));
  seeds.emplace_back("reply-given-ok.json", encodeReply(given_ok));
  return seeds;
}

}  // namespace kcspec::fuzz

namespace {

// Small enough that the fuzzer also reaches the overlong-line path (the driver's default is 8 MiB).
constexpr std::size_t kMaxLineBytes = 1024;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kcspec::conformance;
  namespace fuzz = kcspec::fuzz;
  const std::string_view text = fuzz::asText(data, size);
  const std::string_view line = text.substr(0, std::min(text.find('\n'), text.size()));
  const ParsedRequest request = parseRequest(line, kMaxLineBytes);
  if (const auto* parsed = std::get_if<Request>(&request)) {
    const std::string encoded = encodeRequest(*parsed);
    const ParsedRequest again = parseRequest(encoded);
    if (!std::holds_alternative<Request>(again)) fuzz::fail("an encoded request does not parse", line, encoded);
    if (encodeRequest(std::get<Request>(again)) != encoded) {
      fuzz::fail("encoding a request is not a fixed point", encoded, encodeRequest(std::get<Request>(again)));
    }
  }

  const ParsedReply reply = parseReply(line, kMaxLineBytes);
  if (const auto* parsed = std::get_if<Reply>(&reply)) {
    const std::string encoded = encodeReply(*parsed);
    const ParsedReply again = parseReply(encoded);
    if (!std::holds_alternative<Reply>(again)) {
      fuzz::fail("an encoded reply does not parse: " + std::get<ReplyError>(again).message, line, encoded);
    }
    if (encodeReply(std::get<Reply>(again)) != encoded) {
      fuzz::fail("encoding a reply is not a fixed point", encoded, encodeReply(std::get<Reply>(again)));
    }
  }
  return 0;
}
