// Fuzz target: the live driver's protocol messages (proofs/conformance/driver_protocol.hpp), read
// by the SUT (requests) and by the driver (replies, written by programs kcspec does not control).
// Each line of the input is parsed both ways; the parsers never throw; a message that parses
// encodes to a line that parses to a message encoding the same way.
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
  std::string requests = encodeRequest(InitRequest{1, kDriverProtocolVersion, std::string(*presetText("default"))}) + "\n" +
                         encodeRequest(StepRequest{2, "elect-controller 1"}) + "\n" + encodeRequest(ResetRequest{3}) +
                         "\n" + encodeRequest(QuitRequest{4}) + "\n";
  Reply init_ok{.type = ReplyType::InitOk, .id = 1, .observation = initial.world};
  init_ok.actions = std::vector<ActionKind>{ActionKind{}};
  Reply step_ok{.type = ReplyType::StepOk, .id = 2, .observation = initial.world};
  Reply error{.type = ReplyType::Error, .id = 3, .code = ErrorCode::NotEnabled, .message = "not enabled"};
  Reply quit_ok{.type = ReplyType::QuitOk, .id = 4};
  std::string replies = encodeReply(init_ok) + "\n" + encodeReply(step_ok) + "\n" + encodeReply(error) + "\n" +
                        encodeReply(quit_ok) + "\n";
  return {{"requests.ndjson", requests}, {"replies.ndjson", replies}};
}

}  // namespace kcspec::fuzz

namespace {

// Small enough that the fuzzer also reaches the overlong-line path.
constexpr std::size_t kMaxLineBytes = 4096;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kcspec::conformance;
  namespace fuzz = kcspec::fuzz;
  const std::string_view text = fuzz::asText(data, size);
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);

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
    if (end == text.size()) break;
    start = end + 1;
  }
  return 0;
}
