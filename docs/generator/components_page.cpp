#include "docs/generator/components_page.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

#include "docs/generator/markdown.hpp"
#include "proofs/agreement/step_record.hpp"
#include "spec/rules/components.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::docs {
namespace {

// ---- what the page says of each method (the Kafka side; every example below is a run)

struct MethodDoc {
  ComponentMethod method;
  std::string_view kafka;    // the class and method
  std::string_view summary;  // what it does, in a sentence or two
};

constexpr MethodDoc kMethodDocs[] = {
    {ComponentMethod::PartitionStateMachineHandleStateChanges,
     "`kafka.controller.ZkPartitionStateMachine.handleStateChanges(partitions, targetState, "
     "partitionLeaderElectionStrategyOpt)`",
     "Moves each partition to the target state where Kafka's valid-previous-states table allows it "
     "([PartitionState](partition-states.md)): initializes a new partition's leadership, elects a leader under the "
     "strategy given, or changes the controller's context only; a move the table does not allow is logged and "
     "skipped."},
    {ComponentMethod::ReplicaStateMachineHandleStateChanges,
     "`kafka.controller.ZkReplicaStateMachine.handleStateChanges(replicas, targetState)`",
     "Moves each replica to the target state where Kafka's valid-previous-states table allows it "
     "([ReplicaState](replica-states.md)), with the requests and ZooKeeper writes the move makes; a move the table "
     "does not allow is logged and skipped."},
    {ComponentMethod::TopicDeletionManagerInit,
     "`kafka.controller.TopicDeletionManager.init(initialTopicsToBeDeleted, initialTopicsIneligibleForDeletion)`",
     "Queues the topics for deletion in the controller's context and marks the ineligible ones among them, as a "
     "controller does when it starts; with `delete.topic.enable` false it removes their `/admin/delete_topics` "
     "znodes instead."},
    {ComponentMethod::TopicDeletionManagerTryTopicDeletion, "`kafka.controller.TopicDeletionManager.tryTopicDeletion()`",
     "For each topic queued for deletion: completes it when every replica is deleted, retries the replicas that "
     "failed, and starts the deletion of a topic that is eligible."},
    {ComponentMethod::TopicDeletionManagerEnqueueTopicsForDeletion,
     "`kafka.controller.TopicDeletionManager.enqueueTopicsForDeletion(topics)`",
     "Queues the topics for deletion, then resumes deletions (`tryTopicDeletion`)."},
    {ComponentMethod::TopicDeletionManagerResumeDeletionForTopics,
     "`kafka.controller.TopicDeletionManager.resumeDeletionForTopics(topics)`",
     "Makes the queued topics among them eligible for deletion again and resumes deletions."},
    {ComponentMethod::TopicDeletionManagerFailReplicaDeletion,
     "`kafka.controller.TopicDeletionManager.failReplicaDeletion(replicas)`",
     "Moves the replicas of queued topics to ReplicaDeletionIneligible, marks their topics ineligible for deletion "
     "and resumes deletions."},
    {ComponentMethod::TopicDeletionManagerCompleteReplicaDeletion,
     "`kafka.controller.TopicDeletionManager.completeReplicaDeletion(replicas)`",
     "Moves the replicas of queued topics to ReplicaDeletionSuccessful and resumes deletions."},
    {ComponentMethod::TopicDeletionManagerMarkTopicIneligibleForDeletion,
     "`kafka.controller.TopicDeletionManager.markTopicIneligibleForDeletion(topics, reason)`",
     "Marks the queued topics among them ineligible for deletion."},
    {ComponentMethod::TopicDeletionManagerIsTopicQueuedUpForDeletion,
     "`kafka.controller.TopicDeletionManager.isTopicQueuedUpForDeletion(topic)`",
     "Answers whether the topic is queued for deletion (false whenever `delete.topic.enable` is false)."},
    {ComponentMethod::ElectionAlgorithm,
     "`kafka.controller.PartitionLeaderElectionAlgorithms`: `offlinePartitionLeaderElection`, "
     "`reassignPartitionLeaderElection`, `preferredReplicaPartitionLeaderElection`, "
     "`controlledShutdownPartitionLeaderElection`",
     "The four election rules on the values given — no world, no controller — answering the leader or none. Their "
     "decision tables: [the four leader elections](elections.md)."},
    {ComponentMethod::ElectionLeaderFor,
     "`kafka.controller.Election`: `leaderForOffline`, `leaderForReassign`, `leaderForPreferredReplica`, "
     "`leaderForControlledShutdown`",
     "The elections as the partition state machine calls them, on each partition's state znode and the controller's "
     "context: answers each partition's new LeaderAndIsr and who the LeaderAndIsr request would go to, and changes "
     "nothing."},
    {ComponentMethod::RequestBatchSend,
     "`kafka.controller.ControllerBrokerRequestBatch`: `newBatch()`, each entry's `addLeaderAndIsrRequestForBrokers`, "
     "`addStopReplicaRequestForBrokers` or `addUpdateMetadataRequestForBrokers` in order, then "
     "`sendRequestsToBrokers(controllerEpoch)`",
     "On the controller's own request batch; a LeaderAndIsr entry takes the context's cached leadership and full "
     "assignment, and throws before anything is added for a partition with none."},
    {ComponentMethod::ControllerContextQuery, "`kafka.controller.ControllerContext`'s getters (kafka.md §5.1–§5.3)",
     "Each answers its value and changes nothing."},
};
static_assert(std::size(kMethodDocs) == std::size(kComponentMethods), "a page text for every ComponentMethod");

const MethodDoc& docOf(ComponentMethod method) {
  for (const MethodDoc& doc : kMethodDocs) {
    if (doc.method == method) return doc;
  }
  throw std::logic_error("components page: no text for a component method");
}

// ---- the examples within a section: a method, or one algorithm, entry kind or getter of it

constexpr BatchEntry::Kind kEntryKinds[] = {BatchEntry::Kind::LeaderAndIsr, BatchEntry::Kind::StopReplica,
                                             BatchEntry::Kind::UpdateMetadata};
constexpr ElectionKind kElectionKinds[] = {ElectionKind::Offline, ElectionKind::Reassign, ElectionKind::PreferredReplica,
                                           ElectionKind::ControlledShutdown};

using ExampleKey = std::pair<ComponentMethod, int>;

// The keys a call is an example of: its method, and for elect on values its algorithm, for
// request-batch send each entry kind it has, for controller-context its getter.
std::vector<ExampleKey> keysOf(const ComponentCall& call) {
  switch (call.method) {
    case ComponentMethod::ElectionAlgorithm:
      return {{call.method, static_cast<int>(call.election.value_or(ElectionKind::Offline))}};
    case ComponentMethod::RequestBatchSend: {
      std::vector<ExampleKey> keys;
      for (const BatchEntry& entry : call.batch) {
        const ExampleKey key{call.method, static_cast<int>(entry.kind)};
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
      }
      return keys;
    }
    case ComponentMethod::ControllerContextQuery: return {{call.method, static_cast<int>(call.query)}};
    default: return {{call.method, 0}};
  }
}

std::string camelCase(std::string_view kebab) {
  std::string out;
  bool upper = false;
  for (char c : kebab) {
    if (c == '-') {
      upper = true;
    } else {
      out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      upper = false;
    }
  }
  return out;
}

std::string_view electionWord(ElectionKind kind) {
  switch (kind) {
    case ElectionKind::Offline: return "offline";
    case ElectionKind::Reassign: return "reassign";
    case ElectionKind::PreferredReplica: return "preferred";
    case ElectionKind::ControlledShutdown: return "controlled-shutdown";
  }
  return "?";
}

std::string_view algorithmName(ElectionKind kind) {
  switch (kind) {
    case ElectionKind::Offline: return "offlinePartitionLeaderElection";
    case ElectionKind::Reassign: return "reassignPartitionLeaderElection";
    case ElectionKind::PreferredReplica: return "preferredReplicaPartitionLeaderElection";
    case ElectionKind::ControlledShutdown: return "controlledShutdownPartitionLeaderElection";
  }
  return "?";
}

std::string_view entryWord(BatchEntry::Kind kind) {
  switch (kind) {
    case BatchEntry::Kind::LeaderAndIsr: return "leader-and-isr";
    case BatchEntry::Kind::StopReplica: return "stop-replica";
    case BatchEntry::Kind::UpdateMetadata: return "update-metadata";
  }
  return "?";
}

std::string_view entryMethod(BatchEntry::Kind kind) {
  switch (kind) {
    case BatchEntry::Kind::LeaderAndIsr: return "addLeaderAndIsrRequestForBrokers";
    case BatchEntry::Kind::StopReplica: return "addStopReplicaRequestForBrokers";
    case BatchEntry::Kind::UpdateMetadata: return "addUpdateMetadataRequestForBrokers";
  }
  return "?";
}

// ---- running the suite on the spec

struct SuiteScenario {
  std::string file;   // as the page names it: tests/components/<name>
  std::string about;  // the comment lines after the header
  std::string world;  // the configuration and given section as the file states them (statedWorld)
  Scenario scenario;
};

// One component action as the spec ran it, in its place in its scenario.
struct CallRun {
  const SuiteScenario* source = nullptr;
  int line = 0;
  std::string text;
  std::vector<std::string> before;  // the steps and component actions run before it, "line N: …"
  bool on_starting_world = false;    // the world it was called on is the scenario's starting one
  std::vector<Change> changes;
  std::vector<std::string> state_changes;
  ComponentResult result;

