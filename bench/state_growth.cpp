// How the spec's state count grows with brokers, partitions and each perturbation bound: explores
// a family of configurations (each one dimension away from a base), prints a Markdown table and
// writes an SVG plot (log-scale state counts). docs/performance.md holds its output.
//
//   build/bench/kcspec_state_growth [--svg FILE] [--max-seconds N] [--threads N]
//
// A run that does not complete within --max-seconds (default 120) is reported with the states
// it reached, marked "≥".
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "spec/rules/invariants.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace {

using namespace kcspec;
using namespace kcspec::explorer;

struct Case {
  std::string dimension;  // "brokers", "partitions", or a bound name
  int value = 0;
  Config config;
};

struct Row {
  std::string dimension;
  int value = 0;
  std::uint64_t states = 0;
  std::uint64_t transitions = 0;
  int depth = 0;
  double seconds = 0;
  bool complete = false;
};

// `brokers` brokers (ids 1…), topic t with `partitions` partitions at replication factor 2
// (partition p on brokers p+1, p+2, wrapping), an extra partition and a reassignment target for
// the bounds that need them, and the given bounds.
Config makeConfig(int brokers, int partitions, const Bounds& bounds) {
  std::string text = "name growth\nbrokers";
  for (int b = 1; b <= brokers; ++b) text += " " + std::to_string(b);
  text += "\nalive-at-start";
  for (int b = 1; b <= brokers; ++b) text += " " + std::to_string(b);
  text += "\ndelete.topic.enable true\nauto.leader.rebalance.enable false\ntopic t\n";
  const auto broker = [brokers](int i) { return std::to_string(i % brokers + 1); };
  for (int p = 0; p < partitions; ++p) text += "  partition " + std::to_string(p) + " replicas " + broker(p) + "," + broker(p + 1) + "\n";
  if (bounds.partition_additions > 0) text += "  add-partition replicas " + broker(1) + "," + broker(2) + "\n";
  if (bounds.reassignments > 0) text += "  reassign 0 to " + broker(1) + "," + broker(2) + "\n";
  text += "  exists-at-start true\n";
  Config config = parseConfig(text, "state_growth");
  config.bounds = bounds;
  return config;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  const Bounds crash{.crashes = 1};
  for (int brokers = 2; brokers <= 4; ++brokers) out.push_back({"brokers", brokers, makeConfig(brokers, 1, crash)});
  for (int partitions = 1; partitions <= 3; ++partitions) out.push_back({"partitions", partitions, makeConfig(3, partitions, crash)});
  for (std::size_t i = 0; i < kBoundNames.size(); ++i) {
    if (kBoundNames[i] == "topic-creations" || kBoundNames[i] == "auto-rebalances") continue;  // need another topic / flag
    for (int value = 0; value <= 2; ++value) {
      Bounds bounds;
      *boundField(bounds, i) = value;
      // A StopReplica error needs a deletion to answer.
      if (kBoundNames[i] == "stop-replica-errors") bounds.topic_deletions = 1;
      out.push_back({std::string(kBoundNames[i]), value, makeConfig(3, 2, bounds)});
    }
  }
  return out;
}

