// The --zookeeper HOST:PORT[,HOST:PORT…][/chroot] argument of check-zk and run-controller.
#pragma once

#include <string>

namespace kcspec::cli {

// Returns the connect string if well formed; throws UserError("--zookeeper", why) otherwise.
std::string checkZookeeperConnect(const std::string& connect);

}  // namespace kcspec::cli