  bool changesNothing() const { return changes.empty() && state_changes.empty(); }
};

// The comment lines right after the header: what the scenario is about.
std::string aboutOf(std::string_view text) {
  std::string out;
  std::size_t at = text.find('\n');
  while (at != std::string_view::npos && at + 1 < text.size() && text[at + 1] == '#') {
    const std::size_t end = text.find('\n', at + 1);
    std::string line(text.substr(at + 2, end == std::string_view::npos ? std::string_view::npos : end - at - 2));
    if (!line.empty() && line.front() == ' ') line.erase(0, 1);
    out += (out.empty() ? "" : " ") + line;
    at = end;
  }
  return out;
}

// A component action's text without the `=> <result>` its scenario may expect: the page shows
// the result the run came to.
std::string withoutExpectation(std::string text) {
  const std::size_t at = text.find(" => ");
  if (at != std::string::npos) text.erase(at);
  return text;
}

// Runs `source` as `kcspec suite` does on the spec (from its given world, every step and component
// action in file order), keeping the first run of each example key not yet in `firsts`. Throws
// when a step is not enabled or a call has no active controller before the scenario's end.
void runScenario(const SuiteScenario& source, std::map<ExampleKey, CallRun>& firsts) {
  const Scenario& scenario = source.scenario;
  const Config& config = scenario.config;
  spec::ClusterState state =
      scenario.given ? spec::givenState(config, scenario.given->world) : spec::initialState(config);
  const Observation starting = state.world;
  std::vector<std::string> before;
  const auto fail = [&](int line, std::string_view what) {
    throw std::logic_error(fmt::format("docs/spec/components.md: {}:{}: {}", source.file, line, what));
  };
  forEachStep(
      scenario,
      [&](std::size_t i) {
        const Action& action = scenario.steps[i];
        const int line = scenario.step_lines[i];
        const std::string text = printAction(config, action);
        if (!spec::isEnabled(config, state, action)) fail(line, "action not enabled in this state: " + text);
        state = spec::next(config, state, action);
        before.push_back(fmt::format("line {}: {}", line, text));
        return true;
      },
      [&](const Scenario::Call& call) {
        const std::string text = withoutExpectation(printComponentCall(config, call.call));
        if (!spec::componentCallPossible(state, call.call)) fail(call.line, "no active controller to call: " + text);
        CallRun run{.source = &source, .line = call.line, .text = text, .before = before,
                    .on_starting_world = state.world == starting};
        spec::RecordingObserver observer;
        spec::ClusterState after = state;
        run.result = spec::callComponent(config, after, call.call, observer);
        run.changes = diffObservations(config, state.world, after.world);
        for (const spec::StateChangeRecord& r : observer.record.state_changes) {
          run.state_changes.push_back(agreement::stateChangeText(config, r));
        }
        state = std::move(after);
        before.push_back(fmt::format("line {}: {}", call.line, text));
        for (const ExampleKey& key : keysOf(call.call)) firsts.try_emplace(key, run);
        return true;
      });
}

// ---- rendering

std::string answerText(const Config& config, const ComponentResult& result) {
  std::string out;
  if (result.answer.kind != ComponentAnswer::Kind::None) out = printComponentAnswer(config, result.answer);
  if (result.exception != ComponentException::None) {
    out += fmt::format("{}throws {}", out.empty() ? "" : "; ", componentExceptionName(result.exception));
  }
  return out.empty() ? "—" : out;
}

std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// The scenario's file from after its header and the comment lines that follow it up to `steps`:
// the configuration and the given section, as the file states them.
std::string statedWorld(std::string_view text) {
  std::string out;
  bool in_header = true;
  std::size_t start = 0;
  for (int line = 1; start < text.size(); ++line) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view content = text.substr(start, end - start);
    start = end + 1;
    const auto first = content.find_first_not_of(" \t\r");
    const std::string_view trimmed =
        first == std::string_view::npos ? std::string_view() : content.substr(first, content.find_last_not_of(" \t\r") - first + 1);
    if (line == 1 || (in_header && trimmed.starts_with("#"))) continue;
    in_header = false;
    if (trimmed == "steps") break;
    out += std::string(content) + "\n";
  }
  while (out.ends_with("\n\n")) out.pop_back();
  return out;
}