std::string number(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

void writeSvg(const std::vector<Row>& rows, const std::string& path) {
  std::map<std::string, std::vector<const Row*>> lines;
  std::vector<std::string> order;
  for (const Row& row : rows) {
    if (!lines.contains(row.dimension)) order.push_back(row.dimension);
    lines[row.dimension].push_back(&row);
  }
  const double width = 760, height = 460, left = 70, right = 210, top = 30, bottom = 50;
  const double plot_w = width - left - right, plot_h = height - top - bottom;
  std::uint64_t most = 10;
  for (const Row& row : rows) most = std::max(most, row.states);
  const double decades = std::ceil(std::log10(static_cast<double>(most)));
  const auto x_of = [&](int value) { return left + plot_w * (value - 0) / 4.0; };
  const auto y_of = [&](std::uint64_t states) {
    return top + plot_h * (1.0 - std::log10(std::max<double>(1.0, static_cast<double>(states))) / decades);
  };
  static const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                  "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#aec7e8"};
  std::ofstream svg(path);
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << left << "\" y=\"18\" font-size=\"14\">Spec states by configuration size (log scale; hollow = did not complete)</text>\n";
  for (int d = 0; d <= static_cast<int>(decades); ++d) {
    const double y = top + plot_h * (1.0 - d / decades);
    svg << "<line x1=\"" << left << "\" y1=\"" << y << "\" x2=\"" << left + plot_w << "\" y2=\"" << y
        << "\" stroke=\"#ddd\"/>\n<text x=\"" << left - 8 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">1e" << d << "</text>\n";
  }
  for (int v = 0; v <= 4; ++v) {
    svg << "<text x=\"" << x_of(v) << "\" y=\"" << top + plot_h + 18 << "\" text-anchor=\"middle\">" << v << "</text>\n";
  }
  svg << "<text x=\"" << left + plot_w / 2 << "\" y=\"" << height - 10
      << "\" text-anchor=\"middle\">brokers, partitions, or the bound's value</text>\n";
  for (std::size_t i = 0; i < order.size(); ++i) {
    const char* color = kColors[i % std::size(kColors)];
    std::string points;
    for (const Row* row : lines[order[i]]) points += std::to_string(x_of(row->value)) + "," + std::to_string(y_of(row->states)) + " ";
    svg << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\" points=\"" << points << "\"/>\n";
    for (const Row* row : lines[order[i]]) {
      svg << "<circle cx=\"" << x_of(row->value) << "\" cy=\"" << y_of(row->states) << "\" r=\"4\" stroke=\"" << color
          << "\" fill=\"" << (row->complete ? color : "white") << "\"/>\n";
    }
    const double ly = top + 16.0 * static_cast<double>(i) + 10;
    svg << "<line x1=\"" << width - right + 15 << "\" y1=\"" << ly << "\" x2=\"" << width - right + 40 << "\" y2=\"" << ly
        << "\" stroke=\"" << color << "\" stroke-width=\"2\"/>\n<text x=\"" << width - right + 46 << "\" y=\"" << ly + 4 << "\">"
        << order[i] << "</text>\n";
  }
  svg << "</svg>\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::string svg_path;
  int max_seconds = 120;
  unsigned threads = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--svg") svg_path = argv[i + 1];
    else if (flag == "--max-seconds") max_seconds = std::stoi(argv[i + 1]);
    else if (flag == "--threads") threads = static_cast<unsigned>(std::stoi(argv[i + 1]));
    else {
      std::fprintf(stderr, "usage: %s [--svg FILE] [--max-seconds N] [--threads N]\n", argv[0]);
      return 2;
    }
  }
  std::vector<Row> rows;
  std::printf("| dimension | value | states | transitions | depth | seconds | complete |\n|---|---|---|---|---|---|---|\n");
  for (const Case& c : cases()) {
    const SpecSystem system(c.config);
    ExploreOptions options;
    options.threads = threads;
    options.is_known_deviation = spec::isKnownKafkaDeviation;
    options.stop_at_violation = false;
    options.max_time = std::chrono::seconds(max_seconds);
    const auto result = explore(system, options);
    rows.push_back({c.dimension, c.value, result.states, result.transitions, result.max_depth, result.seconds, result.complete()});
    std::printf("| %s | %d | %s%s | %s | %d | %.1f | %s |\n", c.dimension.c_str(), c.value, result.complete() ? "" : "≥ ",
                number(result.states).c_str(), number(result.transitions).c_str(), result.max_depth, result.seconds,
                result.complete() ? "yes" : "no");
    std::fflush(stdout);
  }
  if (!svg_path.empty()) writeSvg(rows, svg_path);
  return 0;
}
