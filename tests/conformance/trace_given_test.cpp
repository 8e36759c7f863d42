// Traces that start from a given world (docs/trace-format.md, version 2's "given"): `kcspec trace`
// writes a scenario's given world into the header and `kcspec check-trace` replays from it; a
// tampered step or given diverges; a given world no Kafka controller could hold is bad input at
// the header's line (as a scenario's `given json` is), unless it says "unchecked"; the member's
// mistakes name what is wrong; traces without a given are still version 1.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "proofs/conformance/trace_checker.hpp"
#include "proofs/conformance/trace_writer.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/observation_json.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "spec/vocabulary/text_error.hpp"
#include "spec/vocabulary/trace_text.hpp"
#include "trace_test_files.hpp"

namespace kcspec::conformance {
namespace {

using Json = nlohmann::ordered_json;
using test::joinLines;
using test::splitLines;

const std::filesystem::path kGivenScenario =
    std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests" / "conformance" / "given" / "controlled_shutdown_from_given.scenario";

Scenario givenScenario() {
  Scenario scenario = test::readScenario(kGivenScenario);
  EXPECT_TRUE(scenario.given.has_value());
  return scenario;
}

GivenStart startOf(const Scenario& scenario) { return GivenStart{scenario.given->world, scenario.given->unchecked}; }

std::string givenTrace(const TraceWriteOptions& options = {}) {
  const Scenario scenario = givenScenario();
  return writeTrace(scenario.config, scenario.steps, options, startOf(scenario));
}

// The trace's lines as JSON (blank lines kept out).
std::vector<Json> jsonLines(const std::string& trace) {
  std::vector<Json> out;
  for (const std::string& line : splitLines(trace)) out.push_back(Json::parse(line));
  return out;
}

std::string dumpLines(const std::vector<Json>& lines) {
  std::vector<std::string> text;
  for (const Json& line : lines) text.push_back(line.dump());
  return joinLines(text);
}

TextError badInput(const std::string& text) {
  try {
    (void)checkTrace(text, "given.ndjson");
  } catch (const TextError& e) {
    return e;
  }
  ADD_FAILURE() << "no TextError for: " << text.substr(0, 300);
  return TextError("given.ndjson", 0, "(none)");
}

// --- written from a given scenario, checked from its given world ---------------------------------

TEST(TraceFromGiven, TheHeaderRecordsTheGivenWorldInVersion2) {
  const Scenario scenario = givenScenario();
  const std::vector<Json> lines = jsonLines(givenTrace());
  ASSERT_EQ(lines.size(), scenario.steps.size() + 1);
  // Version 5 holds version 2's "given": the full form shows /feature (and topic ids, request versions).
  EXPECT_EQ(lines[0].at("kcspec-trace"), 5);
  const std::vector<Json> controller_only =
      jsonLines(writeTrace(scenario.config, scenario.steps, {.fields = {"/zookeeper/controller"}}, startOf(scenario)));
  EXPECT_EQ(controller_only[0].at("kcspec-trace"), 2) << "no request and no topic id in its observations: version 2 suffices";
  ASSERT_TRUE(lines[0].contains("given"));
  EXPECT_FALSE(lines[0].at("given").contains("unchecked"));  // written only when true
  // The world whole, as the scenario states it (the compact form: what it leaves out is default).
  EXPECT_TRUE(observationFromJson(lines[0].at("given").at("observation")) == scenario.given->world);
  // The header's observation is of the starting state: the given world, not the initial state.
  EXPECT_EQ(lines[0].at("observation").at("zookeeper").at("controller"), 0);
  EXPECT_NE(observationJson(scenario.given->world), observationJson(spec::initialState(scenario.config).world));
}

TEST(TraceFromGiven, ConformsFromTheGivenWorldInEveryWritingMode) {
  const Scenario scenario = givenScenario();
  for (const TraceWriteOptions& options :
       {TraceWriteOptions{}, TraceWriteOptions{{}, true, true}, TraceWriteOptions{{}, false, false},
        TraceWriteOptions{{"/zookeeper/topics/0/states", "/brokers/2/replicas"}, false, true}}) {
    const TraceVerdict verdict = checkTrace(givenTrace(options), "given.ndjson");
    EXPECT_FALSE(verdict.divergence.has_value())
        << divergenceText(verdict.divergence.value_or(TraceDivergence{}), "given.ndjson");
    EXPECT_TRUE(verdict.from_given);
    EXPECT_TRUE(verdict.given_breaks.empty());
    EXPECT_EQ(verdict.steps, static_cast<int>(scenario.steps.size()));
    EXPECT_EQ(verdict.observations_checked, options.observations ? static_cast<int>(scenario.steps.size()) + 1 : 0);
  }
}

TEST(TraceFromGiven, WithoutTheGivenTheSameStepsAreNotTheSpecs) {
  // The given world is what makes the history possible: from the initial state (no controller,
  // no broker registered) the first action is not enabled.
  std::vector<Json> lines = jsonLines(givenTrace({{}, false, false}));
  lines[0].erase("given");
  lines[0]["kcspec-trace"] = 1;
  const TraceVerdict verdict = checkTrace(dumpLines(lines), "given.ndjson");
  ASSERT_TRUE(verdict.divergence.has_value());
  EXPECT_EQ(verdict.divergence->line, 2);
  EXPECT_EQ(verdict.divergence->pointer, "/action");
  EXPECT_FALSE(verdict.from_given);
}

TEST(TraceFromGiven, ATamperedStepDivergesAtItsLine) {
  const std::string trace = givenTrace();
  std::vector<Json> lines = jsonLines(trace);
  // Line 3 is process-event 0: the controlled shutdown's election moves the leadership.
  ASSERT_EQ(lines[2].at("action"), "process-event 0");
  Json& leader = lines[2]["observation"]["zookeeper"]["topics"]["0"]["states"]["0"]["leader"];
  const Json spec_leader = leader;
  leader = 1;
  ASSERT_NE(spec_leader, leader);
  const TraceVerdict verdict = checkTrace(dumpLines(lines), "given.ndjson");
  ASSERT_TRUE(verdict.divergence.has_value());
  EXPECT_EQ(verdict.divergence->line, 3);
  EXPECT_EQ(verdict.divergence->pointer, "/observation/zookeeper/topics/0/states/0/leader");
  EXPECT_EQ(verdict.divergence->expected, spec_leader);
  EXPECT_EQ(verdict.divergence->actual, Json(1));
}

TEST(TraceFromGiven, ATamperedGivenWorldIsWhereTheReplayStarts) {
  // The given's leader moved to 2 (still a replica in the ISR: a world a controller could hold):
  // the header's observation, written for the original world, no longer matches it.
  std::vector<Json> lines = jsonLines(givenTrace());
  lines[0]["given"]["observation"]["zookeeper"]["topics"]["0"]["states"]["0"]["leader"] = 2;
  const TraceVerdict verdict = checkTrace(dumpLines(lines), "given.ndjson");
  ASSERT_TRUE(verdict.divergence.has_value());
  EXPECT_EQ(verdict.divergence->line, 1);
  EXPECT_EQ(verdict.divergence->pointer, "/observation/zookeeper/topics/0/states/0/leader");
  EXPECT_EQ(verdict.divergence->expected, Json(2));  // the spec's: the given world's
  EXPECT_EQ(verdict.divergence->actual, Json(1));
  EXPECT_NE(divergenceText(*verdict.divergence, "given.ndjson").find("(the starting state)"), std::string::npos);
}

// --- a given world no Kafka controller could hold ------------------------------------------------

TEST(TraceFromGiven, AGivenThatBreaksARuleIsBadInputAtTheHeader) {
  std::vector<Json> lines = jsonLines(givenTrace({{}, false, false}));
  // Leader 0 is not one of t-0's replicas 1,2: G1.
  lines[0]["given"]["observation"]["zookeeper"]["topics"]["0"]["states"]["0"]["leader"] = 0;
  const TextError error = badInput(dumpLines(lines));
  EXPECT_EQ(error.line, 1);
  EXPECT_EQ(std::string(error.what()).rfind("given.ndjson:1: the given world breaks G1 (a partition's leader is one of its replicas)", 0), 0u)
      << error.what();
  EXPECT_NE(error.message.find("\"unchecked\":true"), std::string::npos) << error.what();

  // Stated "unchecked", it is checked from there, and the rules it breaks are reported.
  lines[0]["given"]["unchecked"] = true;
  lines.resize(1);  // the header only: no step is taken from a world the spec's code may not expect
  lines[0]["observation"] = Json::parse(R"({"zookeeper":{"topics":{"0":{"states":{"0":{"leader":0}}}}}})");
  const TraceVerdict verdict = checkTrace(dumpLines(lines), "given.ndjson");
  EXPECT_FALSE(verdict.divergence.has_value());
  EXPECT_EQ(verdict.observations_checked, 1);
  ASSERT_FALSE(verdict.given_breaks.empty());
  EXPECT_EQ(verdict.given_breaks.front().rfind("G1 (a partition's leader is one of its replicas): ", 0), 0u)
      << verdict.given_breaks.front();
}

TEST(TraceFromGiven, AGivenThatBreaksACatalogPropertyIsBadInput) {
  // No G rule is broken (no leader, an empty ISR), but S3 IsrNeverEmpty is: stated unchecked in the
  // scenario (replay would refuse it), written as checked into the trace.
  const Scenario scenario = parseScenario(R"(# kcspec scenario v1
name empty-isr
brokers 0 1 2
topic t
  partition 0 replicas 1,2
given unchecked
controller 0
broker 0 alive
broker 1 alive
partition t-0 leader none isr none
steps
)",
                                          "empty_isr.scenario");
  const std::string trace = writeTrace(scenario.config, {}, {{}, false, false}, GivenStart{scenario.given->world, false});
  const TextError error = badInput(trace);
  EXPECT_EQ(error.line, 1);
  EXPECT_NE(error.message.find("the given world breaks S3 (IsrNeverEmpty)"), std::string::npos) << error.what();

