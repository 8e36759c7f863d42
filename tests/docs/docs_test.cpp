// The generated spec pages: every action and every controller event has a page whose worked
// example really shows it, generation is deterministic, the sequence-diagram API works.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "cli/component_suite.hpp"
#include "cli/docs_command.hpp"
#include "docs/generator/action_texts.hpp"
#include "docs/generator/components_page.hpp"
#include "docs/generator/examples.hpp"
#include "docs/generator/generated_pages.hpp"
#include "docs/generator/sequence_diagram.hpp"
#include "docs/generator/spec_pages.hpp"
#include "cli/files.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/action_text.hpp"

namespace kcspec::docs {
namespace {

// The diagrams as `kcspec docs` renders them (Graphviz).
std::vector<GeneratedFile> generatedNow() {
  return generateDocs([](const std::string& dot) { return cli::runFilter("dot", {"-Tsvg"}, dot); },
                      cli::componentSuite());
}

const std::map<std::string, std::string>& generated() {
  static const std::map<std::string, std::string> files = [] {
    std::map<std::string, std::string> out;
    for (const GeneratedFile& file : generatedNow()) out[file.path] = file.contents;
    return out;
  }();
  return files;
}

// The text of the page's worked example: what follows "## Worked example".
std::string workedExample(const std::string& page) {
  const auto at = page.find("## Worked example");
  return at == std::string::npos ? std::string() : page.substr(at);
}

TEST(SpecPages, EveryActionHasAPageWithAWorkedExampleAndADiagram) {
  for (std::string_view name : kActionNames) {
    SCOPED_TRACE(name);
    const auto page = generated().find(fmt::format("spec/actions/{}.md", name));
    ASSERT_NE(page, generated().end());
    const std::string example = workedExample(page->second);
    EXPECT_NE(example.find("The step, **`" + std::string(name)), std::string::npos);
    EXPECT_NE(example.find(" -> "), std::string::npos) << "the step's changes are empty";
    const auto svg = generated().find(fmt::format("spec/actions/{}.svg", name));
    ASSERT_NE(svg, generated().end());
    EXPECT_TRUE(svg->second.starts_with("<svg ")) << svg->second.substr(0, 40);
    EXPECT_NE(svg->second.find("marker-end"), std::string::npos) << "the diagram has no message";
    EXPECT_NE(page->second.find(fmt::format("]({}.svg)", name)), std::string::npos);
  }
}

TEST(SpecPages, EveryEventHasAPageAndAWorkedExample) {
  for (const EventDoc& doc : eventDocs()) {
    const std::string name(eventName(doc.kind));
    SCOPED_TRACE(name);
    const auto page = generated().find("spec/events/" + name + ".md");
    ASSERT_NE(page, generated().end());
    const std::string example = workedExample(page->second);
    ASSERT_FALSE(example.empty());
    EXPECT_FALSE(doc.example.empty());
    EXPECT_NE(example.find("The step, **`process-event"), std::string::npos);
    EXPECT_NE(example.find(" -> "), std::string::npos);
    EXPECT_TRUE(generated().contains("spec/events/" + name + ".svg"));
  }
}

TEST(SpecPages, EachWorkedExampleTakesTheStepItDocuments) {
  for (const ActionDoc& doc : actionDocs()) {
    // An example may start with `protocol <version>` (workedExampleConfig), as the pages run it.
    const WorkedExample example = runWorkedExample(workedExampleConfig(doc.example), doc.example, actionName(doc.kind));
    EXPECT_EQ(example.step.kind, doc.kind) << actionName(doc.kind);
    EXPECT_FALSE(example.changes.empty());
  }
  for (const EventDoc& doc : eventDocs()) {
    if (doc.example.empty()) continue;
    const WorkedExample example = runWorkedExample(workedExampleConfig(doc.example), doc.example, eventName(doc.kind));
    ASSERT_EQ(example.step.kind, ActionKind::ProcessEvent) << eventName(doc.kind);
    const auto& events = example.before.world.brokers[static_cast<std::size_t>(example.step.broker)].controller.events;
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.front().kind, doc.kind) << "the example processes " << eventName(events.front().kind);
  }
}

TEST(SpecPages, ABrokenExampleIsAnErrorNamingIt) {
  const Config& config = docsExampleConfig();
  try {
    runWorkedExample(config, "elect-controller 3\nelect-controller 2", "broken");
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("worked example `broken`, line 2: not enabled: elect-controller 2"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(runWorkedExample(config, "elect-controller 3\nsettle", "ends-with-directive"), std::logic_error);
}

TEST(SpecPages, GenerationIsDeterministic) {
  std::map<std::string, std::string> again;
  for (const GeneratedFile& file : generatedNow()) again[file.path] = file.contents;
  EXPECT_EQ(again, generated());
}

TEST(SpecPages, TheIndexLinksEveryActionEventAndCatalogPage) {
  const std::string& index = generated().at("spec/index.md");
  for (std::string_view name : kActionNames) EXPECT_NE(index.find(fmt::format("(actions/{}.md)", name)), std::string::npos);
  for (std::string_view name : kControllerEventNames) {
    EXPECT_NE(index.find(fmt::format("(events/{}.md)", name)), std::string::npos);
  }
  EXPECT_NE(index.find("(elections.md)"), std::string::npos);
  EXPECT_NE(index.find("(invariants.md)"), std::string::npos);
  EXPECT_NE(index.find("(components.md)"), std::string::npos);
}

// ---- spec/components.md: a worked example per component method

// The section of components.md headed `title`: from its heading to the next "## " heading.
std::string componentSection(const std::string& page, const std::string& title) {
  const auto at = page.find("\n## " + title + "\n");
  if (at == std::string::npos) return "";
  const auto end = page.find("\n## ", at + 1);
  return page.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
}

// Every ComponentMethod the vocabulary names (methodName knows it), whether or not the page's
// list has it: a method added to the vocabulary without a section fails below.
std::vector<ComponentMethod> everyComponentMethod() {
  std::vector<ComponentMethod> out;
  for (int i = 0; i < 256; ++i) {
    const auto method = static_cast<ComponentMethod>(i);
    if (methodName(method) != "?") out.push_back(method);
  }
  return out;
}

TEST(ComponentsPage, EveryComponentMethodHasASectionWithAWorkedExampleFromTheSuite) {
  const std::string& page = generated().at("spec/components.md");
  const std::vector<ComponentMethod> methods = everyComponentMethod();
  ASSERT_EQ(methods.size(), std::size(kComponentMethods));
  for (ComponentMethod method : methods) {
    const std::string title = componentSectionTitle(method);
    SCOPED_TRACE(title);
    EXPECT_NE(std::find(std::begin(kComponentMethods), std::end(kComponentMethods), method), std::end(kComponentMethods));
    const std::string section = componentSection(page, title);
    ASSERT_FALSE(section.empty()) << "no section";
    EXPECT_NE(section.find("Kafka: `kafka.controller."), std::string::npos);
    ASSERT_NE(section.find("### Worked example"), std::string::npos);
    EXPECT_EQ(section.find(kNoComponentExample), std::string::npos) << "a method, algorithm, entry or getter has no example";
    EXPECT_NE(section.find("`tests/components/"), std::string::npos) << "no scenario of the suite named";
    switch (method) {
      case ComponentMethod::ElectionAlgorithm:
        for (std::string_view form : {"elect offline assignment ", "elect reassign target ", "elect preferred assignment ",
                                      "elect controlled-shutdown assignment "}) {
          EXPECT_NE(section.find(fmt::format("| `{}", form)), std::string::npos) << form;
        }
        break;
      case ComponentMethod::ControllerContextQuery:
        for (const ContextQueryInfo& info : kContextQueries) {
          const bool in_row = section.find(fmt::format("| `controller-context {} ", info.name)) != std::string::npos ||
                              section.find(fmt::format("| `controller-context {}`", info.name)) != std::string::npos;
          const bool on_its_own = section.find(fmt::format("\ncontroller-context {}", info.name)) != std::string::npos;
          EXPECT_TRUE(in_row || on_its_own) << info.name;
        }
        break;
      case ComponentMethod::RequestBatchSend:
        for (std::string_view entry : {"leader-and-isr", "stop-replica", "update-metadata"}) {
          const auto at = section.find(fmt::format("#### Entries `{}`", entry));
          ASSERT_NE(at, std::string::npos) << entry;
          const auto next = section.find("#### ", at + 1);
          const std::string example = section.substr(at, next == std::string::npos ? std::string::npos : next - at);
          EXPECT_NE(example.find(std::string(entry) + " "), std::string::npos) << entry;
          EXPECT_NE(example.find(") and what it did:\n\n```text\nrequest-batch send "), std::string::npos) << entry;
        }
        break;
      default: {
        // The action shown is a call of this method.
        constexpr std::string_view kShown = ") and what it did:\n\n```text\n";
        const auto at = section.find(kShown);
        ASSERT_NE(at, std::string::npos);
        const std::size_t from = at + kShown.size();
        const std::string action = section.substr(from, section.find('\n', from) - from);
        if (method == ComponentMethod::ElectionLeaderFor) {
          EXPECT_TRUE(action.starts_with("elect ") && action.find(" partitions ") != std::string::npos) << action;
        } else {
          EXPECT_TRUE(action.starts_with(fmt::format("{} {}", componentName(method), methodName(method)))) << action;
        }
      }
    }
  }
  // The state machines' examples show what they asked for.
  for (ComponentMethod method : {ComponentMethod::PartitionStateMachineHandleStateChanges,
                                 ComponentMethod::ReplicaStateMachineHandleStateChanges}) {
    EXPECT_NE(componentSection(page, componentSectionTitle(method)).find("\n  STATE CHANGE controller "), std::string::npos);
  }
}

TEST(ComponentsPage, AMethodTheSuiteDoesNotCallSaysItHasNoExample) {
  std::vector<std::pair<std::string_view, std::string_view>> part;
  for (const auto& file : cli::componentSuite()) {
    if (file.first == "elect_algorithms.scenario") part.push_back(file);
  }
  ASSERT_EQ(part.size(), 1u);
  const std::string page = componentsPage(part);
  const std::string psm = componentSection(page, componentSectionTitle(ComponentMethod::PartitionStateMachineHandleStateChanges));
  EXPECT_NE(psm.find(kNoComponentExample), std::string::npos);
  EXPECT_EQ(componentSection(page, componentSectionTitle(ComponentMethod::ElectionAlgorithm)).find(kNoComponentExample),
            std::string::npos);
}

TEST(SpecPages, TheInvariantCatalogListsEveryPropertyWithAVerdict) {
  const std::string& page = generated().at("spec/invariants.md");
  for (const spec::Property& p : spec::invariantCatalog()) {
    EXPECT_NE(page.find(fmt::format("| {} | {} |", p.id, p.name)), std::string::npos) << p.id;
  }
}

TEST(SpecPages, VerdictsAreReadFromProofsTablesWithAVerdictColumn) {
  const std::string proofs =
      "# What kcspec proves\n\n| id | statement |\n|---|---|\n| MSM-P1 | x |\n\n"
      "## Explorer\n\n| property | name | latest verdict |\n|---|---|---|\n| `S1` | LeaderInIsr | holds (default, 1234 states) |\n"
      "| T3 | NoInvalidTransitionAttempted | violated \\| known Kafka deviation |\n";
  const auto verdicts = verdictsFromProofsPage(proofs);
  EXPECT_EQ(verdicts.size(), 2u);
  EXPECT_EQ(verdicts.at("S1"), "holds (default, 1234 states)");
  EXPECT_EQ(verdicts.at("T3"), "violated | known Kafka deviation");
}

// `kcspec docs` removes the files it no longer generates from its generated-only folders, but
// never a folder someone put there: it stops with a UserError (exit 2) and leaves it as it was
// (it once threw filesystem_error out of main and aborted).
TEST(WriteDocs, RemovesStaleFilesButStopsAtAFolder) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("kcspec-docs-stale-{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir / "spec" / "events" / "sub");
  std::ofstream(dir / "spec" / "events" / "old.md") << "stale\n";
  std::ofstream(dir / "spec" / "events" / "sub" / "notes.md") << "someone's\n";
  testing::internal::CaptureStdout();
  EXPECT_THROW(cli::writeDocs(dir), cli::UserError);
  const std::string printed = testing::internal::GetCapturedStdout();
  EXPECT_NE(printed.find("removed " + (dir / "spec" / "events" / "old.md").string()), std::string::npos) << printed;
  EXPECT_FALSE(fs::exists(dir / "spec" / "events" / "old.md"));
  EXPECT_TRUE(fs::exists(dir / "spec" / "events" / "sub" / "notes.md"));
  EXPECT_TRUE(fs::exists(dir / "spec" / "invariants.md"));  // the pages were written first
  fs::remove_all(dir);
}

TEST(SequenceDiagram, DrawsLifelinesAndMessagesOfARun) {
  const Config& config = docsExampleConfig();
  const std::vector<Action> actions = {parseAction(config, "elect-controller 3", "test", 1),
                                       parseAction(config, "deliver-request 1", "test", 2)};
  const std::string svg = renderSequenceDiagramSvg(config, actions);
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  for (std::string_view text : {"ZooKeeper", "controller", "on broker 3", "broker 1", "1. elect-controller 3",
                                "2. deliver-request 1", "create /controller", "UpdateMetadata", "handle UpdateMetadata"}) {
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  }
  EXPECT_EQ(svg, renderSequenceDiagramSvg(config, actions));
  EXPECT_THROW(renderSequenceDiagramSvg(config, {actions[1]}), std::invalid_argument);
}

}  // namespace
}  // namespace kcspec::docs
