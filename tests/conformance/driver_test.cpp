// The live driver's pieces on their own: the protocol's line parsers (pure functions), the
// history shrinker, and the child process with its timeouts and bounds. The driver against real
// SUTs (the reference, every mutant, faulty ones, the Python example) runs through the kcspec
// executable in tests/conformance/CMakeLists.txt.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <variant>
#include <vector>

#include "proofs/conformance/driver_child.hpp"
#include "proofs/conformance/driver_protocol.hpp"
#include "proofs/agreement/shrink.hpp"
#include "spec/vocabulary/observation_json.hpp"

namespace kcspec::conformance {
namespace {

using namespace std::chrono_literals;

// ------------------------------------------------------------------------------ requests

TEST(DriverProtocol, RequestsRoundTrip) {
  const std::vector<Request> requests = {InitRequest{1, 1, "brokers 0 1\ntopic t\n  partition 0 replicas 0\n"},
                                         StepRequest{2, "crash 1"}, ResetRequest{3}, QuitRequest{9007199254740991}};
  for (const Request& request : requests) {
    const std::string line = encodeRequest(request);
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    const ParsedRequest parsed = parseRequest(line);
    ASSERT_TRUE(std::holds_alternative<Request>(parsed)) << line;
    EXPECT_EQ(encodeRequest(std::get<Request>(parsed)), line);
  }
  EXPECT_EQ(encodeRequest(StepRequest{2, "crash 1"}), R"({"type":"step","id":2,"action":"crash 1"})");
}

struct BadRequest {
  const char* line;
  std::int64_t id;
  ErrorCode code;
  const char* message_start;
};

TEST(DriverProtocol, BadRequestsGetTheReplyTheyAreOwed) {
  const BadRequest cases[] = {
      {"", 0, ErrorCode::BadMessage, "not JSON"},
      {"garbage", 0, ErrorCode::BadMessage, "not JSON"},
      {"\xff\xfe{", 0, ErrorCode::BadMessage, "not JSON"},
      {"[1,2]", 0, ErrorCode::BadMessage, "expected a JSON object, got array"},
      {R"({"type":"step","action":"crash 1"})", 0, ErrorCode::BadMessage, "member \"id\" must be"},
      {R"({"type":"step","id":-1,"action":"crash 1"})", 0, ErrorCode::BadMessage, "member \"id\" must be"},
      {R"({"type":"step","id":9007199254740992,"action":"crash 1"})", 0, ErrorCode::BadMessage, "member \"id\" must be"},
      {R"({"type":"step","id":1.5,"action":"crash 1"})", 0, ErrorCode::BadMessage, "member \"id\" must be"},
      {R"({"id":4})", 4, ErrorCode::BadMessage, "member \"type\" must be a string"},
      {R"({"type":"launch","id":4})", 4, ErrorCode::BadMessage, "unknown type \"launch\""},
      {R"({"type":"step","id":4})", 4, ErrorCode::BadMessage, "member \"action\" must be a string"},
      {R"({"type":"step","id":4,"action":7})", 4, ErrorCode::BadMessage, "member \"action\" must be a string"},
      {R"({"type":"step","id":4,"action":"crash 1","extra":1})", 4, ErrorCode::BadMessage, "unknown member \"extra\""},
      {R"({"type":"init","id":5,"config":"brokers 0"})", 5, ErrorCode::BadMessage, "member \"protocol\" must be"},
      {R"({"type":"init","id":5,"protocol":1})", 5, ErrorCode::BadMessage, "member \"config\" must be a string"},
      {R"({"type":"init","id":5,"protocol":2,"config":""})", 5, ErrorCode::UnsupportedProtocol, "protocol 2 is not supported"},
      {R"({"type":"reset","id":6,"config":""})", 6, ErrorCode::BadMessage, "unknown member \"config\""},
  };
  for (const BadRequest& c : cases) {
    const ParsedRequest parsed = parseRequest(c.line);
    ASSERT_TRUE(std::holds_alternative<RequestError>(parsed)) << c.line;
    const RequestError& error = std::get<RequestError>(parsed);
    EXPECT_EQ(error.id, c.id) << c.line;
    EXPECT_EQ(error.code, c.code) << c.line;
    EXPECT_EQ(error.message.rfind(c.message_start, 0), 0u) << c.line << "\n  got: " << error.message;
  }
}

TEST(DriverProtocol, LongAndDeepLinesAreRejectedBeforeParsing) {
  const std::string long_line = R"({"type":"step","id":1,"action":")" + std::string(5000, 'x') + "\"}";
  const ParsedRequest too_long = parseRequest(long_line, 4096);
  ASSERT_TRUE(std::holds_alternative<RequestError>(too_long));
  EXPECT_EQ(std::get<RequestError>(too_long).message, "line longer than 4096 bytes");

  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const ParsedRequest nested = parseRequest(deep);
  ASSERT_TRUE(std::holds_alternative<RequestError>(nested));
  EXPECT_EQ(std::get<RequestError>(nested).message, "JSON nested deeper than 32 levels");
  const ParsedReply nested_reply = parseReply(deep);
  ASSERT_TRUE(std::holds_alternative<ReplyError>(nested_reply));

