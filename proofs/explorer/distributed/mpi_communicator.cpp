// MpiCommunicator over Open MPI's C interface.
#include "proofs/explorer/distributed/mpi_communicator.hpp"

#include <mpi.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace kcspec::explorer::distributed {
namespace {

// MPI counts are ints: a round's messages to or from one rank must stay under 2 GiB.
int count(std::uint64_t bytes) {
  if (bytes > static_cast<std::uint64_t>(INT_MAX)) {
    throw std::length_error("a message between ranks exceeds 2 GiB (lower the batch: fewer threads per rank)");
  }
  return static_cast<int>(bytes);
}

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

}  // namespace

bool startedByMpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr ||
         std::getenv("PMI_RANK") != nullptr;
}

MpiCommunicator::MpiCommunicator() {
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  if (provided < MPI_THREAD_FUNNELED) throw std::runtime_error("MPI: this MPI does not allow threads (MPI_THREAD_FUNNELED)");
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
}

MpiCommunicator::~MpiCommunicator() { MPI_Finalize(); }

void MpiCommunicator::exchange(const std::vector<std::string>& outgoing, std::vector<std::string>& incoming) {
  const std::size_t n = static_cast<std::size_t>(size_);
  if (outgoing.size() != n) throw std::logic_error("exchange: one message per rank");
  std::vector<std::uint64_t> send_sizes(n), receive_sizes(n);
  for (std::size_t r = 0; r < n; ++r) send_sizes[r] = outgoing[r].size();
  check(MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, receive_sizes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD),
        "MPI_Alltoall");
  std::vector<int> send_counts(n), send_displacements(n), receive_counts(n), receive_displacements(n);
  std::uint64_t send_total = 0, receive_total = 0;
  for (std::size_t r = 0; r < n; ++r) {
    send_counts[r] = count(send_sizes[r]);
    send_displacements[r] = count(send_total);
    send_total += send_sizes[r];
    receive_counts[r] = count(receive_sizes[r]);
    receive_displacements[r] = count(receive_total);
    receive_total += receive_sizes[r];
    if (static_cast<int>(r) != rank_) bytes_sent_ += send_sizes[r];
  }
  count(send_total);
  count(receive_total);
  std::string send;
  send.reserve(send_total);
  for (const std::string& m : outgoing) send += m;
  std::string receive(receive_total, '\0');
  check(MPI_Alltoallv(send.data(), send_counts.data(), send_displacements.data(), MPI_BYTE, receive.data(),
                      receive_counts.data(), receive_displacements.data(), MPI_BYTE, MPI_COMM_WORLD),
        "MPI_Alltoallv");
  incoming.assign(n, std::string());
  for (std::size_t r = 0; r < n; ++r) {
    incoming[r].assign(receive, static_cast<std::size_t>(receive_displacements[r]), receive_sizes[r]);
  }
}

void MpiCommunicator::sumAll(std::span<std::uint64_t> values) {
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), count(values.size()), MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
}

void MpiCommunicator::maxAll(std::span<std::uint64_t> values) {
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), count(values.size()), MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD),
        "MPI_Allreduce");
}

void MpiCommunicator::broadcast(std::string& bytes, int root) {
  std::uint64_t size = bytes.size();
  check(MPI_Bcast(&size, 1, MPI_UINT64_T, root, MPI_COMM_WORLD), "MPI_Bcast");
  bytes.resize(size);
  check(MPI_Bcast(bytes.data(), count(size), MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast");
  if (rank_ == root) bytes_sent_ += size * static_cast<std::uint64_t>(size_ - 1);
}

std::vector<std::string> MpiCommunicator::gather(const std::string& bytes, int root) {
  const std::uint64_t size = bytes.size();
  std::vector<std::uint64_t> sizes(rank_ == root ? static_cast<std::size_t>(size_) : 0);
  check(MPI_Gather(&size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, root, MPI_COMM_WORLD), "MPI_Gather");
  std::vector<int> counts, displacements;
  std::uint64_t total = 0;
  for (std::uint64_t s : sizes) {
    counts.push_back(count(s));
    displacements.push_back(count(total));
    total += s;
  }
  std::string all(total, '\0');
  check(MPI_Gatherv(bytes.data(), count(size), MPI_BYTE, all.data(), counts.data(), displacements.data(), MPI_BYTE, root,
                    MPI_COMM_WORLD),
        "MPI_Gatherv");
  if (rank_ != root) {
    bytes_sent_ += size;
    return {};
  }
  std::vector<std::string> out;
  for (std::size_t r = 0; r < sizes.size(); ++r) out.emplace_back(all, static_cast<std::size_t>(displacements[r]), sizes[r]);
  return out;
}

void MpiCommunicator::abortAll(std::string_view message, int status) {
  std::fprintf(stderr, "kcspec explore: rank %d: %.*s; ending every rank\n", rank_, static_cast<int>(message.size()),
               message.data());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, status);
  std::abort();  // MPI_Abort does not return
}

}  // namespace kcspec::explorer::distributed