std::string worldText(const SuiteScenario& source) {
  std::string md = fmt::format("`{}`{}\n\n", source.file,
                               source.about.empty() ? std::string() : fmt::format(": *{}*", source.about));
  md += source.scenario.given ? "The world the scenario starts from, as its file states it (the configuration and the "
                                "`given` section):\n\n"
                              : "The scenario's configuration (it has no `given` section: it starts from the "
                                "configuration's initial state):\n\n";
  md += "```text\n" + source.world + "```\n\n";
  return md;
}

// What a call did, as `kcspec replay` prints it under the call.
std::string didText(const CallRun& run) {
  const Config& config = run.source->scenario.config;
  std::string did = renderChangesText(run.changes);
  for (const std::string& change : run.state_changes) did += "  STATE CHANGE " + change + "\n";
  if (run.result.answer.kind != ComponentAnswer::Kind::None) {
    did += "  ANSWER " + printComponentAnswer(config, run.result.answer) + "\n";
  }
  if (run.result.exception != ComponentException::None) {
    did += fmt::format("  THROWS {}\n", componentExceptionName(run.result.exception));
  }
  return did.empty() ? "  (nothing: no change, no state change, no answer, no exception)\n" : did;
}

// `shown`: the scenario whose world the section showed last (updated); the same one is not shown
// again.
std::string fullExample(const CallRun& run, std::string_view what, const SuiteScenario*& shown) {
  std::string md;
  if (shown == run.source) {
    md = fmt::format("The first {} in the built-in suite is at line {} of the same scenario, `{}`.\n\n", what,
                     run.line, run.source->file);
  } else {
    md = fmt::format("The first {} in the built-in suite is at line {} of {}", what, run.line, worldText(*run.source));
    shown = run.source;
  }
  if (run.before.empty()) {
    md += "Nothing runs before it: it is the scenario's first step.\n\n";
  } else {
    std::string lines;
    for (const std::string& line : run.before) lines += line + "\n";
    md += fmt::format("Run first, the scenario's steps and component actions above it ({}):\n\n```text\n{}```\n\n",
                      run.before.size(), lines);
  }
  md += fmt::format("The component action (line {}) and what it did:\n\n```text\n{}\n{}```\n\n", run.line, run.text,
                    didText(run));
  return md;
}

