// readSnapshot from a live ZooKeeper server (zk_snapshot.hpp): the reader of zk_snapshot.cpp over
// RealZkStore's reads, counting the requests they took.
#include "impl/zookeeper/real_zk_store.hpp"
#include "proofs/zk_check/zk_snapshot.hpp"

namespace kcspec::zkcheck {

ZkSnapshot readSnapshot(const impl::zk::RealZkStore& zk, const SnapshotLimits& limits) {
  const std::uint64_t requests_before = zk.requestCount();
  ZkSnapshot out = readSnapshot(
      ZnodeReader{[&zk](std::string_view path) { return zk.find(path); },
                  [&zk](std::string_view path) { return zk.getChildren(path).second; }},
      limits);
  out.requests = zk.requestCount() - requests_before;
  return out;
}

}  // namespace kcspec::zkcheck
