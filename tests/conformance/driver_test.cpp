// The live driver's pieces on their own: the protocol's line parsers (pure functions), the
// history shrinker, and the child process with its timeouts and bounds. The driver against real
// SUTs (the reference, every mutant, faulty ones, the Python example) runs through the kcspec
// executable in tests/conformance/CMakeLists.txt.
#include <gtest/gtest.h>

#include <chrono>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "proofs/conformance/driver_child.hpp"
#include "proofs/conformance/driver_protocol.hpp"
#include "proofs/conformance/driver_session.hpp"
#include "proofs/agreement/shrink.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/observation_json.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec::conformance {
namespace {

using namespace std::chrono_literals;

// ------------------------------------------------------------------------------ requests

TEST(DriverProtocol, RequestsRoundTrip) {
  Observation world;
  world.zk.controller = 1;
  world.brokers[1].alive = true;
  world.brokers[1].controller.active = true;
  const std::vector<Request> requests = {InitRequest{1, 1, "brokers 0 1\ntopic t\n  partition 0 replicas 0\n"},
                                         InitRequest{1, 2, "brokers 0 1\ntopic t\n  partition 0 replicas 0\n"},
                                         GivenRequest{2, world},
                                         StepRequest{2, "crash 1"}, ResetRequest{3}, QuitRequest{9007199254740991}};
  for (const Request& request : requests) {
    const std::string line = encodeRequest(request);
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    const ParsedRequest parsed = parseRequest(line);
    ASSERT_TRUE(std::holds_alternative<Request>(parsed)) << line;
    EXPECT_EQ(encodeRequest(std::get<Request>(parsed)), line);
  }
  EXPECT_EQ(encodeRequest(StepRequest{2, "crash 1"}), R"({"type":"step","id":2,"action":"crash 1"})");
  EXPECT_EQ(encodeRequest(GivenRequest{4, world}),
            R"({"type":"given","id":4,"observation":{"zookeeper":{"controller":1},"brokers":{"1":{"alive":true,"controller":{"active":true}}}}})");
  // The protocol asked for is kept: a SUT answers init_ok with it.
  const ParsedRequest init2 = parseRequest(R"({"type":"init","id":1,"protocol":2,"config":""})");
  ASSERT_TRUE(std::holds_alternative<Request>(init2));
  EXPECT_EQ(std::get<InitRequest>(std::get<Request>(init2)).protocol, 2);
  const ParsedRequest given = parseRequest(encodeRequest(GivenRequest{4, world}));
  ASSERT_TRUE(std::holds_alternative<Request>(given));
  EXPECT_TRUE(std::get<GivenRequest>(std::get<Request>(given)).observation == world);
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
      {R"({"type":"init","id":5,"protocol":7,"config":""})", 5, ErrorCode::UnsupportedProtocol, "protocol 7 is not supported"},
      {R"({"type":"init","id":5,"protocol":0,"config":""})", 5, ErrorCode::UnsupportedProtocol, "protocol 0 is not supported"},
      // `given` (protocol 2): the observation whole, in observation_json.hpp's schema.
      {R"({"type":"given","id":7})", 7, ErrorCode::BadMessage, "member \"observation\" is missing"},
      {R"({"type":"given","id":7,"observation":[]})", 7, ErrorCode::BadMessage, "member \"observation\" must be an object, not array"},
      {R"({"type":"given","id":7,"observation":{"brokers":{"9":{}}}})", 7, ErrorCode::BadMessage, "/observation/brokers/9: expected a broker id"},
      {R"({"type":"given","id":7,"observation":{"zookeeper":{"controler":1}}})", 7, ErrorCode::BadMessage, "/observation/zookeeper/controler: unknown member"},
      {R"({"type":"given","id":7,"observation":{"brokers":{"1":{"inbox":{"0":{"kind":"StopReplica"}}}}}})", 7, ErrorCode::BadMessage, "/observation/brokers/1/inbox: "},
      {R"({"type":"given","id":7,"observation":{},"config":""})", 7, ErrorCode::BadMessage, "unknown member \"config\""},
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
  Reply init2 = init;
  init2.protocol = 2;
  Reply given;
  given.type = ReplyType::GivenOk;
  given.id = 5;
  given.observation = observation;
  for (const Reply& reply : {init, step, error, quit, init2, given}) {
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
    EXPECT_EQ(back.protocol, reply.protocol);
  }
  EXPECT_EQ(encodeReply(given), R"({"type":"given_ok","id":5,"observation":{"zookeeper":{"controller":2},"brokers":{"2":{"alive":true}}}})");
  EXPECT_EQ(encodeReply(step), R"({"type":"step_ok","id":2,"observation":{"zookeeper":{"controller":2},"brokers":{"2":{"alive":true}}}})");
}

TEST(DriverProtocol, MalformedRepliesSayWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {"garbage \xff", "not JSON"},
      {R"({"type":"step_ok","id":2})", "member \"observation\" is missing"},
      {R"({"type":"step_ok","id":2,"observation":{"brokers":{"9":{}}}})", "/observation/brokers/9: expected a broker id"},
      {R"({"type":"step_ok","id":2,"observation":{},"note":"hi"})", "unknown member \"note\""},
      {R"({"type":"init_ok","id":1,"observation":{}})", "member \"protocol\" must be a protocol version, 1 to 6"},
      {R"({"type":"init_ok","id":1,"protocol":7,"observation":{}})", "member \"protocol\" must be a protocol version, 1 to 6"},
      {R"({"type":"given_ok","id":2})", "member \"observation\" is missing"},
      {R"({"type":"given_ok","id":2,"observation":{},"protocol":2})", "unknown member \"protocol\""},
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

// ------------------------------------------------------------- sessions from a given world

// A session with `sut` (a shell script) over the default configuration, from `given` when set.
Config withProtocol(Config config, MetadataVersion version) {
  config.inter_broker_protocol_version = version;
  return config;
}

struct ScriptedSession {
  explicit ScriptedSession(const std::string& script, std::optional<Observation> given,
                           MetadataVersion version = kLatestProductionMetadataVersion)
      : config(withProtocol(*preset("default"), version)),
        session(SutOptions{{"sh", "-c", script}, std::chrono::milliseconds(10'000), kDefaultMaxLineBytes, ""}, config,
                std::move(given)) {}
  Config config;
  SutSession session;
};

Observation controllerOn(int broker) {
  Observation world;
  world.zk.controller = broker;
  return world;
}

// Each line the script reads must match `pattern` (a shell `case` pattern), else it exits 1.
std::string expectThenReply(const std::string& pattern, const std::string& reply) {
  return "IFS= read -r l; case \"$l\" in " + pattern + ") printf '%s\\n' '" + reply + "';; *) echo \"unexpected: $l\" >&2; exit 1;; esac; ";
}

// A SUT of protocol `version` that answers the driver's first init (for the newest version) with
// init_ok for its own, then reads on.
std::string answersInitFor(int version) {
  return expectThenReply(R"(*'"type":"init","id":1,"protocol":6,'*)",
                         R"({"type":"init_ok","id":1,"protocol":)" + std::to_string(version) + R"(,"observation":{}})") +
         "cat >/dev/null";
}

TEST(DriverGiven, ASessionFromAGivenWorldSendsItAfterEveryInitAndReset) {
  const std::string given_ok_2 = R"({"type":"given_ok","id":2,"observation":{"zookeeper":{"controller":1}}})";
  const std::string given_ok_4 = R"({"type":"given_ok","id":4,"observation":{"zookeeper":{"controller":1}}})";
  ScriptedSession sut(expectThenReply(R"(*'"type":"init","id":1,"protocol":6,'*)",
                                      R"({"type":"init_ok","id":1,"protocol":4,"observation":{}})") +
                          expectThenReply(R"(*'"type":"given","id":2,"observation":{"zookeeper":{"controller":1}'*)",
                                          given_ok_2) +
                          expectThenReply(R"(*'"type":"reset","id":3}')", R"({"type":"reset_ok","id":3,"observation":{}})") +
                          expectThenReply(R"(*'"type":"given","id":4,'*)", given_ok_4) + "cat >/dev/null",
                      controllerOn(1));
  for (int history = 0; history < 2; ++history) {
    const SutResult start = sut.session.begin();
    ASSERT_TRUE(std::holds_alternative<Observation>(start))
        << std::get<SutFailure>(start).message << "\n" << std::get<SutFailure>(start).detail;
    // The starting observation is given_ok's, not init_ok's or reset_ok's (both empty here).
    EXPECT_TRUE(std::get<Observation>(start) == controllerOn(1));
  }
}

TEST(DriverGiven, ASessionFromTheInitialStateAsksAnOlderSutForProtocol1) {
  // Version 6 first; a SUT that refuses it is asked again, in the same process, for version 1.
  ScriptedSession sut(expectThenReply(R"(*'"type":"init","id":1,"protocol":6,'*)",
                                      R"({"type":"error","id":1,"code":"unsupported_protocol","message":"I speak protocol 1"})") +
                          expectThenReply(R"(*'"type":"init","id":2,"protocol":1,'*)",
                                          R"({"type":"init_ok","id":2,"protocol":1,"observation":{}})") +
                          "cat >/dev/null",
                      std::nullopt);
  const SutResult start = sut.session.begin();
  ASSERT_TRUE(std::holds_alternative<Observation>(start)) << std::get<SutFailure>(start).message;
  EXPECT_TRUE(std::get<Observation>(start) == Observation{});
  EXPECT_FALSE(sut.session.showsTopicIds());
  EXPECT_FALSE(sut.session.showsRollingUpgrades());
  // Compared without /feature: a failover writes it on the spec's side.
  Observation failed_over = spec::initialState(sut.config).world;
  failed_over.zk.feature = FeatureZnode{.status = FeatureZnodeStatus::Enabled, .format_version = 2};
  failed_over.brokers[1].ibp_upgraded = true;
  const Observation without = sut.session.comparable(failed_over);
  EXPECT_EQ(without.zk.feature, FeatureZnode{});
  EXPECT_FALSE(without.brokers[1].ibp_upgraded);
  // Compared without topic ids: the spec's initial state (t with id 1) against a SUT that has none.
  const Observation spec_view = sut.session.comparable(spec::initialState(sut.config).world);
  EXPECT_EQ(spec_view.zk.topics[0].topic_id, kNoTopicId);
}

TEST(DriverGiven, ASutThatAnswersForItsOwnOlderVersionIsTakenAtIt) {
  ScriptedSession sut(answersInitFor(1), std::nullopt);
  const SutResult start = sut.session.begin();
  ASSERT_TRUE(std::holds_alternative<Observation>(start)) << std::get<SutFailure>(start).message;
  EXPECT_FALSE(sut.session.showsTopicIds());
}

// What begin() says of a SUT that does something else with a given world.
SutFailure givenFailure(const std::string& script) {
  ScriptedSession sut(script + "cat >/dev/null", controllerOn(1));
  const SutResult start = sut.session.begin();
  if (!std::holds_alternative<SutFailure>(start)) {
    ADD_FAILURE() << "the session started";
    return {};
  }
  return std::get<SutFailure>(start);
}

TEST(DriverGiven, ASutThatCannotLoadAGivenWorldSaysSo) {
  const std::string init_ok_2 = R"({"type":"init_ok","id":1,"protocol":2,"observation":{}})";
  // A protocol-1 SUT refuses the version.
  SutFailure failure = givenFailure(
      expectThenReply("*", R"({"type":"error","id":1,"code":"unsupported_protocol","message":"I speak protocol 1"})") +
      expectThenReply("*", R"({"type":"error","id":2,"code":"unsupported_protocol","message":"I speak protocol 1"})"));
  EXPECT_TRUE(failure.cannot_run);
  EXPECT_EQ(failure.kind, FindingKind::ErrorReply);
  EXPECT_EQ(failure.message, "the SUT answered init with error unsupported_protocol: I speak protocol 1; `given`, which "
                             "starts a run from a given world, is a request of protocol 2");
  // A protocol-1 SUT that answers for protocol 1 anyway.
  failure = givenFailure(expectThenReply("*", R"({"type":"init_ok","id":1,"protocol":1,"observation":{}})"));
  EXPECT_TRUE(failure.cannot_run);
  EXPECT_EQ(failure.kind, FindingKind::Protocol);
  EXPECT_EQ(failure.message.rfind("the SUT answered init for protocol 6 with init_ok of protocol 1; `given`", 0), 0u)
      << failure.message;
  // A protocol-2 SUT that does not implement `given`.
  failure = givenFailure(expectThenReply("*", init_ok_2) +
                         expectThenReply("*", R"({"type":"error","id":2,"code":"unsupported","message":"no given here"})"));
  EXPECT_TRUE(failure.cannot_run);
  EXPECT_EQ(failure.error_code, ErrorCode::Unsupported);
  EXPECT_EQ(failure.message, "the SUT answered given with error unsupported: no given here");
  // Any other error reply to a given world the driver judged is a finding, not a refusal.
  failure = givenFailure(expectThenReply("*", init_ok_2) +
                         expectThenReply("*", R"({"type":"error","id":2,"code":"bad_message","message":"what?"})"));
  EXPECT_FALSE(failure.cannot_run);
  EXPECT_EQ(failure.kind, FindingKind::ErrorReply);
  // And a reply of the wrong type to `given` is a protocol finding.
  failure = givenFailure(expectThenReply("*", init_ok_2) +
                         expectThenReply("*", R"({"type":"reset_ok","id":2,"observation":{}})"));
  EXPECT_FALSE(failure.cannot_run);
  EXPECT_EQ(failure.kind, FindingKind::Protocol);
  EXPECT_EQ(failure.message, "the SUT answered given with reset_ok, expected given_ok");
}

TEST(DriverGiven, ASutThatAnswersForVersion4IsComparedWithoutFeature) {
  ScriptedSession sut(answersInitFor(4), std::nullopt);
  const SutResult start = sut.session.begin();
  ASSERT_TRUE(std::holds_alternative<Observation>(start)) << std::get<SutFailure>(start).message;
  EXPECT_TRUE(sut.session.showsTopicIds());
  EXPECT_FALSE(sut.session.showsRollingUpgrades());
}

// What begin() says of a SUT that refuses both inits (the newest version, then the one `config`
// and the replayed `steps` need), saying `speaks` ("1 to 4").
SutFailure refusedRun(const Config& config, const std::string& speaks, std::span<const Action> steps = {}) {
  const auto refuse = [&](int id) {
    return expectThenReply("*", R"({"type":"error","id":)" + std::to_string(id) +
                                    R"(,"code":"unsupported_protocol","message":"I speak )" + speaks + R"("})");
  };
  SutSession session(SutOptions{{"sh", "-c", refuse(1) + refuse(2) + "cat >/dev/null"}, std::chrono::milliseconds(10'000),
                                kDefaultMaxLineBytes, ""},
                     config, std::nullopt, steps);
  const SutResult start = session.begin();
  if (!std::holds_alternative<SutFailure>(start)) {
    ADD_FAILURE() << "the session started";
    return {};
  }
  return std::get<SutFailure>(start);
}

// Protocol 5: a configuration that names a rolling upgrade; a SUT that speaks 4 cannot run it.
TEST(DriverProtocolVersions, ARollingUpgradeAsksForVersion5) {
  Config upgrade = withProtocol(*preset("default"), MetadataVersion::IBP_2_4_IV1);
  upgrade.upgrade_inter_broker_protocol_version = MetadataVersion::IBP_3_8_IV0;
  EXPECT_EQ(neededProtocol(upgrade, false), 5);
  EXPECT_EQ(neededProtocol(upgrade, true), 5) << "5 has given too";
  const SutFailure failure = refusedRun(upgrade, "1 to 4");
  EXPECT_TRUE(failure.cannot_run);
  EXPECT_NE(failure.message.find("the configuration names an upgrade inter.broker.protocol.version (3.8-IV0), and a "
                                 "rolling upgrade is part of protocol 5"),
            std::string::npos)
      << failure.message;
}

// Protocol 6: a configuration that bounds zk-session-expiries; a SUT that speaks 5 cannot run it,
// and a session at 5 is neither sent zk-session-expiry nor compared on session_expiring_writes.
TEST(DriverProtocolVersions, SessionExpiriesAskForVersion6) {
  Config expiring = *preset("zk-session-expiry");
  EXPECT_EQ(neededProtocol(expiring, false), 6);
  EXPECT_EQ(neededProtocol(expiring, true), 6) << "6 has given too";
  const SutFailure failure = refusedRun(expiring, "1 to 5");
  EXPECT_TRUE(failure.cannot_run);
  EXPECT_NE(failure.message.find("the configuration bounds zk-session-expiries (1), and a session expiring in the middle "
                                 "of an event is part of protocol 6"),
            std::string::npos)
      << failure.message;

  ScriptedSession older(answersInitFor(5), std::nullopt);
  ASSERT_TRUE(std::holds_alternative<Observation>(older.session.begin()));
  EXPECT_FALSE(older.session.speaks(ActionKind::ExpireZkSession));
  EXPECT_TRUE(older.session.speaks(ActionKind::UpgradeIbp));
  Observation armed = spec::initialState(older.config).world;
  armed.zk.session_expiring_writes.insert(TopicPartition{0, 0});
  EXPECT_TRUE(older.session.comparable(armed).zk.session_expiring_writes.empty());
}

// A replay's steps ask for their kinds' versions: zk-connection-loss-feature needs 5 on a
// configuration that names no upgrade, and a SUT that speaks 4 cannot replay it — the message names
// the step; a session at 4 never speaks the kinds of 5 and 6.
TEST(DriverProtocolVersions, AReplayedStepAsksForItsKindsVersion) {
  EXPECT_EQ(actionProtocol(ActionKind::LoseZkConnectionOnFeature), 5);
  EXPECT_EQ(actionProtocol(ActionKind::UpgradeIbp), 5);
  EXPECT_EQ(actionProtocol(ActionKind::ExpireZkSession), 6);
  EXPECT_EQ(actionProtocol(ActionKind::CreateTopic), 1);
  Config losses = *preset("default");
  losses.bounds.zk_connection_losses = 1;
  const std::vector<Action> steps = {Action{ActionKind::ElectController, 1}, Action{ActionKind::LoseZkConnectionOnFeature}};
  EXPECT_EQ(neededProtocol(losses, false), 1);
  EXPECT_EQ(neededProtocol(losses, false, steps), 5);
  EXPECT_EQ(neededProtocol(losses, true, std::span(steps).first(1)), 2);

  const SutFailure failure = refusedRun(losses, "1 to 4", steps);
  EXPECT_TRUE(failure.cannot_run);
  EXPECT_EQ(failure.message, "the SUT answered init with error unsupported_protocol: I speak 1 to 4; the scenario's "
                             "step 2 (`zk-connection-loss-feature`) is an action of protocol 5");

  ScriptedSession older(answersInitFor(4), std::nullopt);
  ASSERT_TRUE(std::holds_alternative<Observation>(older.session.begin()));
  EXPECT_FALSE(older.session.speaks(ActionKind::LoseZkConnectionOnFeature));
  EXPECT_FALSE(older.session.speaks(ActionKind::UpgradeIbp));
  EXPECT_FALSE(older.session.speaks(ActionKind::ExpireZkSession));
  EXPECT_TRUE(older.session.speaks(ActionKind::DeliverRequest));
}

// Protocol 3: a configuration that names inter.broker.protocol.version.
TEST(DriverProtocolVersions, AConfigurationThatNamesAProtocolAsksForVersion3) {
  EXPECT_EQ(neededProtocol(*preset("default"), false), 1);
  EXPECT_EQ(neededProtocol(*preset("default"), true), 2);
  EXPECT_EQ(neededProtocol(withProtocol(*preset("default"), MetadataVersion::IBP_3_7_IV4), false), 3);
  EXPECT_EQ(neededProtocol(withProtocol(*preset("default"), MetadataVersion::IBP_2_1_IV2), true), 3) << "3 has given too";
  ScriptedSession sut(expectThenReply(R"(*'"type":"init","id":1,"protocol":6,'*)",
                                      R"({"type":"error","id":1,"code":"unsupported_protocol","message":"I speak 1 to 3"})") +
                          expectThenReply(R"(*'"type":"init","id":2,"protocol":3,'*'inter.broker.protocol.version 2.1-IV2'*)",
                                          R"({"type":"init_ok","id":2,"protocol":3,"observation":{}})") +
                          "cat >/dev/null",
                      std::nullopt, MetadataVersion::IBP_2_1_IV2);
  const SutResult start = sut.session.begin();
  ASSERT_TRUE(std::holds_alternative<Observation>(start)) << std::get<SutFailure>(start).message;
}

TEST(DriverProtocolVersions, ASutThatDoesNotSpeakVersion3CannotRunSuchAConfiguration) {
  const std::string refuse_1 = R"({"type":"error","id":1,"code":"unsupported_protocol","message":"I speak protocol 1"})";
  const std::string refuse_2 = R"({"type":"error","id":2,"code":"unsupported_protocol","message":"I speak protocol 1"})";
  for (const std::string& script : {expectThenReply("*", refuse_1) + expectThenReply("*", refuse_2),
                                    expectThenReply("*", R"({"type":"init_ok","id":1,"protocol":2,"observation":{}})")}) {
    SCOPED_TRACE(script);
    ScriptedSession sut(script + "cat >/dev/null", std::nullopt, MetadataVersion::IBP_2_6_IV0);
    const SutResult start = sut.session.begin();
    ASSERT_TRUE(std::holds_alternative<SutFailure>(start));
    const SutFailure& failure = std::get<SutFailure>(start);
    EXPECT_TRUE(failure.cannot_run);
    EXPECT_NE(failure.message.find("; the configuration names inter.broker.protocol.version 2.6-IV0, and a configuration "
                                   "that names one (with the request versions it gives) is part of protocol 3"),
              std::string::npos)
        << failure.message;
  }
}

}  // namespace
}  // namespace kcspec::conformance
