// The trace format's corners (docs/trace-format.md): a partial observation may give an array as
// an object keyed by decimal index (checking only those elements); a line with a duplicate
// member is bad input (JSON readers disagree on which of the two counts); `kcspec trace --fields`
// keeps a member in the states that have it and leaves it out where its parent is absent.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "proofs/conformance/trace_checker.hpp"
#include "proofs/conformance/trace_writer.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "spec/vocabulary/text_error.hpp"
#include "spec/vocabulary/trace_text.hpp"
#include "trace_test_files.hpp"

namespace kcspec::conformance {
namespace {

using Json = nlohmann::ordered_json;

const std::filesystem::path kScenarios = std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests" / "scenarios";
const std::string kHeader = "{\"kcspec-trace\":1,\"preset\":\"default\"}\n";

// A scenario of tests/scenarios, by file name.
Scenario readScenario(const std::string& name) { return test::readScenario(kScenarios / name); }

using test::joinLines;
using test::splitLines;

// The message of a line's parse error, or "(no error)".
std::string lineError(std::string_view line) {
  const TraceLine parsed = parseTraceLine(line);
  return std::holds_alternative<TraceLineError>(parsed) ? std::get<TraceLineError>(parsed).message
                                                        : std::string("(no error)");
}

std::string stepWith(const std::string& observation) {
  return "{\"action\":\"crash 1\",\"observation\":" + observation + "}";
}

// The TextError checkTrace throws for `text`, or a failure.
TextError badInput(const std::string& text) {
  try {
    (void)checkTrace(text, "bad.ndjson");
  } catch (const TextError& e) {
    return e;
  }
  ADD_FAILURE() << "no TextError for: " << text;
  return TextError("bad.ndjson", 0, "(none)");
}

// --- arrays given as objects keyed by index ------------------------------------------------------

// The B.2 trace with each step's observation replaced by the last element of one broker's
// inbox (kind only) and the first assignment of topic 0, both given by index.
std::string b2TraceObservingByIndex(int& indexed_steps) {
  const Scenario b2 = readScenario("appendix_b2.scenario");
  std::vector<std::string> lines = splitLines(writeTrace(b2.config, b2.steps, {}));
  indexed_steps = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const Json full = Json::parse(lines[i]);
    Json partial = Json::object();
    for (const auto& [id, broker] : full["observation"]["brokers"].items()) {
      const Json& inbox = broker["inbox"];
      if (inbox.empty()) continue;
      const std::string last = std::to_string(inbox.size() - 1);
      partial["brokers"][id]["inbox"][last]["kind"] = inbox.back()["kind"];
      break;
    }
    const Json& assignments = full["observation"]["zookeeper"]["topics"]["0"]["partitions"];
    if (!assignments.empty()) partial["zookeeper"]["topics"]["0"]["partitions"]["0"] = assignments[0];
    if (partial.empty()) continue;
    ++indexed_steps;
    lines[i] = Json{{"action", full["action"]}, {"observation", partial}}.dump();
  }
  return joinLines(lines);
}

TEST(PartialArrays, AnObjectKeyedByIndexChecksThoseElements) {
  int indexed_steps = 0;
  const std::string trace = b2TraceObservingByIndex(indexed_steps);
  ASSERT_GT(indexed_steps, 3);
  const TraceVerdict verdict = checkTrace(trace, "b2.ndjson");
  EXPECT_FALSE(verdict.divergence.has_value()) << divergenceText(*verdict.divergence, "b2.ndjson");
  EXPECT_EQ(verdict.observations_checked, verdict.steps + 1);
}

TEST(PartialArrays, AnElementGivenByIndexThatDiffersDiverges) {
  int indexed_steps = 0;
  std::vector<std::string> lines = splitLines(b2TraceObservingByIndex(indexed_steps));
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const Json step = Json::parse(lines[i]);
    if (!step["observation"].contains("brokers")) continue;
    // Copies: items()'s entries live only as long as the iteration proxy that made them.
    const Json& brokers = step["observation"]["brokers"];
    const std::string id = brokers.begin().key();
    const Json& inbox = brokers.begin().value()["inbox"];
    const std::string index = inbox.begin().key();
    const std::string other = inbox.begin().value()["kind"] == "StopReplica" ? "UpdateMetadata" : "StopReplica";
    Json changed = step;
    changed["observation"]["brokers"][id]["inbox"][index]["kind"] = other;
    lines[i] = changed.dump();
    const TraceVerdict verdict = checkTrace(joinLines(lines), "b2.ndjson");
    ASSERT_TRUE(verdict.divergence.has_value());
    EXPECT_EQ(verdict.divergence->line, static_cast<int>(i + 1));
    EXPECT_EQ(verdict.divergence->pointer, "/observation/brokers/" + id + "/inbox/" + index + "/kind");
    EXPECT_EQ(verdict.divergence->actual, Json(other));
    return;
  }
  FAIL() << "no step observes an inbox";
}

