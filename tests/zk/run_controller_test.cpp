// `kcspec run-controller` as a process: it serves until elected when another client frees
// /controller, refuses a chroot where its brokers or topics already exist, and reports a broker
// registered by another client instead of crashing.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "impl/cluster.hpp"
#include "impl/zookeeper/kafka_zk_client.hpp"
#include "impl/zookeeper/real_zk_store.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "zk_env.hpp"

namespace kcspec {
namespace {

struct Output {
  int exit_status = -1;
  std::string text;  // stdout and stderr
};

Output runKcspec(const std::string& args) {
  Output out;
  FILE* pipe = ::popen((std::string(KCSPEC_BINARY) + " " + args + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.text.append(buffer, n);
  const int status = ::pclose(pipe);
  out.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string writeScenario(const std::string& name, const std::string& text) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".scenario");
  std::ofstream(path) << text;
  return path.string();
}

// Appendix B.1 on the server, held open by this test process (brokers 1-3, controller 1, epoch 1).
struct Holder {
  std::string connect;
  std::unique_ptr<impl::zk::RealZkStore> store;
  std::unique_ptr<impl::ImplCluster> cluster;
};

Holder holdAppendixB1(const std::string& server) {
  Holder h;
  h.connect = server + zktest::freshChroot("runctl");
  impl::zk::RealZkOptions options;
  options.connect = h.connect;
  options.create_chroot = true;
  h.store = std::make_unique<impl::zk::RealZkStore>(options);
  const std::string path = std::string(KCSPEC_SOURCE_DIR) + "/tests/cli/appendix_b1.scenario";
  const Scenario scenario = parseScenario(zktest::readFile(path), path);
  h.cluster = std::make_unique<impl::ImplCluster>(scenario.config, *h.store);
  for (const Action& a : scenario.steps) h.cluster->apply(a);
  return h;
}

constexpr const char* kBroker4 = R"(# kcspec scenario v1
name broker-4
brokers 1 2 3 4
alive-at-start 4
topic t
  partition 0 replicas 1,2,3
steps
)";

TEST(RunController, ServesUntilElectedOnceAnotherClientFreesTheController) {
  KCSPEC_REQUIRE_ZK(server);
  Holder held = holdAppendixB1(server);
  const std::string scenario = writeScenario("broker-4", kBroker4);
  FILE* pipe = ::popen((std::string(KCSPEC_BINARY) + " run-controller --fake-clock --serve-until-elected 60 --zookeeper " + held.connect +
                        " --scenario " + scenario + " 2>&1")
                           .c_str(),
                       "r");
  ASSERT_NE(pipe, nullptr);
  // Give up /controller only once the other process runs (its broker 4 is registered).
  for (int i = 0; i < 600 && held.store->find("/brokers/ids/4") == nullptr; ++i) ::usleep(50000);
  ASSERT_NE(held.store->find("/brokers/ids/4"), nullptr);
  held.store->closeSession(impl::zk::controllerSession(1));
  std::string output;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  const int status = ::pclose(pipe);
  std::filesystem::remove(scenario);
  EXPECT_EQ(WEXITSTATUS(status), 0) << output;
  EXPECT_NE(output.find("# /controller is free: elect-controller 4"), std::string::npos) << output;
  EXPECT_NE(output.find("[Controller id=4 epoch=2]"), std::string::npos) << output;
  EXPECT_NE(output.find("# broker 4 is the active controller with epoch 2"), std::string::npos) << output;
}

TEST(RunController, RefusesWhatAnotherClientAlreadyCreated) {
  KCSPEC_REQUIRE_ZK(server);
  const Holder held = holdAppendixB1(server);
  const std::string path = std::string(KCSPEC_SOURCE_DIR) + "/tests/cli/appendix_b1.scenario";
  const Output busy = runKcspec("run-controller --zookeeper " + held.connect + " --scenario " + path);
  EXPECT_EQ(busy.exit_status, 2) << busy.text;
  EXPECT_NE(busy.text.find("appendix_b1.scenario: broker 1 is alive-at-start but /brokers/ids/1 already exists"), std::string::npos)
      << busy.text;
  const std::string restart = writeScenario("restart-1", std::string(kBroker4) + "start 1\n");
  const Output taken = runKcspec("run-controller --zookeeper " + held.connect + " --scenario " + restart);
  std::filesystem::remove(restart);
  EXPECT_EQ(taken.exit_status, 1) << taken.text;
  EXPECT_NE(taken.text.find(":8: start 1: /brokers/ids/1 is registered by another ZooKeeper client"), std::string::npos) << taken.text;
}

}  // namespace
}  // namespace kcspec
