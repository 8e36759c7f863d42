// `kcspec check-trace`, `kcspec trace` and `kcspec itf` (docs/trace-format.md): traces written from
// the Appendix B scenarios conform; the same traces with one observed value changed, or one
// action the spec does not enable there, diverge at that line and member; malformed lines are
// bad input naming their line; the ITF export is well-formed ITF.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "proofs/conformance/trace_checker.hpp"
#include "proofs/conformance/trace_writer.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "spec/vocabulary/text_error.hpp"
#include "spec/vocabulary/trace_text.hpp"
#include "trace_test_files.hpp"

namespace kcspec::conformance {
namespace {

using Json = nlohmann::ordered_json;

const std::filesystem::path kSource = std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests";

std::vector<std::filesystem::path> appendixBScenarios() {
  std::vector<std::filesystem::path> out{kSource / "cli" / "appendix_b1.scenario"};
  for (const auto& entry : std::filesystem::directory_iterator(kSource / "scenarios")) {
    if (entry.path().filename().string().starts_with("appendix_b") && entry.path().extension() == ".scenario") {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

using test::joinLines;
using test::readScenario;
using test::splitLines;

// The B.2 trace with the partition-state znode and /controller observed.
std::string appendixB2Trace() {
  const Scenario b2 = readScenario(kSource / "scenarios" / "appendix_b2.scenario");
  return writeTrace(b2.config, b2.steps, {{"/zookeeper/controller", "/zookeeper/topics/0/states/0"}, false, true});
}

// --- traces that conform -------------------------------------------------------------------------

TEST(CheckTrace, TracesWrittenFromAppendixBConform) {
  const std::vector<std::filesystem::path> scenarios = appendixBScenarios();
  ASSERT_EQ(scenarios.size(), 4u);
  for (const auto& path : scenarios) {
    SCOPED_TRACE(path.string());
    const Scenario scenario = readScenario(path);
    for (const TraceWriteOptions& options :
         {TraceWriteOptions{}, TraceWriteOptions{{}, true, true}, TraceWriteOptions{{}, false, false},
          TraceWriteOptions{{"/zookeeper", "/brokers/2/controller/context"}, false, true}}) {
      const std::string trace = writeTrace(scenario.config, scenario.steps, options);
      EXPECT_EQ(splitLines(trace).size(), scenario.steps.size() + 1);
      const TraceVerdict verdict = checkTrace(trace, "b.ndjson");
      EXPECT_FALSE(verdict.divergence.has_value()) << divergenceText(*verdict.divergence, "b.ndjson");
      EXPECT_EQ(verdict.steps, static_cast<int>(scenario.steps.size()));
      EXPECT_EQ(verdict.observations_checked, options.observations ? verdict.steps + 1 : 0);
      EXPECT_EQ(verdict.config_name, scenario.config.name);
    }
  }
}

TEST(CheckTrace, PresetHeaderAndBlankLines) {
  const TraceVerdict verdict = checkTrace(
      "\n{\"kcspec-trace\":1,\"preset\":\"default\",\"meta\":{\"recorder\":\"x\"}}\r\n\n"
      "{\"action\":\"elect-controller 1\",\"observation\":{\"zookeeper\":{\"controller\":1}}}\n",
      "p.ndjson");
  EXPECT_FALSE(verdict.divergence.has_value());
  EXPECT_EQ(verdict.steps, 1);
  EXPECT_EQ(verdict.observations_checked, 1);
}

// --- traces that diverge at a known line ---------------------------------------------------------

TEST(CheckTrace, ChangedObservedValueDivergesAtItsLineAndMember) {
  std::vector<std::string> lines = splitLines(appendixB2Trace());
  ASSERT_EQ(lines.size(), 16u);  // header + 15 steps; the last is B.2's offline election
  const std::string elected = "\"leader\":2,";
  ASSERT_NE(lines[15].find(elected), std::string::npos) << lines[15];
  lines[15].replace(lines[15].find(elected), elected.size(), "\"leader\":3,");
  const TraceVerdict verdict = checkTrace(joinLines(lines), "b2.ndjson");
  ASSERT_TRUE(verdict.divergence.has_value());
  const TraceDivergence& d = *verdict.divergence;
  EXPECT_EQ(d.line, 16);
  EXPECT_EQ(d.pointer, "/observation/zookeeper/topics/0/states/0/leader");
  EXPECT_EQ(d.expected, Json(2));
  EXPECT_EQ(d.actual, Json(3));
  EXPECT_EQ(d.action, "process-event 2");
  EXPECT_EQ(verdict.steps, 15);
  EXPECT_EQ(divergenceText(d, "b2.ndjson"),
            "b2.ndjson:16: /observation/zookeeper/topics/0/states/0/leader: spec has 2, trace has 3 (after process-event 2)");
}

TEST(CheckTrace, FirstDivergenceWinsEvenBeforeLaterOnes) {
  std::vector<std::string> lines = splitLines(appendixB2Trace());
  // Line 5 (after TopicChange): the ISR; line 16: the leader. Only line 5 is reported.
  const std::string isr = "\"isr\":[1,2,3]";
  ASSERT_NE(lines[4].find(isr), std::string::npos) << lines[4];
  lines[4].replace(lines[4].find(isr), isr.size(), "\"isr\":[1,2]");
  ASSERT_NE(lines[15].find("\"leader\":2,"), std::string::npos) << lines[15];
  lines[15].replace(lines[15].find("\"leader\":2,"), 11, "\"leader\":3,");
  const TraceVerdict verdict = checkTrace(joinLines(lines), "b2.ndjson");
  ASSERT_TRUE(verdict.divergence.has_value());
  EXPECT_EQ(verdict.divergence->line, 5);
  EXPECT_EQ(verdict.divergence->pointer, "/observation/zookeeper/topics/0/states/0/isr");
  EXPECT_EQ(verdict.divergence->expected, Json::parse("[1,2,3]"));
}

TEST(CheckTrace, ActionNotEnabledDivergesAtItsLine) {
  std::vector<std::string> lines = splitLines(appendixB2Trace());
  // B.2's configuration allows one crash: after broker 1's, a second crash (of broker 2) is not enabled.
  ASSERT_NE(lines[14].find("\"crash 1\""), std::string::npos) << lines[14];
  lines.insert(lines.begin() + 15, "{\"action\":\"crash 2\"}");
  const TraceVerdict verdict = checkTrace(joinLines(lines), "b2.ndjson");
  ASSERT_TRUE(verdict.divergence.has_value());
  const TraceDivergence& d = *verdict.divergence;
  EXPECT_EQ(d.line, 16);
  EXPECT_EQ(d.pointer, "/action");
  EXPECT_EQ(d.actual, Json("crash 2"));
  ASSERT_TRUE(d.expected.is_array());
  std::set<std::string> enabled;
  for (const Json& a : d.expected) enabled.insert(a.get<std::string>());
  EXPECT_EQ(enabled.count("process-event 2"), 1u);  // BrokerChange is queued
  EXPECT_EQ(enabled.count("crash 2"), 0u);
  EXPECT_NE(divergenceText(d, "b2.ndjson").find("b2.ndjson:16: /action: not enabled in the spec here: crash 2"),
            std::string::npos);
}

TEST(CheckTrace, HeaderObservationIsCheckedAgainstTheInitialState) {
  const TraceVerdict verdict = checkTrace(
      "{\"kcspec-trace\":1,\"preset\":\"default\",\"observation\":{\"zookeeper\":{\"controller\":1}}}\n", "h.ndjson");
  ASSERT_TRUE(verdict.divergence.has_value());
  EXPECT_EQ(verdict.divergence->line, 1);
  EXPECT_EQ(verdict.divergence->pointer, "/observation/zookeeper/controller");
  EXPECT_EQ(verdict.divergence->expected, Json(-1));
}

TEST(FirstMismatch, PartialObjectsIndexedArraysAndWholeArrays) {
  const Json full = Json::parse(R"({"a":{"b":1,"c":[{"x":1,"y":2},{"x":3,"y":4}]},"d":null})");
  EXPECT_FALSE(firstMismatch(full, Json::parse(R"({})")).has_value());
  EXPECT_FALSE(firstMismatch(full, Json::parse(R"({"a":{"c":{"1":{"y":4}}},"d":null})")).has_value());
  EXPECT_FALSE(firstMismatch(full, Json::parse(R"({"a":{"c":[{"x":1},{}]}})")).has_value());
  auto m = firstMismatch(full, Json::parse(R"({"a":{"c":{"1":{"y":5}}}})"));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->pointer, "/a/c/1/y");
  EXPECT_EQ(m->expected, Json(4));
  m = firstMismatch(full, Json::parse(R"({"a":{"c":[{"x":1}]}})"));  // length differs
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->pointer, "/a/c");
  m = firstMismatch(full, Json::parse(R"({"a":{"e":1}})"));  // no such member
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->pointer, "/a/e");
  EXPECT_TRUE(m->expected.is_null());
}

// --- malformed input: file:line and exit 2 (TextError) -------------------------------------------

TEST(ParseTraceLine, WhatEachLineHolds) {
  EXPECT_TRUE(std::holds_alternative<TraceBlank>(parseTraceLine("  \t\r")));
  const TraceLine header = parseTraceLine(R"({"kcspec-trace":1,"config":"brokers 1\n"})");
  ASSERT_TRUE(std::holds_alternative<TraceHeader>(header));
  EXPECT_EQ(std::get<TraceHeader>(header).config_text, "brokers 1\n");
  const TraceLine step = parseTraceLine("{\"action\":\"crash 1\",\"observation\":{\"brokers\":{\"1\":{\"alive\":false}}}}\r");
  ASSERT_TRUE(std::holds_alternative<TraceStep>(step));
  EXPECT_EQ(std::get<TraceStep>(step).action, "crash 1");
}

TEST(ParseTraceLine, ErrorsSayWhatIsWrong) {
  const auto error = [](std::string_view line) {
    const TraceLine parsed = parseTraceLine(line);
    return std::holds_alternative<TraceLineError>(parsed) ? std::get<TraceLineError>(parsed).message : std::string("(no error)");
  };
  EXPECT_NE(error("not json").find("malformed JSON"), std::string::npos);
  EXPECT_NE(error(R"({"action":"crash 1")").find("malformed JSON"), std::string::npos);
  EXPECT_NE(error("[1,2]").find("a trace line is a JSON object"), std::string::npos);
  EXPECT_NE(error(R"({"action":1})").find("\"action\" must be a string"), std::string::npos);
  EXPECT_NE(error(R"({"observation":{}})").find("a step needs \"action\""), std::string::npos);
  EXPECT_NE(error(R"({"action":"crash 1","observaton":{}})").find("unknown step member \"observaton\""), std::string::npos);
  EXPECT_NE(error(R"({"kcspec-trace":7,"preset":"default"})").find("unsupported trace format version 7"), std::string::npos);
  EXPECT_NE(error(R"({"kcspec-trace":0,"preset":"default"})").find("unsupported trace format version 0"), std::string::npos);
  EXPECT_NE(error(R"({"kcspec-trace":"1","preset":"default"})").find("must be an integer"), std::string::npos);
  EXPECT_NE(error(R"({"kcspec-trace":1})").find("exactly one of"), std::string::npos);
  EXPECT_NE(error(R"({"kcspec-trace":1,"preset":"default","config":"brokers 1"})").find("exactly one of"), std::string::npos);
  EXPECT_NE(error(R"({"action":"crash 1","observation":{"zookeeper":{"controler":1}}})").find("/zookeeper"),
            std::string::npos);
  EXPECT_NE(error(R"({"action":"crash 1","observation":{"brokers":{"9":{}}}})").find("/brokers"), std::string::npos);
  EXPECT_NE(error(std::string(100000, '[')).find("nested deeper"), std::string::npos);
  EXPECT_NE(error("{\"action\":\"\xff\"}").find("malformed JSON"), std::string::npos);
}

void expectBadInput(const std::string& text, int line, const std::string& message_part) {
  try {
    (void)checkTrace(text, "bad.ndjson");
    ADD_FAILURE() << "no TextError for: " << text;
  } catch (const TextError& e) {
    EXPECT_EQ(e.line, line) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.ndjson:" + std::to_string(line) + ": ", 0), 0u) << e.what();
    EXPECT_NE(e.message.find(message_part), std::string::npos) << e.what();
  }
}

TEST(CheckTrace, BadInputNamesTheLine) {
  const std::string header = "{\"kcspec-trace\":1,\"preset\":\"default\"}\n";
  expectBadInput(header + "{\"action\":\"elect-controller 1\"}\n{\"action\":\n", 3, "malformed JSON");
  expectBadInput("{\"kcspec-trace\":7,\"preset\":\"default\"}\n{\"action\":\"crash 1\"}\n", 1,
                 "unsupported trace format version 7");
  expectBadInput(header + "\n{\"action\":\"elect-controler 1\"}\n", 3, "unknown action");
  expectBadInput("{\"action\":\"crash 1\"}\n", 1, "the first line must be the header");
  expectBadInput(header + header, 2, "a second header");
  expectBadInput("{\"kcspec-trace\":1,\"preset\":\"huge\"}\n", 1, "unknown preset");
  expectBadInput("{\"kcspec-trace\":1,\"config\":\"brokers 1\\nbogus 2\\n\"}\n", 1, "in \"config\", line 2");
  expectBadInput("", 1, "no header");
}

// --- ITF -----------------------------------------------------------------------------------------

// Whether `value` is an ITF value (ADR-015): a boolean, string, integer, list, record, or one of
// {"#bigint":"…"}, {"#tup":[…]}, {"#set":[…]}, {"#map":[[k,v],…]}, {"#unserializable":"…"},
// a variant {"tag":…,"value":…}; never null, never a fraction. `where` names the offending value.
bool wellFormedItf(const Json& value, const std::string& where, std::string& problem) {
  const auto fail = [&](const std::string& why) {
    problem = where + ": " + why;
    return false;
  };
  if (value.is_boolean() || value.is_string() || value.is_number_integer()) return true;
  if (value.is_null()) return fail("null is not an ITF value");
  if (value.is_number()) return fail("not an integer");
  if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (!wellFormedItf(value[i], where + "/" + std::to_string(i), problem)) return false;
    }
    return true;
  }
  if (value.contains("#bigint")) {
    if (value.size() != 1 || !value["#bigint"].is_string()) return fail("#bigint takes one string");
    const std::string digits = value["#bigint"].get<std::string>();
    const std::size_t start = !digits.empty() && digits[0] == '-' ? 1 : 0;
    if (digits.size() == start || digits.find_first_not_of("0123456789", start) != std::string::npos) {
      return fail("#bigint \"" + digits + "\" is not a decimal integer");
    }
    return true;
  }
  for (const char* key : {"#tup", "#set"}) {
    if (!value.contains(key)) continue;
    if (value.size() != 1 || !value[key].is_array()) return fail(std::string(key) + " takes one array");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < value[key].size(); ++i) {
      if (!wellFormedItf(value[key][i], where + "/" + key + "/" + std::to_string(i), problem)) return false;
      if (std::string(key) == "#set" && !seen.insert(value[key][i].dump()).second) return fail("a set holds a duplicate");
    }
    return true;
  }
  if (value.contains("#map")) {
    if (value.size() != 1 || !value["#map"].is_array()) return fail("#map takes one array");
    std::set<std::string> keys;
    for (const Json& pair : value["#map"]) {
      if (!pair.is_array() || pair.size() != 2) return fail("a #map entry is a [key, value] pair");
      if (!wellFormedItf(pair[0], where + "/#map key", problem) || !wellFormedItf(pair[1], where + "/#map value", problem)) {
        return false;
      }
      if (!keys.insert(pair[0].dump()).second) return fail("a map holds a duplicate key");
    }
    return true;
  }
  if (value.contains("#unserializable")) return value.size() == 1 && value["#unserializable"].is_string();
  if (value.contains("tag")) {
    if (value.size() != 2 || !value["tag"].is_string() || !value.contains("value")) return fail("a variant is {tag, value}");
    return wellFormedItf(value["value"], where + "/value", problem);
  }
  for (const auto& [key, member] : value.items()) {
    if (!key.empty() && key[0] == '#') return fail("unknown ITF form \"" + key + "\"");
    if (!wellFormedItf(member, where + "/" + key, problem)) return false;
  }
  return true;
}