// A table of examples that each change nothing and are called on their scenario's starting
// world (shown once per scenario), with a full example for any that does not fit.
struct TableRow {
  std::string kafka;   // the first column
  const CallRun* run;  // null: the suite has none
  std::string missing;  // what to name when there is none
};

std::string exampleTable(const std::vector<TableRow>& rows, std::string_view first_column, std::string_view what) {
  std::string md;
  std::vector<std::string> missing;
  std::vector<const TableRow*> full;
  std::vector<const SuiteScenario*> sources;  // in the order of their first row
  for (const TableRow& row : rows) {
    if (!row.run) {
      missing.push_back(row.missing);
    } else if (!row.run->on_starting_world || !row.run->changesNothing()) {
      full.push_back(&row);
    } else if (std::find(sources.begin(), sources.end(), row.run->source) == sources.end()) {
      sources.push_back(row.run->source);
    }
  }
  for (const SuiteScenario* source : sources) {
    md += fmt::format("From {}", worldText(*source));
    md += fmt::format("Each row is the first call of its {} in the built-in suite, on that world (the steps and "
                      "component actions above it there change nothing); none changes anything:\n\n",
                      what);
    md += fmt::format("| {} | component action (line) | answer |\n|---|---|---|\n", first_column);
    for (const TableRow& row : rows) {
      if (!row.run || row.run->source != source || std::find(full.begin(), full.end(), &row) != full.end()) continue;
      md += fmt::format("| {} | `{}` ({}) | `{}` |\n", row.kafka, cell(row.run->text), row.run->line,
                        cell(answerText(source->scenario.config, row.run->result)));
    }
    md += "\n";
  }
  const SuiteScenario* shown = nullptr;
  for (const TableRow* row : full) {
    md += fmt::format("#### {}\n\n{}", row->kafka, fullExample(*row->run, fmt::format("call of this {}", what), shown));
  }
  if (!missing.empty()) {
    std::string names;
    for (const std::string& name : missing) names += (names.empty() ? "" : ", ") + name;
    md += fmt::format("{} the built-in suite (`{}/`) has no call of {}.\n\n", kNoComponentExample,
                      kComponentSuiteFolder, names);
  }
  return md;
}