  // Brackets inside strings do not count.
  const std::string in_string = R"({"type":"step","id":1,"action":")" + std::string(100, '[') + "\"}";
  EXPECT_TRUE(std::holds_alternative<Request>(parseRequest(in_string)));
}

// ------------------------------------------------------------------------------- replies

TEST(DriverProtocol, RepliesRoundTrip) {
  Observation observation;
  observation.zk.controller = 2;
  observation.brokers[2].alive = true;
  Reply init;
  init.type = ReplyType::InitOk;
  init.id = 1;
  init.observation = observation;
  init.actions = std::vector<ActionKind>{ActionKind::CreateTopic, ActionKind::DeliverRequest};
  Reply step;
  step.type = ReplyType::StepOk;
  step.id = 2;
  step.observation = observation;
  Reply error;
  error.type = ReplyType::Error;
  error.id = 3;
  error.code = ErrorCode::NotEnabled;
  error.message = "crash 1 is not enabled";
  Reply quit;
  quit.type = ReplyType::QuitOk;
  quit.id = 4;
  for (const Reply& reply : {init, step, error, quit}) {
    const std::string line = encodeReply(reply);
    const ParsedReply parsed = parseReply(line);
    ASSERT_TRUE(std::holds_alternative<Reply>(parsed)) << line << ": " << std::get<ReplyError>(parsed).message;
    const Reply& back = std::get<Reply>(parsed);
    EXPECT_EQ(back.type, reply.type);
    EXPECT_EQ(back.id, reply.id);
    EXPECT_EQ(back.observation.has_value(), reply.observation.has_value());
    if (back.observation) {
      EXPECT_TRUE(*back.observation == *reply.observation);
    }
    EXPECT_EQ(back.actions, reply.actions);
    EXPECT_EQ(back.code, reply.code);
    EXPECT_EQ(back.message, reply.message);
  }
  EXPECT_EQ(encodeReply(step), R"({"type":"step_ok","id":2,"observation":{"zookeeper":{"controller":2},"brokers":{"2":{"alive":true}}}})");
}

TEST(DriverProtocol, MalformedRepliesSayWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {"garbage \xff", "not JSON"},
      {R"({"type":"step_ok","id":2})", "member \"observation\" is missing"},
      {R"({"type":"step_ok","id":2,"observation":{"brokers":{"9":{}}}})", "/observation/brokers/9: expected a broker id"},
      {R"({"type":"step_ok","id":2,"observation":{},"note":"hi"})", "unknown member \"note\""},
      {R"({"type":"init_ok","id":1,"observation":{}})", "member \"protocol\" must be 1"},
      {R"({"type":"init_ok","id":1,"protocol":1,"observation":{},"actions":["fly"]})", "/actions: \"fly\" is not an action name"},
      // A SUT that implements nothing would pass every run without a step.
      {R"({"type":"init_ok","id":1,"protocol":1,"observation":{},"actions":[]})", "member \"actions\" lists no action"},
      {R"({"type":"error","id":2,"code":"oops"})", "member \"code\" must be one of the error codes"},
      {R"({"type":"error","id":2,"code":"internal","message":3})", "member \"message\" must be a string"},
      {R"({"type":"done","id":2})", "unknown type \"done\""},
      {R"({"type":"quit_ok"})", "member \"id\" must be"},
  };
  for (const auto& [line, message] : cases) {
    const ParsedReply parsed = parseReply(line);
    ASSERT_TRUE(std::holds_alternative<ReplyError>(parsed)) << line;
    EXPECT_EQ(std::get<ReplyError>(parsed).message.rfind(message, 0), 0u)
        << line << "\n  got: " << std::get<ReplyError>(parsed).message;
  }
}