TEST(PartialArrays, TheLineKeepsTheObservationAsGiven) {
  const std::string observation = R"({"brokers":{"1":{"inbox":{"0":{"kind":"UpdateMetadata"}}}}})";
  const TraceLine parsed = parseTraceLine(stepWith(observation));
  ASSERT_TRUE(std::holds_alternative<TraceStep>(parsed)) << lineError(stepWith(observation));
  EXPECT_EQ(std::get<TraceStep>(parsed).observation, Json::parse(observation));
  EXPECT_EQ(lineError(stepWith(R"({"zookeeper":{"topics":{"0":{"partitions":{"3":{"replicas":[1]}}}}}})")), "(no error)");
  EXPECT_EQ(lineError(stepWith(R"({"zookeeper":{"topics":{"0":{"states":{"0":{"isr":{"1":2}}}}}}})")), "(no error)");
  EXPECT_EQ(lineError(stepWith(R"({"brokers":{"1":{"inbox":{}}}})")), "(no error)");
  // Nested: an element given by index holding an array given by index.
  EXPECT_EQ(lineError(stepWith(R"({"brokers":{"2":{"inbox":{"5":{"kind":"LeaderAndIsr","live_brokers":{"1":3}}}}}})")),
            "(no error)");
}

TEST(PartialArrays, BadKeysAreBadInputNamingTheirPointer) {
  const auto expectError = [](const std::string& observation, const std::string& pointer, const std::string& what) {
    SCOPED_TRACE(observation);
    const std::string message = lineError(stepWith(observation));
    EXPECT_NE(message.find("\"observation\" " + pointer + ": "), std::string::npos) << message;
    EXPECT_NE(message.find(what), std::string::npos) << message;
  };
  expectError(R"({"brokers":{"1":{"inbox":{"x":{"kind":"LeaderAndIsr"}}}}})", "/brokers/1/inbox/x", "decimal index");
  expectError(R"({"brokers":{"1":{"inbox":{"01":{"kind":"LeaderAndIsr"}}}}})", "/brokers/1/inbox/01", "decimal index");
  expectError(R"({"brokers":{"1":{"inbox":{"-1":{"kind":"LeaderAndIsr"}}}}})", "/brokers/1/inbox/-1", "decimal index");
  expectError(R"({"brokers":{"1":{"inbox":{"a/b":{}}}}})", "/brokers/1/inbox/a~1b", "decimal index");
  expectError(R"({"zookeeper":{"topics":{"0":{"partitions":{"4":{}}}}}})", "/zookeeper/topics/0/partitions/4",
              "out of range");
  expectError(R"({"brokers":{"1":{"inbox":{"1024":{"kind":"LeaderAndIsr"}}}}})", "/brokers/1/inbox/1024", "out of range");
  expectError(R"({"brokers":{"1":{"inbox":{"99999999999999999999999":{}}}}})",
              "/brokers/1/inbox/99999999999999999999999", "out of range");
  // The schema's own errors inside elements given by index name the element's index.
  expectError(R"({"brokers":{"1":{"inbox":{"0":{"kind":"LeaderAndIsr"},"3":{"kind":"Bogus"}}}}})",
              "/brokers/1/inbox/3/kind", "expected one of");
  expectError(R"({"brokers":{"1":{"inbox":{"6":{"kind":"LeaderAndIsr","live_brokers":{"2":9}}}}}})",
              "/brokers/1/inbox/6/live_brokers/2", "out of range");
  expectError(R"({"brokers":{"1":{"inbox":{"6":{"kind":"LeaderAndIsr","live_brokers":{"x":1}}}}}})",
              "/brokers/1/inbox/6/live_brokers/x", "decimal index");
  // Arrays given by index in several places at one schema position (every broker's inbox).
  expectError(R"({"brokers":{"1":{"inbox":{"4":{"kind":"LeaderAndIsr"}}},"2":{"inbox":{"0":{},"7":{"kind":"Bogus"}}}}})",
              "/brokers/2/inbox/0", "missing member \"kind\"");
  expectError(R"({"brokers":{"1":{"inbox":{"4":{"kind":"LeaderAndIsr"}}},"2":{"inbox":{"7":{"kind":"Bogus"}}}}})",
              "/brokers/2/inbox/7/kind", "expected one of");
  expectError(R"({"zookeeper":{"topics":{"0":{"partitions":{"1":{}}},"1":{"partitions":{"3":{},"6":{}}}}}})",
              "/zookeeper/topics/1/partitions/6", "index 6 is out of range (the array holds at most 4 elements)");
}

