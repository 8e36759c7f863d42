#include "proofs/explorer/canonical_fingerprint.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace kcspec::explorer {
namespace {

// What a broker's data shows without naming any broker: the same for b in a state and for σ(b)
// in its image under σ (its slots move with it; ids inside them are left out). So the least
// signature vector over a class's images is the same from every member, and the images that reach
// it are the same set from every member: the least encoding among those is the class's.
std::uint64_t signatureOf(const Observation& world, BrokerId b) {
  const auto slot = static_cast<std::size_t>(b);
  const BrokerData& broker = world.brokers[slot];
  const BrokerRegistration& registration = world.zk.brokers[slot];
  std::uint64_t present = 0;
  for (const HostedReplica& replica : broker.replicas) present += replica.present ? 1 : 0;
  const std::array<std::uint64_t, 16> fields{
      broker.alive,
      static_cast<std::uint64_t>(broker.broker_epoch + 1),
      static_cast<std::uint64_t>(broker.known_controller_epoch),
      broker.inbox.size(),
      broker.outbox.size(),
      broker.leader_and_isr_responses.size(),
      static_cast<std::uint64_t>(broker.offline_log_dir_replicas.size()),
      static_cast<std::uint64_t>(broker.pending_isr_changes.size()),
      broker.ibp_upgraded,
      present,
      broker.controller.active,
      broker.controller.session_lost,
      broker.controller.events.size(),
      registration.registered,
      static_cast<std::uint64_t>(registration.broker_epoch + 1),
      world.zk.controller == b,
  };
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::uint64_t f : fields) h = (h ^ f) * 0x100000001b3ULL + (h >> 29);  // any mixing: only equality is used
  return h;
}

}  // namespace

CanonicalFingerprint::CanonicalFingerprint(const Config& config) : shape_(config) {
  for (const BrokerPermutation& sigma : configSymmetry(config).permutations) {
    if (!sigma.isIdentity() && keepsTopicsAndPartitions(config, sigma)) permutations_.push_back(sigma);
  }
  for (const BrokerPermutation& sigma : permutations_) {
    BrokerPermutation inverse = sigma;
    for (BrokerId b = 0; b < kMaxBrokers; ++b) inverse.to[static_cast<std::size_t>(sigma(b))] = b;
    inverses_.push_back(inverse);
  }
  for (std::uint8_t b : shape_.brokers()) brokers_.push_back(static_cast<BrokerId>(b));
}

Fingerprint CanonicalFingerprint::operator()(const Observation& world, const Bounds& budget) const {
  // One set of buffers per thread, reused. Only the shape's slots are written (copyWorld) and
  // read (encodeWorld); the permutations map the shape's brokers onto themselves, so what another
  // configuration left in the other slots on this thread is never looked at.
  thread_local Observation renumbered, image;
  thread_local std::string least, bytes;
  copyWorld(world, renumbered, shape_);
  renumberBrokerEpochs(renumbered);
  // The image under σ has at slot b the data of σ⁻¹(b): its signature vector, over the shape's
  // brokers in id order, is (signature of σ⁻¹(b))_b. Only the permutations whose vector is the
  // least (the identity's included) can give the least encoding; the others are not encoded.
  std::array<std::uint64_t, kMaxBrokers> signature{};
  for (BrokerId b : brokers_) signature[static_cast<std::size_t>(b)] = signatureOf(renumbered, b);
  const auto vectorOf = [&](const BrokerPermutation* inverse, std::array<std::uint64_t, kMaxBrokers>& out) {
    for (std::size_t i = 0; i < brokers_.size(); ++i) {
      const BrokerId b = brokers_[i];
      out[i] = signature[static_cast<std::size_t>(inverse != nullptr ? (*inverse)(b) : b)];
    }
  };
  std::array<std::uint64_t, kMaxBrokers> least_vector{}, vector{};
  vectorOf(nullptr, least_vector);
  thread_local std::vector<std::size_t> candidates;  // positions in permutations_
  candidates.clear();
  bool identity_is_a_candidate = true;
  for (std::size_t k = 0; k < permutations_.size(); ++k) {  // bounded by the group's size (≤ 8!)
    vectorOf(&inverses_[k], vector);
    const auto order = std::lexicographical_compare_three_way(vector.begin(), vector.begin() + brokers_.size(),
                                                             least_vector.begin(), least_vector.begin() + brokers_.size());
    if (order > 0) continue;
    if (order < 0) {
      least_vector = vector;
      candidates.clear();
      identity_is_a_candidate = false;
    }
    candidates.push_back(k);
  }
  least.clear();
  if (identity_is_a_candidate) encodeWorld(renumbered, budget, shape_, least);
  for (std::size_t k : candidates) {
    copyWorld(renumbered, image, shape_);
    relabel(image, permutations_[k]);
    bytes.clear();
    encodeWorld(image, budget, shape_, bytes);
    if (least.empty() || bytes < least) least.swap(bytes);
  }
  return hashEncoding(least);
}

}  // namespace kcspec::explorer