// The shape of an ITF value with map, set and list contents' shapes merged: a variable's shape
// must be the same in every state for a typed reader (Quint, Apalache).
std::string shape(const Json& value) {
  if (value.is_boolean()) return "bool";
  if (value.is_string()) return "str";
  if (value.is_array()) {
    std::set<std::string> inner;
    for (const Json& item : value) inner.insert(shape(item));
    return inner.size() <= 1 ? "list" : "list(mixed)";
  }
  if (value.contains("#bigint")) return "int";
  if (value.contains("#set")) return "set";
  if (value.contains("#map")) return "map";
  if (value.contains("tag")) return "variant";
  std::string out = "{";
  for (const auto& [key, member] : value.items()) out += key + ":" + shape(member) + ",";
  return out + "}";
}

TEST(Itf, AppendixBHistoriesAreWellFormedItf) {
  for (const auto& path : appendixBScenarios()) {
    SCOPED_TRACE(path.string());
    const Scenario scenario = readScenario(path);
    const Json itf = writeItf(scenario.config, scenario.steps, path.filename().string());
    // Round trip through text, as a reader sees it.
    const Json doc = Json::parse(itf.dump());
    ASSERT_TRUE(doc.is_object());
    ASSERT_TRUE(doc.contains("#meta") && doc["#meta"].is_object());
    EXPECT_EQ(doc["#meta"]["format"], "ITF");
    EXPECT_EQ(doc["#meta"]["source"], path.filename().string());
    ASSERT_TRUE(doc.contains("vars") && doc["vars"].is_array());
    std::set<std::string> vars;
    for (const Json& v : doc["vars"]) {
      ASSERT_TRUE(v.is_string());
      vars.insert(v.get<std::string>());
    }
    EXPECT_EQ(vars, (std::set<std::string>{"action", "zookeeper", "brokers"}));
    ASSERT_TRUE(doc.contains("states") && doc["states"].is_array());
    ASSERT_EQ(doc["states"].size(), scenario.steps.size() + 1);
    for (const auto& [key, member] : doc.items()) {
      EXPECT_TRUE(key == "#meta" || key == "vars" || key == "states" || key == "params" || key == "loop") << key;
    }
    std::map<std::string, std::string> shapes;
    for (std::size_t i = 0; i < doc["states"].size(); ++i) {
      const Json& state = doc["states"][i];
      ASSERT_TRUE(state.is_object());
      ASSERT_TRUE(state.contains("#meta"));
      EXPECT_EQ(state["#meta"]["index"], Json(i));
      std::set<std::string> keys;
      for (const auto& [key, member] : state.items()) {
        if (key == "#meta") continue;
        keys.insert(key);
        std::string problem;
        EXPECT_TRUE(wellFormedItf(member, "states/" + std::to_string(i) + "/" + key, problem)) << problem;
        const auto [it, inserted] = shapes.emplace(key, shape(member));
        EXPECT_EQ(it->second, shape(member)) << "the shape of " << key << " changes at state " << i;
      }
      EXPECT_EQ(keys, vars) << "state " << i << " does not assign exactly the vars";
      EXPECT_EQ(state["action"], i == 0 ? std::string("init") : printAction(scenario.config, scenario.steps[i - 1]));
    }
  }
}

