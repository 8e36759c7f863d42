// `kcspec run-controller --zookeeper HOST:PORT[/chroot] --scenario FILE`: the reference controller
// on a real ZooKeeper server. The scenario's brokers are simulated as in `replay --impl`, but
// their registrations, /controller, /controller_epoch and every znode are real, and so are the
// sessions, the conditional writes and the watches (impl/zookeeper/real_zk_store.hpp). Prints the
// state-change log as it is written, and `# …` lines for what the server did on its own:
// sessions it expired and fenced writes its /controller_epoch check rejected.
//
// --pause-before-step N waits for a line on standard input before step N (a test stops the
// process meanwhile); --serve-until-elected SECONDS, after the steps, keeps the controller running
// (ZooKeeper watches in, requests delivered to the simulated brokers) until one of this process's
// brokers is the active controller and nothing is in flight.
//
// Exit status: 0 done; 1 a step not enabled, or not elected in time; 2 bad input or no server.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "cli/starting_state.hpp"
#include "cli/command.hpp"
#include "cli/files.hpp"
#include "cli/number_options.hpp"
#include "cli/zookeeper_connect.hpp"
#include "impl/cluster.hpp"
#include "impl/zookeeper/kafka_zk_client.hpp"
#include "impl/zookeeper/real_zk_store.hpp"
#include "impl/zookeeper/zk_data.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec::cli {
namespace {

struct RunControllerOptions {
  std::string zookeeper;
  std::string scenario;
  bool info = false;
  bool fake_clock = false;
  int pause_before_step = 0;
  double serve_until_elected_s = 0;
  int session_timeout_ms = 6000;
  int connect_timeout_ms = 10000;
};

constexpr int kServePollMs = 50;
constexpr int kMaxRecoveryStepsPerPoll = 100000;

class SystemClock final : public impl::Clock {
 public:
  std::int64_t nowMillis() override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  }
};

// Streams the log sink's text as it grows.
class LogPrinter {
 public:
  explicit LogPrinter(const impl::TextLogSink& sink) : sink_(sink) {}
  void flush() {
    const std::string& text = sink_.text();
    if (text.size() > printed_) fmt::print("{}", std::string_view(text).substr(printed_));
    printed_ = text.size();
    std::fflush(stdout);
  }

 private:
  const impl::TextLogSink& sink_;
  std::size_t printed_ = 0;
};

void note(const std::string& line) {
  fmt::print("# {}\n", line);
  std::fflush(stdout);
}

// What the server did on its own since the last call: expired sessions, rejected fenced writes.
void reportServerEvents(impl::ImplCluster& cluster, impl::zk::RealZkStore& zk) {
  for (const impl::zk::RejectedFencedWrite& w : zk.takeRejectedFencedWrites()) {
    note(fmt::format("ZooKeeper rejected a fenced write to {}: /controller_epoch is no longer at version {} "
                     "(ControllerMovedException)",
                     w.path, w.expected_controller_epoch_zk_version));
  }
  for (impl::zk::SessionId session : zk.takeExpiredSessions()) {
    const BrokerId b = session / 2;
    if (session == impl::zk::controllerSession(b)) {
      note(fmt::format("ZooKeeper expired the controller session of broker {}", b));
      if (cluster.broker(b).alive()) cluster.controllerSessionExpired(b);
    } else {
      note(fmt::format("ZooKeeper expired the registration session of broker {} (/brokers/ids/{} is gone)", b, b));
    }
  }
}

Scenario readScenarioFile(const std::string& file) {
  Scenario scenario = parseScenario(readUserFile(file, "a scenario file"), file);
  requireClusterScenario(scenario, file, "run-controller");
  return scenario;
}

// A second process must not re-create what the first one made (their znodes are shared).
void checkFreshWhereNeeded(const Config& config, const impl::zk::RealZkStore& zk, const std::string& file) {
  config.brokers_alive_at_start.forEach([&](BrokerId b) {
    if (zk.find(impl::zk::paths::brokerId(b)) != nullptr) {
      throw UserError(file, fmt::format("broker {} is alive-at-start but /brokers/ids/{} already exists on this ZooKeeper "
                                        "(another process registered it; use another chroot or leave it out of alive-at-start)",
                                        b, b));
    }
  });
  for (const TopicConfig& topic : config.topics) {
    if (topic.exists_at_start && zk.find(impl::zk::paths::topic(topic.name)) != nullptr) {
      throw UserError(file, fmt::format("topic {} is exists-at-start but /brokers/topics/{} already exists on this ZooKeeper "
                                        "(use another chroot, or exists-at-start false)",
                                        topic.name, topic.name));
    }
  }
}

// Recovery actions until nothing is in flight: events processed, requests delivered.
void settle(impl::ImplCluster& cluster, impl::zk::RealZkStore& zk, LogPrinter& printer) {
  for (int i = 0; i < kMaxRecoveryStepsPerPoll; ++i) {
    bool progressed = false;
    for (const Action& action : cluster.enabledActions()) {
      if (action.kind == ActionKind::ProcessEvent || action.kind == ActionKind::DeliverRequest) {
        cluster.apply(action);
        printer.flush();
        reportServerEvents(cluster, zk);
        progressed = true;
        break;
      }
    }
    if (!progressed) return;
  }
}

