// The spec's prose: for every action of the vocabulary and every controller event, its rule in
// English, when it is enabled, what it changes, what it queues, the Kafka method it models and
// the script of its worked example (docs_examples.hpp). Written once, here; the pages under
// docs/spec/actions/ and docs/spec/events/ are generated from it and from running the spec.
// Texts are Markdown (inline code, bold, links relative to docs/spec/<folder>/).
#pragma once

#include <span>
#include <string_view>

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/events.hpp"

namespace kcspec::docs {

struct ActionDoc {
  ActionKind kind;                 // its name, text form, category, bound and summary: definitionOf(kind)
  std::string_view rule;           // what happens, in Kafka's terms
  std::string_view enabled_when;   // the preconditions (docs/world.md's enabledness table)
  std::string_view changes;        // the state the step itself changes
  std::string_view queues;         // the events and requests it queues
  std::string_view kafka;          // the Kafka method(s) it models, with kafka.md §
  std::string_view spec_function;  // where the spec does it
  std::string_view example;        // the worked example's script (docs_examples.hpp)
};

struct EventDoc {
  ControllerEventKind kind;
  std::string_view summary;
  std::string_view enqueued_by;    // which actions or rules queue it
  std::string_view rule;           // what the handler does
  std::string_view changes;
  std::string_view queues;         // requests sent and events queued by the handler
  std::string_view kafka;          // the Kafka handler, with kafka.md §
  std::string_view spec_function;
  std::string_view example;        // the worked example's script, ending with `process-event <b>`; "" when none
  std::string_view no_example;     // why there is no worked example (when `example` is empty)
};

// One entry per ActionKind / ControllerEventKind, in the enums' order.
std::span<const ActionDoc> actionDocs();
std::span<const EventDoc> eventDocs();
const ActionDoc& actionDoc(ActionKind kind);
const EventDoc& eventDoc(ControllerEventKind kind);

}  // namespace kcspec::docs
