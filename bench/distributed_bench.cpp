// kcspec_distributed_bench: the cost of distribution on one machine, and a model of a run on many
// (docs/performance.md "Distributed", docs/distributed.md). For each preset it runs, alternately,
// `kcspec explore --preset P --threads R` (one process, R threads) and `mpirun -np R kcspec
// explore --preset P --threads 1 --distributed` (R ranks of one thread), and prints their wall
// times and ratio, that the counts agree, the bytes the ranks sent per state, each rank's states/s
// and peak resident memory per state. Then it predicts the wall time of a named configuration on
// N machines from those measurements: each machine a rank, its states/s as measured, the bytes
// it sends per state scaled to N ranks (a successor goes to another rank with probability
// (N−1)/N), over links of 1 and 10 Gbit/s, computation and exchange not overlapping (the search's
// rounds do not overlap them).
//
//   kcspec_distributed_bench [--kcspec PATH] [--mpirun PATH] [--presets default,medium] [--ranks 2]
//                            [--repeat 1] [--model-name NAME --model-states N]
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Run {
  nlohmann::json report;
  double seconds = 0;
  double max_rss_bytes = 0;  // of the process, or of the largest rank under mpirun
};

// Runs argv, its stdout into a string; the wall time and the largest resident set among it and
// the processes it waited for.
Run run(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(pipe_fds[1], 1);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string out;
  char buffer[65536];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<std::size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  Run r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // wait4's figure covers the child and the processes it waited for (mpirun's ranks).
  r.max_rss_bytes = static_cast<double>(usage.ru_maxrss) * 1024.0;
  if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
    throw std::runtime_error(fmt::format("`{}` failed (status {})", argv[0], status));
  }
  r.report = nlohmann::json::parse(out);
  return r;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    const std::size_t end = list.find(',', begin);
    out.push_back(list.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string kcspec = "build/kcspec", mpirun = "mpirun", presets = "default,medium";
  std::string model_name = "every-perturbation through depth 9 (about ten times its 186,842,480 states by depth 8)";
  double model_states = 1.87e9;
  int ranks = 2, repeat = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--kcspec") kcspec = value;
    else if (flag == "--mpirun") mpirun = value;
    else if (flag == "--presets") presets = value;
    else if (flag == "--ranks") ranks = std::stoi(value);
    else if (flag == "--repeat") repeat = std::stoi(value);
    else if (flag == "--model-name") model_name = value;
    else if (flag == "--model-states") model_states = std::stod(value);
    else {
      fmt::print(stderr, "unknown flag {}\n", flag);
      return 2;
    }
  }
  fmt::print("kcspec_distributed_bench --presets {} --ranks {} --repeat {}\n\n", presets, ranks, repeat);
  fmt::print("| preset | states | 1 process × {r} threads: s | {r} ranks × 1 thread: s | ratio | same counts | bytes sent a state | states/s a rank | peak RSS a state: one process, a rank |\n",
             fmt::arg("r", ranks));
  fmt::print("|---|---:|---:|---:|---:|---|---:|---:|---|\n");
  double rank_rate = 0, bytes_per_state = 0, rss_per_state = 0;
  for (const std::string& preset : split(presets)) {
    std::vector<double> one_s, spread_s;
    Run one, spread;
    for (int k = 0; k < repeat; ++k) {  // alternating, so that the machine's drift hits both
      one = run({kcspec, "explore", "--preset", preset, "--json", "--threads", std::to_string(ranks), "--out", "/tmp/kcspec-bench-out"});
      spread = run({mpirun, "--allow-run-as-root", "--oversubscribe", "-np", std::to_string(ranks), kcspec, "explore",
                    "--preset", preset, "--json", "--threads", "1", "--distributed", "--out", "/tmp/kcspec-bench-out"});
      one_s.push_back(one.seconds);
      spread_s.push_back(spread.seconds);
    }
    std::sort(one_s.begin(), one_s.end());
    std::sort(spread_s.begin(), spread_s.end());
    const double a = one_s[one_s.size() / 2], b = spread_s[spread_s.size() / 2];
    const double states = spread.report["states"].get<double>();
    const bool same = one.report["states"] == spread.report["states"] &&
                      one.report["transitions"] == spread.report["transitions"] &&
                      one.report["violations"].size() == spread.report["violations"].size();
    bytes_per_state = spread.report["distributed"]["bytes_sent"].get<double>() / states;
    rank_rate = states / ranks / b;
    rss_per_state = spread.max_rss_bytes * ranks / states;
    fmt::print("| `{}` | {:.0f} | {:.1f} | {:.1f} | {:.2f}× | {} | {:.0f} | {:.0f} | {:.0f} B, {:.0f} B |\n", preset, states, a,
               b, b / a, same ? "yes" : "NO", bytes_per_state, rank_rate, one.max_rss_bytes / states, rss_per_state);
  }
  // The model, from the last preset's figures.
  fmt::print("\nmodel: {} ({:.3g} states), from the last preset: {:.0f} states/s a rank, {:.0f} bytes sent a state on {} ranks, "
             "{:.0f} bytes resident a state\n",
             model_name, model_states, rank_rate, bytes_per_state, ranks, rss_per_state);
  fmt::print("| machines | memory a machine | 1 Gbit/s | 10 Gbit/s |\n|---:|---:|---:|---:|\n");
  const double remote_measured = static_cast<double>(ranks - 1) / ranks;
  for (int n : {4, 8, 16, 32, 64}) {
    const double remote = static_cast<double>(n - 1) / n;
    const double sent = bytes_per_state / remote_measured * remote;  // bytes a state on n ranks
    const double compute = model_states / (n * rank_rate);
    const auto hours = [&](double link_bits) { return (compute + model_states * sent / n * 8.0 / link_bits) / 3600.0; };
    fmt::print("| {} | {:.1f} GB | {:.1f} h | {:.1f} h |\n", n, model_states * rss_per_state / n / 1e9, hours(1e9), hours(1e10));
  }
  return 0;
}
