// The ZooKeeper server the zk tests run against: tests/zk/zk_server.sh started it (a CTest
// fixture) and wrote its connect string to $KCSPEC_ZK_DIR/connect, or wrote why it could not to
// $KCSPEC_ZK_DIR/unavailable; tests then skip with that reason (never silently pass).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace kcspec::zktest {

inline std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string out = text.str();
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

// The server's host:port, or nullopt with the reason in `why`.
inline std::optional<std::string> serverConnect(std::string& why) {
  const char* dir = std::getenv("KCSPEC_ZK_DIR");
  if (dir == nullptr) {
    why = "KCSPEC_ZK_DIR is not set (run through ctest, which starts the server)";
    return std::nullopt;
  }
  const std::string unavailable = readFile(std::string(dir) + "/unavailable");
  if (!unavailable.empty()) {
    why = "no ZooKeeper server: " + unavailable;
    return std::nullopt;
  }
  const std::string connect = readFile(std::string(dir) + "/connect");
  if (connect.empty()) {
    why = std::string("no ZooKeeper server: ") + dir + "/connect is missing";
    return std::nullopt;
  }
  return connect;
}

// A fresh chroot per use, so tests never see each other's znodes.
inline std::string freshChroot(const std::string& name) {
  static std::atomic<int> counter{0};
  return "/kcspec-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

}  // namespace kcspec::zktest

// In a TEST body: `connect` becomes the server's host:port, or the test is skipped with the reason.
#define KCSPEC_REQUIRE_ZK(connect)                                          \
  std::string connect;                                                      \
  {                                                                         \
    std::string why_;                                                       \
    const std::optional<std::string> found_ = ::kcspec::zktest::serverConnect(why_); \
    if (!found_) GTEST_SKIP() << why_;                                      \
    connect = *found_;                                                      \
  }