const CallRun* find(const std::map<ExampleKey, CallRun>& firsts, ComponentMethod method, int sub) {
  const auto found = firsts.find({method, sub});
  return found == firsts.end() ? nullptr : &found->second;
}

std::string noExample(std::string_view what) {
  return fmt::format("{} the built-in suite (`{}/`) has no call of {}.\n\n", kNoComponentExample, kComponentSuiteFolder,
                     what);
}

std::string section(ComponentMethod method, const std::map<ExampleKey, CallRun>& firsts) {
  const MethodDoc& doc = docOf(method);
  std::string md = fmt::format("## {}\n\nKafka: {}.\n\n{}\n\n### Worked example\n\n", componentSectionTitle(method),
                               doc.kafka, doc.summary);
  switch (method) {
    case ComponentMethod::ElectionAlgorithm: {
      std::vector<TableRow> rows;
      for (ElectionKind kind : kElectionKinds) {
        rows.push_back({fmt::format("`{}`", algorithmName(kind)), find(firsts, method, static_cast<int>(kind)),
                        fmt::format("`elect {}` on values", electionWord(kind))});
      }
      md += exampleTable(rows, "algorithm", "algorithm");
      break;
    }
    case ComponentMethod::ControllerContextQuery: {
      std::vector<TableRow> rows;
      for (const ContextQueryInfo& info : kContextQueries) {
        rows.push_back({fmt::format("`{}`", camelCase(info.name)), find(firsts, method, static_cast<int>(info.query)),
                        fmt::format("`controller-context {}`", info.name)});
      }
      md += exampleTable(rows, "getter", "getter");
      break;
    }
    case ComponentMethod::RequestBatchSend: {
      const SuiteScenario* shown = nullptr;
      for (BatchEntry::Kind kind : kEntryKinds) {
        md += fmt::format("#### Entries `{}` — `{}`\n\n", entryWord(kind), entryMethod(kind));
        const CallRun* run = find(firsts, method, static_cast<int>(kind));
        const std::string what = fmt::format("`request-batch send` with an entry `{}`", entryWord(kind));
        md += run ? fullExample(*run, what, shown) : noExample(what);
      }
      break;
    }
    default: {
      const CallRun* run = find(firsts, method, 0);
      const SuiteScenario* shown = nullptr;
      md += run ? fullExample(*run, componentSectionTitle(method), shown) : noExample(componentSectionTitle(method));
      break;
    }
  }
  return md;
}

}  // namespace

