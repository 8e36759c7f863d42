#include "docs/generator/sequence_diagram.hpp"

#include "docs/generator/markdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string_view>

#include "spec/rules/invariants.hpp"  // RecordingObserver
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/observation_text.hpp"

namespace kcspec::docs {
namespace {

// ---- geometry (pixels); text is monospace so its width is known
constexpr int kColumn = 180;        // between lifelines
constexpr int kBoxWidth = 150;
constexpr int kBoxHeight = 34;
constexpr int kRow = 20;
constexpr int kBandRow = 22;
constexpr double kCharWidth = 6.6;  // 11px monospace
constexpr std::size_t kMaxDetail = 120;

enum class Tone { Focus, Context, Rejected };

struct Message {
  int from = 0;
  int to = 0;  // == from: a note on the lifeline
  std::string label;
  std::string detail;
  bool rejected = false;  // drawn red (a fenced write, a dropped response)
};

struct Step {
  std::string band;
  std::vector<Message> messages;
  bool focus = false;
  bool collapsed = false;
};


// Cuts `text` to at most `max` characters (counting UTF-8 code points), with "…" when cut.
std::string clip(std::string_view text, std::size_t max) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (count == max - 1) {
      std::size_t rest = 0;
      for (std::size_t j = i; j < text.size(); ++j) rest += (static_cast<unsigned char>(text[j]) & 0xC0) != 0x80;
      if (rest > 1) return std::string(text.substr(0, i)) + "…";
      return std::string(text);
    }
    ++count;
  }
  return std::string(text);
}

