// MpiCommunicator over Open MPI's C interface.
#include "proofs/explorer/distributed/mpi_communicator.hpp"

#include <lz4.h>
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
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

// A message to another rank travels compressed (LZ4): a round's successors are siblings whose
// encodings share most of their bytes. 8 bytes of raw size, then LZ4's block.
std::string compressed(const std::string& raw) {
  std::string out(sizeof(std::uint64_t) + static_cast<std::size_t>(LZ4_compressBound(count(raw.size()))), '\0');
  const std::uint64_t size = raw.size();
  std::memcpy(out.data(), &size, sizeof size);
  const int written = LZ4_compress_default(raw.data(), out.data() + sizeof size, count(raw.size()),
                                           count(out.size() - sizeof size));
  if (written <= 0 && !raw.empty()) throw std::runtime_error("LZ4: a message between ranks did not compress");
  out.resize(sizeof size + static_cast<std::size_t>(std::max(written, 0)));
  return out;
}

std::string decompressed(std::string_view message) {
  std::uint64_t size = 0;
  if (message.size() < sizeof size) throw std::runtime_error("a message between ranks is shorter than its header");
  std::memcpy(&size, message.data(), sizeof size);
  std::string raw(size, '\0');
  const int read = LZ4_decompress_safe(message.data() + sizeof size, raw.data(), count(message.size() - sizeof size),
                                       count(size));
  if (read < 0 || static_cast<std::uint64_t>(read) != size) {
    throw std::runtime_error("a message between ranks did not decompress");
  }
  return raw;
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
  // To itself a rank sends its bytes as they are; to others, compressed.
  std::vector<std::string> packed(n);
  for (std::size_t r = 0; r < n; ++r) {
    if (static_cast<int>(r) != rank_) packed[r] = compressed(outgoing[r]);
  }
  const auto bytesFor = [&](std::size_t r) -> const std::string& {
    return static_cast<int>(r) == rank_ ? outgoing[r] : packed[r];
  };
  std::vector<std::uint64_t> send_sizes(n), receive_sizes(n);
  for (std::size_t r = 0; r < n; ++r) send_sizes[r] = bytesFor(r).size();
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
  for (std::size_t r = 0; r < n; ++r) send += bytesFor(r);
  std::string receive(receive_total, '\0');
  check(MPI_Alltoallv(send.data(), send_counts.data(), send_displacements.data(), MPI_BYTE, receive.data(),
                      receive_counts.data(), receive_displacements.data(), MPI_BYTE, MPI_COMM_WORLD),
        "MPI_Alltoallv");
  incoming.assign(n, std::string());
  for (std::size_t r = 0; r < n; ++r) {
    const std::string_view bytes =
        std::string_view(receive).substr(static_cast<std::size_t>(receive_displacements[r]), receive_sizes[r]);
    incoming[r] = static_cast<int>(r) == rank_ ? std::string(bytes) : decompressed(bytes);
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
