// What the distributed explorer (distributed_explorer.hpp) needs of the processes it runs on: a
// fixed group of ranks 0 … size()−1 and a few collective operations. Every operation is
// collective: every rank calls it, in the same order, or the run hangs (the explorer's rounds
// keep them in step). Two implementations: LocalCommunicator (one rank, no MPI: the search of
// one process through the distributed code path) and MpiCommunicator (mpi_communicator.hpp, Open
// MPI's MPI_COMM_WORLD under `mpirun`).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kcspec::explorer::distributed {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Sends outgoing[r] to rank r (outgoing.size() == size(); outgoing[rank()] is delivered to this
  // rank itself) and fills incoming[r] with what rank r sent this rank.
  virtual void exchange(const std::vector<std::string>& outgoing, std::vector<std::string>& incoming) = 0;
  // Element-wise across ranks, in place: every rank ends with the same values.
  virtual void sumAll(std::span<std::uint64_t> values) = 0;
  virtual void maxAll(std::span<std::uint64_t> values) = 0;
  // Root's bytes to every rank.
  virtual void broadcast(std::string& bytes, int root) = 0;
  // At root: every rank's bytes, in rank order; elsewhere: empty.
  virtual std::vector<std::string> gather(const std::string& bytes, int root) = 0;
  // The bytes this rank has sent to other ranks so far (what the network carried; a rank's
  // messages to itself are not counted).
  virtual std::uint64_t bytesSent() const = 0;
};

// One rank: every operation is local.
class LocalCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void exchange(const std::vector<std::string>& outgoing, std::vector<std::string>& incoming) override {
    incoming.assign(outgoing.begin(), outgoing.end());
  }
  void sumAll(std::span<std::uint64_t>) override {}
  void maxAll(std::span<std::uint64_t>) override {}
  void broadcast(std::string&, int) override {}
  std::vector<std::string> gather(const std::string& bytes, int) override { return {bytes}; }
  std::uint64_t bytesSent() const override { return 0; }
};

}  // namespace kcspec::explorer::distributed