std::size_t codePoints(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string ids(const BrokerList& list) { return joinIds(list, ","); }

std::string requestLabel(const ControlRequest& r) {
  switch (r.kind) {
    case RequestKind::LeaderAndIsr: return "LeaderAndIsr";
    case RequestKind::UpdateMetadata: return "UpdateMetadata";
    case RequestKind::StopReplica: {
      bool deletes = false;
      for (const auto& s : r.stop_replica) deletes |= s.delete_partition;
      return deletes ? "StopReplica(delete)" : "StopReplica";
    }
  }
  return "?";
}

std::string requestDetail(const Config& config, const ControlRequest& r) {
  std::vector<std::string> parts;
  parts.push_back(fmt::format("controller_epoch={}", r.controller_epoch));
  for (const LeaderAndIsrPartitionState& s : r.leader_and_isr) {
    const LeaderAndIsr& lai = s.leadership.leader_and_isr;
    parts.push_back(fmt::format("{} leader={} leader_epoch={} isr={}{}", partitionName(config, s.tp), lai.leader,
                                lai.leader_epoch, ids(lai.isr), s.is_new ? " new" : ""));
  }
  if (r.kind == RequestKind::UpdateMetadata) {
    std::string live;
    r.live_brokers.forEach([&](BrokerId b) { live += fmt::format("{}{}", live.empty() ? "" : ",", b); });
    parts.push_back("live=" + live);
  }
  for (const UpdateMetadataPartitionState& s : r.update_metadata) {
    if (s.leader == kLeaderDuringDelete) {
      parts.push_back(fmt::format("{} leader=-2 (being deleted)", partitionName(config, s.tp)));
    } else {
      parts.push_back(fmt::format("{} leader={} leader_epoch={} isr={}", partitionName(config, s.tp), s.leader,
                                  s.leader_epoch, ids(s.isr)));
    }
  }
  for (const StopReplicaPartitionState& s : r.stop_replica) {
    parts.push_back(fmt::format("{} leader_epoch={}{}", partitionName(config, s.tp), s.leader_epoch,
                                s.delete_partition ? " delete" : ""));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

// "/brokers/topics/t/partitions/0/state" → "t-0 state"; other paths unchanged.
std::string shortPath(std::string_view path) {
  constexpr std::string_view prefix = "/brokers/topics/";
  constexpr std::string_view middle = "/partitions/";
  constexpr std::string_view suffix = "/state";
  if (path.starts_with(prefix) && path.ends_with(suffix)) {
    const std::string_view rest = path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
    const std::size_t at = rest.find(middle);
    if (at != std::string_view::npos) {
      return fmt::format("{}-{} state", rest.substr(0, at), rest.substr(at + middle.size()));
    }
  }
  return std::string(path);
}

bool isZooKeeperPath(std::string_view path) { return path.starts_with("/"); }

struct Lifelines {
  std::vector<std::string> names;     // two lines each, separated by '\n'
  std::map<BrokerId, int> controller;  // broker id → lifeline index of its controller module
  std::map<BrokerId, int> broker;
  static constexpr int kAdmin = 0;
  static constexpr int kZooKeeper = 1;

  int controllerOf(BrokerId b) const {
    const auto it = controller.find(b);
    return it == controller.end() ? kZooKeeper : it->second;
  }
  int brokerOf(BrokerId b) const {
    const auto it = broker.find(b);
    return it == broker.end() ? kZooKeeper : it->second;
  }
};

using Entries = std::map<std::string, std::string>;

Entries entries(const Config& config, const Observation& o) {
  Entries out;
  for (auto& [path, value] : renderObservation(config, o)) out.emplace(std::move(path), std::move(value));
  return out;
}

std::string valueAt(const Entries& e, const std::string& path) {
  const auto it = e.find(path);
  return it == e.end() ? std::string() : it->second;
}

// The messages of one step.
std::vector<Message> stepMessages(const Config& config, const Lifelines& lines, const spec::ClusterState& s,
                                  const spec::ClusterState& t, const Action& a, const spec::StepRecord& record) {
  std::vector<Message> out;
  const Entries before = entries(config, s.world);
  const Entries after = entries(config, t.world);
  const auto broker_before = [&](BrokerId b) -> const BrokerData& { return s.world.brokers[static_cast<std::size_t>(b)]; };
  const auto broker_after = [&](BrokerId b) -> const BrokerData& { return t.world.brokers[static_cast<std::size_t>(b)]; };

  // Who writes ZooKeeper in this step.
  int writer = Lifelines::kZooKeeper;
  switch (a.kind) {
    case ActionKind::CreateTopic:
    case ActionKind::DeleteTopic:
    case ActionKind::AddPartitions:
    case ActionKind::EnableTopicUnclean:
      writer = Lifelines::kAdmin;
      break;
    case ActionKind::StartBroker:
      writer = lines.brokerOf(a.broker);
      break;
    case ActionKind::ProcessEvent:
    case ActionKind::ElectController:
      writer = lines.controllerOf(a.broker);
      break;
    default:
      break;
  }

  // The step's own first message.
  switch (a.kind) {
    case ActionKind::CrashBroker:
      out.push_back({lines.brokerOf(a.broker), lines.brokerOf(a.broker), "✗ crashes", "all of the broker's state is lost"});
      break;
    case ActionKind::LoseControllerSession:
      out.push_back({Lifelines::kZooKeeper, Lifelines::kZooKeeper, "session expires",
                     fmt::format("the ZooKeeper session of controller {} expired", a.broker)});
      break;
    case ActionKind::LoseZkConnection:
      out.push_back({Lifelines::kZooKeeper, Lifelines::kZooKeeper, "connection will drop",
                     fmt::format("the next write applied to {}'s state znode loses its response", partitionName(config, a.tp))});
      break;
    case ActionKind::ProcessEvent: {
      const auto& events = broker_before(a.broker).controller.events;
      if (!events.empty()) {
        out.push_back({lines.controllerOf(a.broker), lines.controllerOf(a.broker),
                       fmt::format("process {}", eventName(events.front().kind)),
                       valueAt(before, fmt::format("broker {} events[0]", a.broker))});
      }
      break;
    }
    case ActionKind::ElectController:
      out.push_back({lines.controllerOf(a.broker), lines.controllerOf(a.broker), "elect, onControllerFailover",
                     "wins /controller, increments /controller_epoch, loads its context"});
      break;
    case ActionKind::DeliverRequest: {
      const auto& inbox = broker_before(a.broker).inbox;
      if (!inbox.empty()) {
        const bool responded = broker_after(a.broker).outbox.size() > broker_before(a.broker).outbox.size();
        out.push_back({lines.brokerOf(a.broker), lines.brokerOf(a.broker), "handle " + requestLabel(inbox.front()),
                       requestDetail(config, inbox.front()) + (responded ? " → StopReplica response queued" : "")});
      }
      break;
    }
    case ActionKind::DeliverStopReplicaResponse: {
      const auto& outbox = broker_before(a.broker).outbox;
      if (!outbox.empty()) {
        const StopReplicaResponse& response = outbox.front();
        const auto& sender_before = broker_before(response.controller_id).controller.events;
        const auto& sender_after = broker_after(response.controller_id).controller.events;
        const bool forwarded = sender_after.size() > sender_before.size();
        std::string partitions;
        response.partitions.forEach([&](TopicPartition tp) {
          partitions += (partitions.empty() ? "" : ",") + partitionName(config, tp);
        });
        out.push_back({lines.brokerOf(a.broker), lines.controllerOf(response.controller_id),
                       a.error ? "StopReplica response (error)" : "StopReplica response",
                       fmt::format("partitions={}{}", partitions,
                                   forwarded ? " → TopicDeletionStopReplicaResponseReceived"
                                             : " — dropped (controller gone or topic not being deleted)"),
                       !forwarded});
      }
      break;
    }
    default:
      break;
  }

  // ZooKeeper writes.
  for (const Change& c : diffObservations(config, s.world, t.world)) {
    if (!isZooKeeperPath(c.path)) continue;
    const std::string verb = c.before.empty() ? "create" : c.after.empty() ? "delete" : "set";
    out.push_back({writer, Lifelines::kZooKeeper, verb + " " + shortPath(c.path),
                   c.path + (c.after.empty() ? " deleted" : ": " + c.after)});
  }
  for (const auto& [controller, epoch] : record.rejected_writes) {
    out.push_back({lines.controllerOf(controller), Lifelines::kZooKeeper, "write rejected",
                   fmt::format("ControllerMoved: controller {}'s epoch {} is stale (/controller_epoch version check)",
                               controller, epoch),
                   true});
  }

  // The AlterPartition response (delivered with the controller's processing, world.md convention 7).
  if (a.kind == ActionKind::ProcessEvent && !broker_before(a.broker).controller.events.empty()) {
    const ControllerEvent& e = broker_before(a.broker).controller.events.front();
    if (e.kind == ControllerEventKind::AlterPartitionReceived && isBrokerId(e.broker)) {
      const std::size_t i = static_cast<std::size_t>(partitionIndex(e.tp));
      if (broker_before(e.broker).replicas[i] != broker_after(e.broker).replicas[i]) {
        const HostedReplica& r = broker_after(e.broker).replicas[i];
        out.push_back({lines.controllerOf(a.broker), lines.brokerOf(e.broker), "AlterPartition response",
                       fmt::format("{} isr={} partition_epoch={}", partitionName(config, e.tp), ids(r.isr),
                                   r.partition_epoch)});
      }
    }
  }

  // Requests queued to brokers.
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    const auto& old_inbox = broker_before(b).inbox;
    const auto& new_inbox = broker_after(b).inbox;
    std::size_t kept = old_inbox.size();
    if (a.kind == ActionKind::DeliverRequest && a.broker == b && kept > 0) --kept;
    if (a.kind == ActionKind::CrashBroker && a.broker == b) kept = new_inbox.size();
    for (std::size_t i = kept; i < new_inbox.size(); ++i) {
      const ControlRequest& r = new_inbox[i];
      out.push_back({lines.controllerOf(r.controller_id), lines.brokerOf(b), requestLabel(r), requestDetail(config, r)});
    }
  }

  // Events queued at controllers.
  for (BrokerId c = 0; c < kMaxBrokers; ++c) {
    const auto& old_events = broker_before(c).controller.events;
    const auto& new_events = broker_after(c).controller.events;
    std::size_t kept = old_events.size();
    if (a.kind == ActionKind::ProcessEvent && a.broker == c && kept > 0) --kept;
    if ((a.kind == ActionKind::NoticeSessionExpiry || a.kind == ActionKind::CrashBroker) && a.broker == c) kept = 0;
    if (kept > new_events.size()) kept = new_events.size();
    for (std::size_t i = kept; i < new_events.size(); ++i) {
      const ControllerEvent& e = new_events[i];
      const std::string detail = valueAt(after, fmt::format("broker {} events[{}]", c, i));
      const int to = lines.controllerOf(c);
      using EK = ControllerEventKind;
      switch (e.kind) {
        case EK::TopicDeletionStopReplicaResponseReceived:
          if (a.kind != ActionKind::DeliverStopReplicaResponse) out.push_back({lines.brokerOf(e.broker), to, "StopReplica response", detail});
          break;
        case EK::ApiPartitionReassignment:
          out.push_back({Lifelines::kAdmin, to, "AlterPartitionReassignments", detail});
          break;
        case EK::ReplicaLeaderElection:
          out.push_back({Lifelines::kAdmin, to,
                         e.election_type == ElectionType::PREFERRED ? "ElectLeaders(PREFERRED)" : "ElectLeaders(UNCLEAN)",
                         detail});
          break;
        case EK::ControlledShutdown:
          out.push_back({lines.brokerOf(e.broker), to, "ControlledShutdown", detail});
          break;
        case EK::AlterPartitionReceived:
          out.push_back({lines.brokerOf(e.broker), to, "AlterPartition", detail});
          break;
        case EK::Expire:
          out.push_back({Lifelines::kZooKeeper, to, "Expire (queue cleared)", detail});
          break;
        case EK::TopicUncleanLeaderElectionEnable:
          out.push_back({Lifelines::kZooKeeper, to, "config change → event", detail});
          break;
        default:
          out.push_back({Lifelines::kZooKeeper, to, fmt::format("watch: {}", eventName(e.kind)), detail});
          break;
      }
    }
  }
  return out;
}

Lifelines lifelinesFor(const Config& config, const std::vector<spec::ClusterState>& states,
                       const std::vector<Action>& actions) {
  BrokerSet controllers;
  for (const spec::ClusterState& s : states) {
    for (BrokerId b = 0; b < kMaxBrokers; ++b) {
      const ControllerData& module = s.world.brokers[static_cast<std::size_t>(b)].controller;
      if (module.active || module.session_lost || !module.events.empty()) controllers.insert(b);
    }
  }
  for (const Action& a : actions) {
    if (a.kind == ActionKind::ProcessEvent || a.kind == ActionKind::ElectController) controllers.insert(a.broker);
  }
  Lifelines lines;
  lines.names = {"admin\nclients, tools", "ZooKeeper\n"};
  controllers.forEach([&](BrokerId b) {
    lines.controller[b] = static_cast<int>(lines.names.size());
    lines.names.push_back(fmt::format("controller\non broker {}", b));
  });
  config.brokers.forEach([&](BrokerId b) {
    lines.broker[b] = static_cast<int>(lines.names.size());
    lines.names.push_back(fmt::format("broker {}\n", b));
  });
  return lines;
}

int lifelineX(int index) { return 16 + kBoxWidth / 2 + index * kColumn; }

std::string textElement(int x, int y, std::string_view text, std::string_view attributes = "") {
  return fmt::format("<text x=\"{}\" y=\"{}\"{}{}>{}</text>\n", x, y, attributes.empty() ? "" : " ", attributes,
                     escapeHtml(text));
}

}  // namespace

std::string renderSequenceDiagramSvg(const Config& config, const std::vector<Action>& actions) {
  return renderSequenceDiagramSvg(config, actions, SequenceDiagramOptions{});
}

std::string renderSequenceDiagramSvg(const Config& config, const std::vector<Action>& actions,
                                     const SequenceDiagramOptions& options) {
  // Run the actions.
  std::vector<spec::ClusterState> states{spec::initialState(config)};
  std::vector<spec::StepRecord> records;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (!spec::isEnabled(config, states.back(), actions[i])) {
      throw std::invalid_argument(
          fmt::format("sequence diagram: step {} is not enabled: {}", i + 1, printAction(config, actions[i])));
    }
    spec::RecordingObserver observer;
    states.push_back(spec::next(config, states.back(), actions[i], observer));
    records.push_back(std::move(observer.record));
  }
  const Lifelines lines = lifelinesFor(config, states, actions);

  // Lay out the steps.
  std::vector<Step> steps;
  const std::size_t collapsed = std::min(options.collapse_before, actions.size());
  if (collapsed > 0) {
    steps.push_back({fmt::format("steps 1–{}: setup ({} actions, not drawn)", collapsed, collapsed), {}, false, true});
  }
  for (std::size_t i = collapsed; i < actions.size(); ++i) {
    Step step;
    step.band = fmt::format("{}. {}", i + 1, printAction(config, actions[i]));
    step.focus = i >= options.focus_from && i < options.focus_to;
    step.messages = stepMessages(config, lines, states[i], states[i + 1], actions[i], records[i]);
    steps.push_back(std::move(step));
  }

  const int lifeline_count = static_cast<int>(lines.names.size());
  const int detail_x = lifelineX(lifeline_count - 1) + kColumn + 10;  // after the last lifeline's notes
  std::size_t widest_detail = 20;
  for (const Step& step : steps) {
    widest_detail = std::max(widest_detail, codePoints(step.band) / 2);
    for (const Message& m : step.messages) widest_detail = std::max(widest_detail, codePoints(clip(m.detail, kMaxDetail)));
  }
  const int width = detail_x + static_cast<int>(static_cast<double>(widest_detail) * kCharWidth) + 16;
  const int title_height = options.title.empty() ? 0 : 24;
  const int top = 10 + title_height;
  const int body_top = top + kBoxHeight + 12;
  int height = body_top;
  for (const Step& step : steps) height += kBandRow + static_cast<int>(step.messages.size()) * kRow;
  height += 16;

  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"DejaVu Sans Mono, Liberation Mono, monospace\" font-size=\"11\">\n",
      width, height);
  svg += "<!-- Generated by kcspec (docs/generator/sequence_diagram.cpp) from a run of the spec. -->\n";
  svg +=
      "<defs>\n"
      "<marker id=\"head-focus\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
      "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1a1a1a\"/></marker>\n"
      "<marker id=\"head-context\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
      "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#9a9a9a\"/></marker>\n"
      "<marker id=\"head-rejected\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
      "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c62828\"/></marker>\n"
      "</defs>\n";
  svg += fmt::format("<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", width, height);
  if (!options.title.empty()) svg += textElement(12, 22, options.title, "font-size=\"13\" font-weight=\"bold\"");

  // Lifelines and their heads.
  for (int i = 0; i < lifeline_count; ++i) {
    const int x = lifelineX(i);
    svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#b0b0b0\" stroke-dasharray=\"4 3\"/>\n",
                       x, top + kBoxHeight, height - 8);
    const std::string fill = i == Lifelines::kAdmin ? "#eef3fb" : i == Lifelines::kZooKeeper ? "#eaf6ec"
                             : i < Lifelines::kZooKeeper + 1 + static_cast<int>(lines.controller.size()) ? "#fdf0e6"
                                                                                                          : "#f2f2f2";
    svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"{}\" stroke=\"#606060\"/>\n",
                       x - kBoxWidth / 2, top, kBoxWidth, kBoxHeight, fill);
    const std::string& name = lines.names[static_cast<std::size_t>(i)];
    const std::size_t cut = name.find('\n');
    const std::string first = name.substr(0, cut);
    const std::string second = cut == std::string::npos ? "" : name.substr(cut + 1);
    if (second.empty()) {
      svg += textElement(x, top + 21, first, "text-anchor=\"middle\" font-weight=\"bold\"");
    } else {
      svg += textElement(x, top + 15, first, "text-anchor=\"middle\" font-weight=\"bold\"");
      svg += textElement(x, top + 28, second, "text-anchor=\"middle\" fill=\"#404040\"");
    }
  }

  // Steps.
  int y = body_top;
  for (const Step& step : steps) {
    const std::string band_fill = step.collapsed ? "#f4f4f4" : step.focus ? "#fff1c2" : "#f4f4f4";
    svg += fmt::format("<rect x=\"6\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", y + 2, width - 12,
                       kBandRow - 4, band_fill);
    svg += textElement(12, y + 15, step.band,
                       step.focus ? "font-weight=\"bold\" fill=\"#1a1a1a\"" : "font-weight=\"bold\" fill=\"#707070\"");
    y += kBandRow;
    for (const Message& m : step.messages) {
      const Tone tone = m.rejected ? Tone::Rejected : step.focus ? Tone::Focus : Tone::Context;
      const std::string color = tone == Tone::Rejected ? "#c62828" : tone == Tone::Focus ? "#1a1a1a" : "#9a9a9a";
      const std::string marker =
          tone == Tone::Rejected ? "head-rejected" : tone == Tone::Focus ? "head-focus" : "head-context";
      const int x1 = lifelineX(m.from);
      const int x2 = lifelineX(m.to);
      const int arrow_y = y + 14;
      std::string label;
      int label_x = 0;
      if (m.from == m.to) {
        svg += fmt::format(
            "<path d=\"M{0},{1} h14 v7 h-14\" fill=\"none\" stroke=\"{2}\" marker-end=\"url(#{3})\"/>\n", x1,
            arrow_y - 6, color, marker);
        label = clip(m.label, static_cast<std::size_t>((kColumn - 12) / kCharWidth));
        label_x = x1 + 18;
        svg += textElement(label_x, arrow_y + 1, label, fmt::format("fill=\"{}\"", color));
      } else {
        svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\"{} marker-end=\"url(#{})\"/>\n",
                           x1, arrow_y, x2 + (x2 > x1 ? -2 : 2), arrow_y, color,
                           m.rejected ? " stroke-dasharray=\"5 3\"" : "", marker);
        const int span = std::abs(x2 - x1);
        label = clip(m.label, static_cast<std::size_t>((span + 60) / kCharWidth));  // may run past the target
        label_x = std::min(x1, x2) + 6;
        svg += textElement(label_x, arrow_y - 3, label, fmt::format("fill=\"{}\"", color));
      }
      if (!m.detail.empty()) {
        svg += textElement(detail_x, arrow_y, clip(m.detail, kMaxDetail),
                           fmt::format("fill=\"{}\"", tone == Tone::Context ? "#9a9a9a" : "#505050"));
      }
      y += kRow;
    }
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace kcspec::docs