  const std::string unchecked = writeTrace(scenario.config, {}, {{}, false, true}, GivenStart{scenario.given->world, true});
  EXPECT_NE(splitLines(unchecked)[0].find("\"unchecked\":true"), std::string::npos);
  const TraceVerdict verdict = checkTrace(unchecked, "given.ndjson");
  EXPECT_FALSE(verdict.divergence.has_value());
  ASSERT_EQ(verdict.given_breaks.size(), 1u);
  EXPECT_EQ(verdict.given_breaks.front(), "S3 IsrNeverEmpty");
}

TEST(TraceFromGiven, AGivenOutsideTheConfigurationIsBadInput) {
  std::vector<Json> lines = jsonLines(givenTrace({{}, false, false}));
  lines[0]["given"]["observation"]["brokers"]["7"] = Json::parse(R"({"alive":true})");
  EXPECT_NE(badInput(dumpLines(lines)).message.find("broker 7 is not one of the configuration's brokers"),
            std::string::npos);
}

// --- the member's own mistakes: the line's parse error -------------------------------------------

std::string lineError(std::string_view line) {
  const TraceLine parsed = parseTraceLine(line);
  return std::holds_alternative<TraceLineError>(parsed) ? std::get<TraceLineError>(parsed).message
                                                        : std::string("(no error)");
}

TEST(TraceFromGiven, MalformedGivenMembersSayWhatIsWrong) {
  const std::string head = R"({"kcspec-trace":2,"preset":"default","given":)";
  EXPECT_EQ(lineError(head + "[]}"), "\"given\" must be an object {\"observation\":{…}}, not array");
  EXPECT_EQ(lineError(head + "{}}"), "\"given\" needs \"observation\": the world the steps start from");
  EXPECT_EQ(lineError(head + R"({"observation":3}})"), "\"given\" \"observation\" must be an object, not number");
  EXPECT_EQ(lineError(head + R"({"observation":{},"unchecked":"yes"}})"),
            "\"given\" \"unchecked\" must be true or false, not string");
  EXPECT_EQ(lineError(head + R"({"observation":{},"checked":true}})"),
            "unknown member \"checked\" of \"given\" (expected \"observation\", \"unchecked\")");
  EXPECT_EQ(lineError(head + R"({"observation":{"brokers":{"1":{"alive":"yes"}}}}})").rfind("\"given\" \"observation\" /brokers/1/alive: ", 0), 0u);
  // Whole, not partial: an array given by index is not an observation.
  EXPECT_EQ(lineError(head + R"({"observation":{"brokers":{"1":{"inbox":{"0":{"kind":"StopReplica"}}}}}}})")
                .rfind("\"given\" \"observation\" /brokers/1/inbox: ", 0),
            0u);
  // "given" is version 2's: a version-1 header with it is refused, not read as version 1.
  EXPECT_EQ(lineError(R"({"kcspec-trace":1,"preset":"default","given":{"observation":{}}})"),
            "\"given\" is a member of version 2 of the format: the header says \"kcspec-trace\":1");
  // And it round-trips through the printer.
  const TraceLine parsed = parseTraceLine(head + R"({"observation":{"zookeeper":{"controller":1}},"unchecked":true}})");
  ASSERT_TRUE(std::holds_alternative<TraceHeader>(parsed));
  const TraceHeader& header = std::get<TraceHeader>(parsed);
  ASSERT_TRUE(header.given.has_value());
  EXPECT_TRUE(header.given->unchecked);
  EXPECT_EQ(header.version, 2);
  EXPECT_EQ(printTraceHeader(header),
            R"({"kcspec-trace":2,"preset":"default","given":{"observation":{"zookeeper":{"controller":1}},"unchecked":true}})");
}

TEST(TraceFromGiven, TracesWithoutAGivenAreVersion1UnlessTheyShowRequestVersions) {
  const Scenario b3 = test::readScenario(std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests" / "scenarios" / "appendix_b3.scenario");
  // Observations that show neither a request nor a topic id: version 1.
  EXPECT_EQ(jsonLines(writeTrace(b3.config, b3.steps, {.fields = {"/zookeeper/controller"}}))[0].at("kcspec-trace"), 1);
  EXPECT_EQ(jsonLines(writeTrace(b3.config, b3.steps, {.observations = false}))[0].at("kcspec-trace"), 1);
  // A 3.8-IV0 configuration's topics have topic ids: ZooKeeper's topics: version 4.
  EXPECT_EQ(jsonLines(writeTrace(b3.config, b3.steps, {.fields = {"/zookeeper/topics"}}))[0].at("kcspec-trace"), 4);
  // /feature, which every failover writes, in all of ZooKeeper and in the compact form: version 5.
  EXPECT_EQ(jsonLines(writeTrace(b3.config, b3.steps, {.fields = {"/zookeeper"}}))[0].at("kcspec-trace"), 5);
  EXPECT_EQ(jsonLines(writeTrace(b3.config, b3.steps, {.fields = {"/zookeeper/feature"}}))[0].at("kcspec-trace"), 5);
  EXPECT_EQ(jsonLines(writeTrace(b3.config, b3.steps, {.compact = true}))[0].at("kcspec-trace"), 5);
  Config before_ids = b3.config;
  before_ids.inter_broker_protocol_version = MetadataVersion::IBP_2_7_IV2;
  EXPECT_EQ(jsonLines(writeTrace(before_ids, b3.steps, {.fields = {"/zookeeper/topics"}}))[0].at("kcspec-trace"), 1)
      << "no topic id below 2.8-IV0";
  // The full form writes every request's "version", the topic ids and /feature: version 5.
  const std::vector<Json> lines = jsonLines(writeTrace(b3.config, b3.steps, {}));
  EXPECT_EQ(lines[0].at("kcspec-trace"), 5);
  EXPECT_EQ(lines.back().at("observation").at("zookeeper").at("feature"), Json::parse(R"({"status":"enabled","version":2})"));
  EXPECT_EQ(lines[1].at("observation").at("brokers").at("1").at("inbox").at(0).at("version"), 8);
  EXPECT_FALSE(lines[0].contains("given"));
  const TraceVerdict verdict = checkTrace(writeTrace(b3.config, b3.steps, {}), "b3.ndjson");
  EXPECT_FALSE(verdict.divergence.has_value());
  EXPECT_FALSE(verdict.from_given);
}

// --- ITF -----------------------------------------------------------------------------------------

TEST(TraceFromGiven, ItfStartsAtTheGivenWorld) {
  const Scenario scenario = givenScenario();
  const Json itf = writeItf(scenario.config, scenario.steps, "given.scenario", startOf(scenario));
  const Json& states = itf.at("states");
  ASSERT_EQ(states.size(), scenario.steps.size() + 1);
  EXPECT_EQ(states[0].at("action"), "given");
  EXPECT_EQ(states[0].at("zookeeper").at("controller"), Json::parse(R"({"#bigint":"0"})"));
  EXPECT_EQ(states[1].at("action"), printAction(scenario.config, scenario.steps[0]));
  EXPECT_NE(itf.at("#meta").at("description").get<std::string>().find("from a given world"), std::string::npos);
  // The streamed document is the same but for the description.
  std::string streamed;
  ItfStreamWriter writer(scenario.config, "given.scenario", [&](std::string_view text) { streamed += text; },
                         startOf(scenario));
  for (const Action& action : scenario.steps) writer.step(action);
  writer.finish();
  EXPECT_EQ(Json::parse(streamed).at("states"), states);
}

}  // namespace
}  // namespace kcspec::conformance
