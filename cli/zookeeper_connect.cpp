// checkZookeeperConnect (zookeeper_connect.hpp).
#include "cli/zookeeper_connect.hpp"

#include <charconv>

#include "cli/files.hpp"

namespace kcspec::cli {

std::string checkZookeeperConnect(const std::string& connect) {
  const auto fail = [&](const std::string& why) -> std::string {
    throw UserError("--zookeeper", "'" + connect + "': " + why + " (expected HOST:PORT[,HOST:PORT...][/chroot])");
  };
  const std::size_t slash = connect.find('/');
  const std::string hosts = connect.substr(0, slash);
  if (hosts.empty()) return fail("no host");
  std::size_t start = 0;
  while (start <= hosts.size()) {
    const std::size_t comma = std::min(hosts.find(',', start), hosts.size());
    const std::string host_port = hosts.substr(start, comma - start);
    const std::size_t colon = host_port.rfind(':');
    if (colon == std::string::npos || colon == 0) return fail("'" + host_port + "' is not HOST:PORT");
    const std::string port_text = host_port.substr(colon + 1);
    int port = 0;
    const auto [ptr, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || ptr != port_text.data() + port_text.size() || port < 1 || port > 65535) {
      return fail("'" + port_text + "' is not a port number");
    }
    start = comma + 1;
  }
  if (slash != std::string::npos) {
    const std::string chroot = connect.substr(slash);
    if (chroot.size() > 1 && chroot.back() == '/') return fail("the chroot must not end with '/'");
    if (chroot.find("//") != std::string::npos) return fail("the chroot has an empty path element");
  }
  return connect;
}

}  // namespace kcspec::cli