TEST(Itf, EncodingsOfIdsSetsAndOptionals) {
  const Scenario b2 = readScenario(kSource / "scenarios" / "appendix_b2.scenario");
  const Json itf = writeItf(b2.config, b2.steps, "b2");
  const Json& last = itf["states"].back();
  // /controller is broker 2: an integer as #bigint.
  EXPECT_EQ(last["zookeeper"]["controller"], Json::parse(R"({"#bigint":"2"})"));
  // Brokers are a map keyed by #bigint ids; the live brokers of broker 2's metadata cache a set.
  const Json& brokers = last["brokers"]["#map"];
  const Json* broker2 = nullptr;
  for (const Json& pair : brokers) {
    if (pair[0] == Json::parse(R"({"#bigint":"2"})")) broker2 = &pair[1];
  }
  ASSERT_NE(broker2, nullptr);
  EXPECT_TRUE((*broker2)["metadata_live_brokers"].contains("#set"));
  // The controller context's partition t-0 (key (0, 0)) has its state as an option.
  const Json& partitions = (*broker2)["controller"]["context"]["partitions"]["#map"];
  bool found = false;
  for (const Json& pair : partitions) {
    if (pair[0] == Json::parse(R"({"#tup":[{"#bigint":"0"},{"#bigint":"0"}]})")) {
      found = true;
      EXPECT_EQ(pair[1]["state"], Json::parse(R"({"tag":"Some","value":"OnlinePartition"})"));
    }
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace kcspec::conformance