// ------------------------------------------------------------------------------ shrinker

Action step(int broker) {
  Action a;
  a.kind = ActionKind::DeliverRequest;
  a.broker = broker;
  return a;
}

TEST(DriverShrink, KeepsExactlyTheStepsTheFailureNeedsInOrder) {
  std::vector<Action> history;
  for (int i = 0; i < 40; ++i) history.push_back(step(i % 8));
  history[7].kind = ActionKind::CrashBroker;  // the failure needs these two, in this order
  history[31].kind = ActionKind::StartBroker;
  const auto fails = [](const std::vector<Action>& candidate) {
    bool crashed = false;
    for (const Action& a : candidate) {
      crashed = crashed || a.kind == ActionKind::CrashBroker;
      if (crashed && a.kind == ActionKind::StartBroker) return true;
    }
    return false;
  };
  const agreement::ShrinkResult result = agreement::shrinkHistory(history, fails, 1000);
  ASSERT_EQ(result.history.size(), 2u);
  EXPECT_EQ(result.history[0].kind, ActionKind::CrashBroker);
  EXPECT_EQ(result.history[1].kind, ActionKind::StartBroker);
  EXPECT_LE(result.replays, 200);
  // Deterministic: the same input gives the same replays.
  EXPECT_EQ(agreement::shrinkHistory(history, fails, 1000).replays, result.replays);
}

TEST(DriverShrink, StopsAtTheReplayBudget) {
  std::vector<Action> history(64, step(1));
  int calls = 0;
  const agreement::ShrinkResult result = agreement::shrinkHistory(history, [&](const std::vector<Action>&) { return ++calls, false; }, 10);
  EXPECT_EQ(result.replays, 10);
  EXPECT_EQ(calls, 10);
  EXPECT_EQ(result.history.size(), 64u);
}

// ------------------------------------------------------------------------- child process

TEST(DriverChild, ExchangesLinesAndSeesTheExit) {
  ChildProcess child({"sh", "-c", "while IFS= read -r l; do echo \"got $l\"; done; echo bye >&2; exit 3"}, 1024);
  ASSERT_TRUE(child.writeLine("one", 5s));
  const LineResult first = child.readLine(5s);
  EXPECT_EQ(first.status, LineStatus::Line);
  EXPECT_EQ(first.line, "got one");
  child.finish(5s);
  EXPECT_EQ(child.exitDescription(), "exited with status 3");
  EXPECT_EQ(child.stderrTail(), "bye\n");
}

TEST(DriverChild, ATimeoutIsReportedAndTheWholeGroupIsKilled) {
  // The shell starts a grandchild that would keep the pipe open: killing the group ends it too.
  ChildProcess child({"sh", "-c", "sleep 100000 & wait"}, 1024);
  const LineResult got = child.readLine(200ms);
  EXPECT_EQ(got.status, LineStatus::Timeout);
  child.kill();
  EXPECT_FALSE(child.running());
  EXPECT_EQ(child.exitDescription(), "killed by signal 9 (Killed)");
}

TEST(DriverChild, ALineLongerThanTheBoundIsTooLong) {
  ChildProcess child({"sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x; echo; sleep 100000"}, 4096);
  const LineResult got = child.readLine(10s);
  EXPECT_EQ(got.status, LineStatus::TooLong);
  EXPECT_LE(got.line.size(), 200u);
}

TEST(DriverChild, AClosedOutputIsClosedAndWritingToAGoneChildFails) {
  ChildProcess child({"sh", "-c", "printf 'partial'; exit 0"}, 1024);
  const LineResult got = child.readLine(10s);
  EXPECT_EQ(got.status, LineStatus::Closed);
  EXPECT_EQ(got.line, "partial");
  child.finish(5s);
  EXPECT_FALSE(child.writeLine("anyone?", 1s));  // EPIPE, not SIGPIPE
}

TEST(DriverChild, AProgramThatCannotRunIsAnError) {
  try {
    ChildProcess child({"/nonexistent/kcspec-sut"}, 1024);
    ADD_FAILURE() << "started";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot run /nonexistent/kcspec-sut: No such file or directory");
  }
}

}  // namespace
}  // namespace kcspec::conformance
