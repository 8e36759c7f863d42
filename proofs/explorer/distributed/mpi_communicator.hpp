// The Communicator of a run under `mpirun` (Open MPI, MPI_COMM_WORLD): every rank a process,
// possibly on other machines (docs/distributed.md). Only the thread that made it calls MPI
// (MPI_THREAD_FUNNELED): the explorer's worker threads never do.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofs/explorer/distributed/communicator.hpp"

namespace kcspec::explorer::distributed {

// Whether this process was started by mpirun (its environment names a rank).
bool startedByMpirun();

class MpiCommunicator final : public Communicator {
 public:
  // MPI_Init_thread; MPI_Finalize in the destructor.
  MpiCommunicator();
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void exchange(const std::vector<std::string>& outgoing, std::vector<std::string>& incoming) override;
  void sumAll(std::span<std::uint64_t> values) override;
  void maxAll(std::span<std::uint64_t> values) override;
  void broadcast(std::string& bytes, int root) override;
  std::vector<std::string> gather(const std::string& bytes, int root) override;
  std::uint64_t bytesSent() const override { return bytes_sent_; }

  // Ends every rank's process with `status` (MPI_Abort) after this rank printed `message` to
  // stderr: a rank that cannot go on must not leave the others waiting in a collective.
  [[noreturn]] void abortAll(std::string_view message, int status);

 private:
  int rank_ = 0;
  int size_ = 1;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace kcspec::explorer::distributed
