// Ranks as threads of one process, for the distributed explorer's tests: a Communicator whose
// collectives meet at a barrier, so that N ranks run exploreDistributed at once without mpirun.
#pragma once

#include <algorithm>
#include <barrier>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "proofs/explorer/distributed/communicator.hpp"

namespace kcspec::explorer::distributed::test {

// What the ranks share: one mailbox per pair of ranks and one slot per rank.
class ThreadRanksShared {
 public:
  explicit ThreadRanksShared(int ranks)
      : ranks_(ranks),
        barrier_(ranks),
        mail_(static_cast<std::size_t>(ranks) * static_cast<std::size_t>(ranks)),
        numbers_(static_cast<std::size_t>(ranks)),
        bytes_(static_cast<std::size_t>(ranks)) {}

 private:
  friend class ThreadCommunicator;
  int ranks_;
  std::barrier<> barrier_;
  std::vector<std::string> mail_;                     // [from * ranks + to]
  std::vector<std::vector<std::uint64_t>> numbers_;  // per rank
  std::vector<std::string> bytes_;                    // per rank
};

class ThreadCommunicator final : public Communicator {
 public:
  ThreadCommunicator(ThreadRanksShared& shared, int rank) : shared_(shared), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return shared_.ranks_; }

  void exchange(const std::vector<std::string>& outgoing, std::vector<std::string>& incoming) override {
    const std::size_t n = static_cast<std::size_t>(size());
    for (std::size_t to = 0; to < n; ++to) {
      shared_.mail_[static_cast<std::size_t>(rank_) * n + to] = outgoing.at(to);
      if (static_cast<int>(to) != rank_) sent_ += outgoing[to].size();
    }
    shared_.barrier_.arrive_and_wait();
    incoming.assign(n, std::string());
    for (std::size_t from = 0; from < n; ++from) incoming[from] = shared_.mail_[from * n + static_cast<std::size_t>(rank_)];
    shared_.barrier_.arrive_and_wait();
  }
  void sumAll(std::span<std::uint64_t> values) override {
    reduce(values, [](std::uint64_t a, std::uint64_t b) { return a + b; });
  }
  void maxAll(std::span<std::uint64_t> values) override {
    reduce(values, [](std::uint64_t a, std::uint64_t b) { return std::max(a, b); });
  }
  void broadcast(std::string& bytes, int root) override {
    if (rank_ == root) shared_.bytes_[static_cast<std::size_t>(root)] = bytes;
    shared_.barrier_.arrive_and_wait();
    bytes = shared_.bytes_[static_cast<std::size_t>(root)];
    shared_.barrier_.arrive_and_wait();
  }
  std::vector<std::string> gather(const std::string& bytes, int root) override {
    shared_.bytes_[static_cast<std::size_t>(rank_)] = bytes;
    shared_.barrier_.arrive_and_wait();
    std::vector<std::string> out;
    if (rank_ == root) out = shared_.bytes_;
    shared_.barrier_.arrive_and_wait();
    return out;
  }
  std::uint64_t bytesSent() const override { return sent_; }

 private:
  void reduce(std::span<std::uint64_t> values, const std::function<std::uint64_t(std::uint64_t, std::uint64_t)>& op) {
    shared_.numbers_[static_cast<std::size_t>(rank_)].assign(values.begin(), values.end());
    shared_.barrier_.arrive_and_wait();
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::uint64_t total = shared_.numbers_[0].at(i);
      for (int r = 1; r < size(); ++r) total = op(total, shared_.numbers_[static_cast<std::size_t>(r)].at(i));
      values[i] = total;
    }
    shared_.barrier_.arrive_and_wait();
  }

  ThreadRanksShared& shared_;
  int rank_;
  std::uint64_t sent_ = 0;
};

// Runs `body(communicator)` on `ranks` threads at once, one rank each; returns each rank's result.
template <class Result>
std::vector<Result> onThreadRanks(int ranks, const std::function<Result(Communicator&)>& body) {
  ThreadRanksShared shared(ranks);
  std::vector<Result> results(static_cast<std::size_t>(ranks));
  {
    std::vector<std::jthread> threads;
    for (int r = 0; r < ranks; ++r) {
      threads.emplace_back([&, r] {
        ThreadCommunicator communicator(shared, r);
        results[static_cast<std::size_t>(r)] = body(communicator);
      });
    }
  }
  return results;
}

}  // namespace kcspec::explorer::distributed::test
