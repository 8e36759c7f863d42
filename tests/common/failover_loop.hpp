// The failover loop of a pending preferred election on one broker (docs/spec/rules.md, "Histories
// that outgrow the model"): t is queued for deletion and /admin/preferred_replica_election names
// t-0 before the first controller, so every failover fails and the next one begins, each sending
// broker 1 another round of requests — a history that outgrows the modeled world (its StopReplica
// responses fill 104 steps in). Shared by the explorer's, prove's and the command line's tests.
#pragma once

#include <string_view>

namespace kcspec::test {

inline constexpr std::string_view kFailoverLoopConfig = R"(# kcspec: the failover loop of a pending preferred election
name failover-loop
brokers 1
alive-at-start 1
delete.topic.enable true
topic t
  partition 0 replicas 1
  exists-at-start true
bound topic-deletions 1
bound zk-preferred-elections 1
)";

}  // namespace kcspec::test