TEST(PartialArrays, CheckTraceReportsBadKeysWithFileAndLine) {
  const TextError e = badInput(kHeader + "\n" + stepWith(R"({"brokers":{"1":{"inbox":{"x":{}}}}})") + "\n");
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(std::string(e.what()).rfind("bad.ndjson:3: \"observation\" /brokers/1/inbox/x: ", 0), 0u) << e.what();
}

// --- duplicate members ---------------------------------------------------------------------------

TEST(DuplicateMembers, AreBadInputNamingMemberAndPointer) {
  EXPECT_EQ(lineError(R"({"action":"elect-controller 2","observation":{"zookeeper":{"controller":3}},"observation":{}})"),
            "duplicate member \"observation\" at /observation");
  EXPECT_EQ(lineError(R"({"action":"crash 1","observation":{"zookeeper":{"controller":1,"controller":2}}})"),
            "duplicate member \"controller\" at /observation/zookeeper/controller");
  EXPECT_EQ(lineError(R"({"action":"crash 1","action":"crash 1"})"), "duplicate member \"action\" at /action");
  EXPECT_EQ(lineError(R"({"kcspec-trace":1,"preset":"default","kcspec-trace":1})"),
            "duplicate member \"kcspec-trace\" at /kcspec-trace");
  EXPECT_EQ(lineError(R"({"action":"crash 1","meta":[0,{"a":1},{"a":1,"b":[{"c":1,"c":2}]}]})"),
            "duplicate member \"c\" at /meta/2/b/0/c");
  EXPECT_EQ(lineError(R"({"action":"crash 1","meta":{"a/b~":1,"a/b~":2}})"), "duplicate member \"a/b~\" at /meta/a~1b~0");
  EXPECT_EQ(lineError(R"({"action":"crash 1","meta":{"a\"b":1,"a\"b":2}})"), R"(duplicate member "a\"b" at /meta/a"b)");
  // The same name in different objects is no duplicate.
  EXPECT_EQ(lineError(R"({"action":"crash 1","meta":{"a":{"a":1},"b":{"a":1}},"observation":{"brokers":{"1":{"alive":false},"2":{"alive":true}}}})"),
            "(no error)");
}

TEST(DuplicateMembers, CheckTraceReportsThemWithFileAndLine) {
  const TextError e = badInput(
      kHeader + R"({"action":"elect-controller 2","observation":{"zookeeper":{"controller":3}},"observation":{}})" + "\n");
  EXPECT_EQ(e.line, 2);
  EXPECT_STREQ(e.what(), "bad.ndjson:2: duplicate member \"observation\" at /observation");
}

// --- trace --fields through absent parents -------------------------------------------------------

TEST(TraceFields, AMemberUnderAnAbsentParentIsWrittenWhereItExists) {
  const Scenario b4 = readScenario("appendix_b4.scenario");
  const std::string field = "/zookeeper/topics/0/states/0/leader";
  for (const bool compact : {false, true}) {
    SCOPED_TRACE(compact ? "compact" : "full");
    std::string trace;
    ASSERT_NO_THROW(trace = writeTrace(b4.config, b4.steps, {{field}, compact, true}));
    const std::vector<std::string> lines = splitLines(trace);
    ASSERT_EQ(lines.size(), b4.steps.size() + 1);
    int with_leader = 0;
    for (const std::string& line : lines) {
      const Json observation = Json::parse(line)["observation"];
      const Json::json_pointer pointer(field);
      if (observation.contains(pointer)) {
        ++with_leader;
        EXPECT_EQ(observation, Json::object({{"zookeeper", {{"topics", {{"0", {{"states", {{"0", {{"leader", observation[pointer]}}}}}}}}}}}}));
      } else {
        EXPECT_EQ(observation, Json::object()) << line;  // before create-topic and after the deletion
      }
    }
    EXPECT_GT(with_leader, 0);
    EXPECT_LT(with_leader, static_cast<int>(lines.size()));
    const TraceVerdict verdict = checkTrace(trace, "b4.ndjson");
    EXPECT_FALSE(verdict.divergence.has_value()) << divergenceText(*verdict.divergence, "b4.ndjson");
    EXPECT_EQ(verdict.observations_checked, verdict.steps + 1);
  }
}

TEST(TraceFields, APointerThatNamesNoMemberInAnyStateIsAnError) {
  const Scenario b4 = readScenario("appendix_b4.scenario");
  for (const std::string field : {"/zookeeper/topics/0/states/0/bogus", "/zookeper", "/zookeeper/topics/0/states/9"}) {
    SCOPED_TRACE(field);
    try {
      (void)writeTrace(b4.config, b4.steps, {{"/zookeeper/controller", field}, false, true});
      ADD_FAILURE() << "no error";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind("field \"" + field + "\" names no member of the observation", 0), 0u)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace kcspec::conformance