std::string componentSectionTitle(ComponentMethod method) {
  switch (method) {
    case ComponentMethod::ElectionAlgorithm: return "`elect` on values";
    case ComponentMethod::ElectionLeaderFor: return "`elect … partitions`";
    case ComponentMethod::ControllerContextQuery: return "`controller-context` getters";
    default: return fmt::format("`{} {}`", componentName(method), methodName(method));
  }
}

std::string componentsPage(ScenarioFiles suite) {
  std::vector<SuiteScenario> scenarios;
  for (const auto& [name, text] : suite) {
    scenarios.push_back({fmt::format("{}/{}", kComponentSuiteFolder, name), aboutOf(text), statedWorld(text),
                         parseScenario(text, name)});
  }
  std::sort(scenarios.begin(), scenarios.end(),
            [](const SuiteScenario& a, const SuiteScenario& b) { return a.file < b.file; });
  std::map<ExampleKey, CallRun> firsts;
  for (const SuiteScenario& source : scenarios) runScenario(source, firsts);

  std::string md = "<!-- Generated by `kcspec docs` from docs/generator/components_page.cpp and runs of the spec on "
                   "tests/components/*.scenario. Do not edit by hand. -->\n";
  md += "# Component actions — a worked example per method\n\n";
  md += "[Spec index](index.md) · [scenarios: component actions](../scenarios.md#component-actions) · "
        "`spec/vocabulary/component_call.hpp`\n\n";
  md += fmt::format(
      "A component action calls one method of one component of the active controller on the world as it is, with "
      "no event around it ([docs/scenarios.md](../scenarios.md#component-actions) has their grammar). Each example "
      "below is produced by running the spec on the built-in component suite (`{0}/*.scenario`, what `kcspec "
      "suite` runs on the spec and the reference controller in lockstep): for each method, the first call of it in "
      "file-name order, after the scenario's given world and the steps and component actions above it — the "
      "example is what the suite runs. Under the component action, as `kcspec replay {0}/<file>` prints them: "
      "the observation's changes (`path: before -> after`, [observation paths](../world.md)), one `STATE CHANGE` "
      "line per state change the component asked for (applied, or logged and skipped with the reason), the `ANSWER` "
      "of a getter or an election and the exception that escaped (`THROWS`). A scenario's `=> <result>` (what the "
      "suite requires the call to come to) is left out: the page shows the result the run came to.\n\n",
      kComponentSuiteFolder);
  md += "| component action | Kafka |\n|---|---|\n";
  for (ComponentMethod method : kComponentMethods) {
    std::string title = componentSectionTitle(method);
    std::string plain = title;
    plain.erase(std::remove(plain.begin(), plain.end(), '`'), plain.end());
    md += fmt::format("| [{}](#{}) | {} |\n", title, headingId(plain), cell(docOf(method).kafka));
  }
  md += "\n";
  for (ComponentMethod method : kComponentMethods) md += section(method, firsts);
  return md;
}

}  // namespace kcspec::docs