int serveUntilElected(impl::ImplCluster& cluster, impl::zk::RealZkStore& zk, LogPrinter& printer, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    cluster.routeZooKeeperWatches();
    reportServerEvents(cluster, zk);
    for (const Action& action : cluster.enabledActions()) {
      if (action.kind != ActionKind::ElectController) continue;
      note(fmt::format("/controller is free: {}", printAction(cluster.config(), action)));
      cluster.apply(action);
      printer.flush();
      break;
    }
    settle(cluster, zk, printer);
    if (const std::optional<BrokerId> active = cluster.activeController()) {
      const Observation observed = cluster.observe();
      note(fmt::format("broker {} is the active controller with epoch {}", *active, observed.zk.controller_epoch));
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(kServePollMs));
  }
  note(fmt::format("no broker of this process became the active controller within {} s", seconds));
  return 1;
}

int runController(const RunControllerOptions& options) {
  const Scenario scenario = readScenarioFile(options.scenario);
  impl::zk::RealZkOptions zk_options;
  zk_options.connect = checkZookeeperConnect(options.zookeeper);
  zk_options.session_timeout_ms = options.session_timeout_ms;
  zk_options.connect_timeout_ms = options.connect_timeout_ms;
  zk_options.create_chroot = true;
  try {
    impl::zk::RealZkStore zk(zk_options);
    checkFreshWhereNeeded(scenario.config, zk, options.scenario);
    impl::TextLogSink sink(options.info ? impl::LogLevel::INFO : impl::LogLevel::TRACE);
    SystemClock system_clock;
    impl::FakeClock fake_clock;
    impl::Clock* clock = options.fake_clock ? static_cast<impl::Clock*>(&fake_clock) : &system_clock;
    impl::ImplCluster cluster(scenario.config, zk, impl::Mutants{}, impl::LogTarget{&sink, clock});
    LogPrinter printer(sink);
    for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
      const Action& action = scenario.steps[i];
      if (static_cast<int>(i) + 1 == options.pause_before_step) {
        note(fmt::format("paused before step {}; continuing after a line on standard input", i + 1));
        std::string ignored;
        std::getline(std::cin, ignored);
      }
      if (action.kind == ActionKind::StartBroker && cluster.isEnabled(action) &&
          zk.find(impl::zk::paths::brokerId(action.broker)) != nullptr) {
        std::fflush(stdout);
        fmt::print(stderr, "{}:{}: {}: /brokers/ids/{} is registered by another ZooKeeper client\n", options.scenario,
                   scenario.step_lines[i], printAction(scenario.config, action), action.broker);
        return 1;
      }
      if (!cluster.isEnabled(action)) {
        std::fflush(stdout);
        fmt::print(stderr, "{}:{}: action not enabled in this state: {}\n", options.scenario, scenario.step_lines[i],
                   printAction(scenario.config, action));
        return 1;
      }
      try {
        cluster.apply(action);
      } catch (const CapacityExceeded& e) {  // beyond the modeled world (docs/spec/rules.md): bad input
        printer.flush();
        throw TextError(options.scenario, scenario.step_lines[i], e.what());
      }
      printer.flush();
      reportServerEvents(cluster, zk);
    }
    if (options.serve_until_elected_s > 0) return serveUntilElected(cluster, zk, printer, options.serve_until_elected_s);
    return 0;
  } catch (const impl::zk::ZkUnavailable& e) {
    throw UserError("--zookeeper", e.what());
  }
}

}  // namespace

CommandRun addRunControllerCommand(CLI::App& app) {
  auto options = std::make_shared<RunControllerOptions>();
  CLI::App* cmd = app.add_subcommand("run-controller", "Run the reference controller against a real ZooKeeper server");
  cmd->add_option("--zookeeper", options->zookeeper, "HOST:PORT[,HOST:PORT...][/chroot] (the chroot is created if absent)")
      ->required();
  cmd->add_option("--scenario", options->scenario, "a scenario file (`# kcspec scenario v1`)")->required();
  cmd->add_flag("--info", options->info, "log at INFO (Kafka's default) instead of TRACE");
  cmd->add_flag("--fake-clock", options->fake_clock, "timestamp every line 2024-07-23 00:00:00,000 (reproducible output)");
  cmd->add_option("--pause-before-step", options->pause_before_step, "wait for a line on standard input before step N")
      ->check(wholeNumber(1, kMaxInt));
  cmd->add_option("--serve-until-elected", options->serve_until_elected_s,
                  "after the steps, keep running until a broker of this process is the active controller (at most SECONDS)")
      ->check(positiveSeconds(86'400));
  cmd->add_option("--session-timeout-ms", options->session_timeout_ms, "ZooKeeper session timeout (default 6000)")
      ->check(CLI::Range(200, 600000));
  cmd->add_option("--connect-timeout-ms", options->connect_timeout_ms, "give up connecting after this long (default 10000)")
      ->check(CLI::Range(100, 600000));
  return [options] { return runController(*options); };
}

}  // namespace kcspec::cli
