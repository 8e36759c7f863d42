// `kcspec sut [--mutant NAME]…`: the reference controller (impl/, optionally with mutants) as a
// system under test speaking the driver protocol (docs/driver-protocol.md) on stdin/stdout:
// `kcspec drive -- kcspec sut` must pass, `kcspec drive -- kcspec sut --mutant M3` must fail.
// Every request gets exactly one reply; bad requests get error replies, never an exit (a step that
// outgrows the modeled world, too: `internal`, and no step until a reset). It exits 0
// after quit or at the end of its input. It speaks protocols 1 to 6: after an init for protocol
// 2, `given` loads a world as the controller's current state (impl::ImplCluster(config, world));
// a configuration that names inter.broker.protocol.version needs an init for protocol 3; its
// observations carry topic ids after an init for protocol 4, /feature and the rolling-upgrade
// members for 5, and a configuration that bounds zk-session-expiries needs an init for 6.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/files.hpp"
#include "cli/mutant_options.hpp"
#include "impl/cluster.hpp"
#include "impl/mutants.hpp"
#include "proofs/conformance/driver_protocol.hpp"
#include "spec/vocabulary/broker_ibp.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/topic_ids.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec::cli {
namespace {

using conformance::ErrorCode;
using conformance::Reply;
using conformance::ReplyType;

struct SutOptions {
  std::vector<std::string> mutants;
};

// Reads one line of at most `max_bytes` (without the newline) from stdin; a longer line is read
// to its end and reported as too long. nullopt at the end of input.
struct InputLine {
  std::string text;
  bool too_long = false;
};
std::optional<InputLine> readLine(std::size_t max_bytes) {
  InputLine line;
  int c;
  bool any = false;
  while ((c = std::getchar()) != EOF) {
    any = true;
    if (c == '\n') return line;
    if (line.text.size() < max_bytes) {
      line.text.push_back(static_cast<char>(c));
    } else {
      line.too_long = true;
    }
  }
  if (!any) return std::nullopt;
  return line;  // the last line had no newline
}

void send(const Reply& reply) {
  const std::string line = conformance::encodeReply(reply);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

Reply errorReply(std::int64_t id, ErrorCode code, std::string message) {
  Reply reply;
  reply.type = ReplyType::Error;
  reply.id = id;
  reply.code = code;
  reply.message = std::move(message);
  return reply;
}

// The observation as the init's protocol shows it: topic ids from protocol 4 on, /feature and
// the brokers' ibp_upgraded from protocol 5 on.
Reply observationReply(ReplyType type, std::int64_t id, const impl::ImplCluster& cluster, int protocol) {
  Reply reply;
  reply.type = type;
  reply.id = id;
  Observation world = cluster.observe();
  if (protocol < conformance::kDriverProtocolSessionExpiryVersion) world.zk.session_expiring_writes = PartitionSet{};
  if (protocol < conformance::kDriverProtocolRollingUpgradeVersion) world = withoutRollingUpgradeMembers(std::move(world));
  if (protocol < conformance::kDriverProtocolTopicIdsVersion) world = withoutTopicIds(std::move(world));
  reply.observation = std::move(world);
  return reply;
}

// Why the reference controller cannot hold `world` for `config`, or nullopt: what its restoring
// constructor assumes (impl/cluster.hpp: nothing outside the configuration's brokers and topics,
// a partition-state znode only under an existing topic znode). The rules of a given world
// (G1–G9) are the driver's to judge: a SUT loads what it is given.
std::optional<std::string> notLoadable(const Config& config, const Observation& world) {
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    const auto i = static_cast<std::size_t>(b);
    if (!config.brokers.contains(b) && (world.brokers[i] != BrokerData{} || world.zk.brokers[i] != BrokerRegistration{})) {
      return fmt::format("/observation: broker {} is not one of the configuration's brokers", b);
    }
  }
  for (TopicIndex t = 0; t < kMaxTopics; ++t) {
    const TopicZnodes& topic = world.zk.topics[static_cast<std::size_t>(t)];
    if (t >= config.topicCount() && (topic != TopicZnodes{} || world.zk.delete_topics.contains(t))) {
      return fmt::format("/observation: topic {} is not one of the configuration's {} topics", t, config.topicCount());
    }
    for (std::size_t p = 0; p < topic.states.size(); ++p) {
      if (topic.states[p] && !topic.exists) {
        return fmt::format("/observation/zookeeper/topics/{}/states/{}: a partition state under a topic znode that "
                           "does not exist",
                           t, p);
      }
    }
  }
  return std::nullopt;
}

int runSut(impl::Mutants mutants) {
  std::unique_ptr<Config> config;  // stable address: the cluster refers to it
  std::optional<impl::ImplCluster> cluster;
  int protocol = 0;  // of the last successful init
  // A step threw CapacityExceeded: the cluster is half-stepped and takes no step until a reset,
  // given or init replaces it.
  bool outgrown = false;
  while (std::optional<InputLine> line = readLine(conformance::kDefaultMaxLineBytes)) {
    if (line->too_long) {
      send(errorReply(0, ErrorCode::BadMessage,
                      fmt::format("line longer than {} bytes", conformance::kDefaultMaxLineBytes)));
      continue;
    }
    if (line->text.empty()) continue;
    const conformance::ParsedRequest parsed = conformance::parseRequest(line->text);
    if (const auto* error = std::get_if<conformance::RequestError>(&parsed)) {
      send(errorReply(error->id, error->code, error->message));
      continue;
    }
    const conformance::Request& request = std::get<conformance::Request>(parsed);
    if (const auto* init = std::get_if<conformance::InitRequest>(&request)) {
      try {
        auto parsed_config = std::make_unique<Config>(parseConfig(init->config_text, "init.config"));
        const int needed = conformance::neededProtocol(*parsed_config, false);
        if (init->protocol < needed) {
          send(errorReply(init->id, ErrorCode::BadConfig,
                          needed == conformance::kDriverProtocolSessionExpiryVersion
                              ? fmt::format("bound zk-session-expiries {} (a session expiring in the middle of an "
                                            "event) is part of protocol {}; init asked for protocol {}",
                                            parsed_config->bounds.zk_session_expiries, needed, init->protocol)
                          : needed == conformance::kDriverProtocolRollingUpgradeVersion
                              ? fmt::format("upgrade inter.broker.protocol.version {} (a rolling upgrade) is part of "
                                            "protocol {}; init asked for protocol {}",
                                            metadataVersionName(*parsed_config->upgrade_inter_broker_protocol_version),
                                            needed, init->protocol)
                              : fmt::format("inter.broker.protocol.version {} (a configuration that names one) is part "
                                            "of protocol {}; init asked for protocol {}",
                                            metadataVersionName(parsed_config->inter_broker_protocol_version), needed,
                                            init->protocol)));
          continue;
        }
        cluster.reset();
        config = std::move(parsed_config);
        cluster.emplace(*config, mutants);
        outgrown = false;
      } catch (const TextError& e) {
        send(errorReply(init->id, ErrorCode::BadConfig, e.what()));
        continue;
      }
      protocol = init->protocol;
      Reply reply = observationReply(ReplyType::InitOk, init->id, *cluster, init->protocol);
      reply.protocol = protocol;
      send(reply);
    } else if (const auto* given = std::get_if<conformance::GivenRequest>(&request)) {
      if (!cluster) {
        send(errorReply(given->id, ErrorCode::NotInitialized, "given before init"));
        continue;
      }
      if (protocol < conformance::kDriverProtocolGivenVersion) {
        send(errorReply(given->id, ErrorCode::BadMessage,
                        fmt::format("given is a request of protocol {}; init asked for protocol {}",
                                    conformance::kDriverProtocolGivenVersion, protocol)));
        continue;
      }
      if (std::optional<std::string> problem = notLoadable(*config, given->observation)) {
        send(errorReply(given->id, ErrorCode::BadMessage, *problem));
        continue;
      }
      cluster.emplace(*config, given->observation, mutants);
      outgrown = false;
      send(observationReply(ReplyType::GivenOk, given->id, *cluster, protocol));
    } else if (const auto* step = std::get_if<conformance::StepRequest>(&request)) {
      if (!cluster) {
        send(errorReply(step->id, ErrorCode::NotInitialized, "step before init"));
        continue;
      }
      if (outgrown) {
        send(errorReply(step->id, ErrorCode::Internal, "an earlier step outgrew the modeled world; reset to go on"));
        continue;
      }
      Action action;
      try {
        action = parseAction(*config, step->action_text, "step.action", 1);
      } catch (const TextError& e) {
        send(errorReply(step->id, ErrorCode::BadAction, e.what()));
        continue;
      }
      if (conformance::actionProtocol(action.kind) > protocol) {
        send(errorReply(step->id, ErrorCode::BadAction,
                        fmt::format("{} is an action of protocol {}; init asked for protocol {}", step->action_text,
                                    conformance::actionProtocol(action.kind), protocol)));
        continue;
      }
      if (!cluster->isEnabled(action)) {
        send(errorReply(step->id, ErrorCode::NotEnabled, fmt::format("{} is not enabled", step->action_text)));
        continue;
      }
      try {
        cluster->apply(action);
      } catch (const CapacityExceeded& e) {  // beyond the model (docs/spec/rules.md): the state is half-stepped
        outgrown = true;
        send(errorReply(step->id, ErrorCode::Internal,
                        fmt::format("{} outgrows the modeled world: {}; reset to go on", step->action_text, e.what())));
        continue;
      }
      send(observationReply(ReplyType::StepOk, step->id, *cluster, protocol));
    } else if (const auto* reset = std::get_if<conformance::ResetRequest>(&request)) {
      if (!cluster) {
        send(errorReply(reset->id, ErrorCode::NotInitialized, "reset before init"));
        continue;
      }
      cluster.emplace(*config, mutants);
      outgrown = false;
      send(observationReply(ReplyType::ResetOk, reset->id, *cluster, protocol));
    } else {
      const auto& quit = std::get<conformance::QuitRequest>(request);
      Reply reply;
      reply.type = ReplyType::QuitOk;
      reply.id = quit.id;
      send(reply);
      return 0;
    }
  }
  return 0;
}

}  // namespace

CommandRun addSutCommand(CLI::App& app) {
  auto options = std::make_shared<SutOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sut", "Serve the reference controller as a system under test on stdin/stdout (docs/driver-protocol.md)");
  cmd->add_option("--mutant", options->mutants, "re-introduce this mutant (see `kcspec mutants`), repeatable");
  return [options] {
    return runSut(mutantsNamed(options->mutants));
  };
}

}  // namespace kcspec::cli
