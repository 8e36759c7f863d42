// RunFolder (run_folder.hpp): a run's record in one folder, with an index page.
#include "cli/run_folder.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "cli/exit_status.hpp"
#include "cli/files.hpp"
#include "cli/shell_word.hpp"
#include "docs/generator/markdown.hpp"
#include "docs/generator/sequence_diagram.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::cli {
namespace {

std::vector<std::string>& storedCommandLine() {
  static std::vector<std::string> words;
  return words;
}

std::string statusMeaning(int status) {
  switch (status) {
    case kExitHolds: return "checked to the end: nothing violated, no finding";
    case kExitViolation: return "a violation or finding (its counterexample is below)";
    case kExitBadInput: return "bad input (the message went to standard error)";
    case kExitIncomplete: return "incomplete: stopped by a limit, or nothing checked; nothing violated in what was checked";
    case kExitInterrupted: return "interrupted (SIGINT, SIGTERM or SIGHUP): the report is partial";
    default: return "an unexpected status";
  }
}

std::string readText(const std::filesystem::path& file) {
  std::optional<std::string> text = readFileIfExists(file);
  return text ? *text : std::string();
}

}  // namespace

void setCommandLine(int argc, char** argv) {
  storedCommandLine().assign(argv, argv + argc);
}

const std::vector<std::string>& commandLine() { return storedCommandLine(); }

RunFolder::RunFolder(std::filesystem::path dir, bool json_report) : dir_(std::move(dir)), json_report_(json_report) {
  checkWritableLater(dir_, /*folder=*/true, "--run-folder");
  std::error_code error;
  if (std::filesystem::exists(dir_, error) && !std::filesystem::is_empty(dir_, error)) {
    throw UserError("--run-folder", fmt::format("{} exists and is not empty: a run folder holds one run (name a new "
                                                "folder)",
                                                dir_.string()));
  }
  std::filesystem::create_directories(counterexamples(), error);
  if (error) throw UserError("--run-folder", fmt::format("{}: cannot create folder: {}", dir_.string(), error.message()));
  const std::filesystem::path report = dir_ / (json_report_ ? "report.json" : "report.txt");
  report_fd_ = ::open(report.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (report_fd_ < 0) throw UserError("--run-folder", fmt::format("{}: {}", report.string(), std::strerror(errno)));
  // Standard output goes through a pipe; a thread copies it to the terminal (or wherever it went)
  // and into the report file, so the report is the command's own text, byte for byte.
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw UserError("--run-folder", std::string("pipe: ") + std::strerror(errno));
  pipe_read_ = fds[0];
  pipe_write_ = fds[1];
  std::fflush(stdout);
  saved_stdout_ = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
  ::dup2(pipe_write_, 1);
  copier_ = std::thread([this] {
    char chunk[1 << 16];
    for (;;) {  // ends at the pipe's end, or when stopping and nothing more comes within 200 ms
      pollfd fd{pipe_read_, POLLIN, 0};
      const int ready = ::poll(&fd, 1, 200);
      if (ready == 0) {
        if (stopping_.load()) return;  // a child still holding the pipe must not keep us waiting
        continue;
      }
      const ssize_t n = ::read(pipe_read_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      // A failure on either side (a closed terminal, a full disk) does not stop the other.
      const std::string_view piece(chunk, static_cast<std::size_t>(n));
      (void)writeAll(saved_stdout_, piece);
      (void)writeAll(report_fd_, piece);
    }
  });
}

RunFolder::~RunFolder() {
  if (finished_) return;
  try {
    stopCopy();
    writeIndex("the command ended with an error before its report (the message went to standard error)");
  } catch (...) {  // a destructor reports nothing more: the error that got us here is on its way
  }
}

void RunFolder::stopCopy() {
  if (saved_stdout_ < 0) return;
  std::fflush(stdout);
  ::dup2(saved_stdout_, 1);  // fd 1 no longer holds the pipe
  ::close(pipe_write_);
  stopping_.store(true);
  copier_.join();
  ::close(pipe_read_);
  ::close(saved_stdout_);
  ::close(report_fd_);
  saved_stdout_ = pipe_write_ = pipe_read_ = report_fd_ = -1;
}

void RunFolder::writeConfig(const Config& config) { writeFileAtomically(dir_ / "config.txt", printConfig(config)); }

namespace {

std::vector<std::filesystem::path> scenariosIn(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> scenarios;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (entry.path().extension() == ".scenario") scenarios.push_back(entry.path());
  }
  std::sort(scenarios.begin(), scenarios.end());
  return scenarios;
}

std::filesystem::path diagramOf(const std::filesystem::path& scenario) {
  std::filesystem::path svg = scenario;
  return svg.replace_extension(".svg");
}

void drawScenario(const std::filesystem::path& scenario_file) {
  try {
    const Scenario scenario = parseScenario(readUserFile(scenario_file.string(), "a scenario file"), scenario_file.string());
    const std::filesystem::path svg = diagramOf(scenario_file);
    writeFileAtomically(svg, docs::renderSequenceDiagramSvg(
                                 scenario.config, scenario.steps,
                                 docs::SequenceDiagramOptions{.title = scenario_file.filename().string()}));
  } catch (const std::invalid_argument&) {  // a step the spec does not enable: no diagram
  } catch (const TextError&) {
  }
}

}  // namespace

void RunFolder::drawCounterexamples() const {
  for (const std::filesystem::path& scenario : scenariosIn(counterexamples())) {
    if (!std::filesystem::exists(diagramOf(scenario))) drawScenario(scenario);
  }
}

CLI::Option* addRunFolderOption(CLI::App* command, std::string& dir, CLI::Option* out) {
  CLI::Option* option = command->add_option(
      "--run-folder", dir,
      "Keep the run's complete record in this new folder: the command line, the configuration, the report, every "
      "counterexample's scenario and sequence diagram, an index.html to open (docs/reliability.md \"Run folders\")");
  if (out != nullptr) option->excludes(out);
  return option;
}

void RunFolder::finish(int exit_status) {
  stopCopy();
  writeIndex(fmt::format("exit status {}: {}", exit_status, statusMeaning(exit_status)));
  finished_ = true;
}

void RunFolder::writeIndex(const std::string& status_text) {
  using docs::escapeHtml;
  std::string command;
  for (const std::string& word : commandLine()) command += (command.empty() ? "" : " ") + shellWord(word);
  writeFileAtomically(dir_ / "command.txt", command + "\n");
  const std::vector<std::filesystem::path> scenarios = scenariosIn(counterexamples());
  const std::string report_name = json_report_ ? "report.json" : "report.txt";
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>kcspec run: {}</title>\n"
      "<style>body{{font-family:sans-serif;max-width:80em;margin:1em auto}}pre{{background:#f4f4f4;padding:.5em;"
      "overflow:auto;max-height:40em}}img{{max-width:100%;border:1px solid #ccc}}</style></head><body>\n"
      "<h1>kcspec run</h1>\n<p><code>{}</code></p>\n<p><strong>{}</strong></p>\n",
      escapeHtml(command), escapeHtml(command), escapeHtml(status_text));
  html += fmt::format("<h2>Counterexamples ({})</h2>\n", scenarios.size());
  if (scenarios.empty()) html += "<p>None.</p>\n";
  for (const std::filesystem::path& scenario : scenarios) {
    const std::string name = scenario.filename().string();
    const std::filesystem::path svg = diagramOf(scenario);
    html += fmt::format("<h3>{}</h3>\n<p><a href=\"counterexamples/{}\">scenario</a> (replay it with "
                        "<code>kcspec replay</code>)</p>\n",
                        escapeHtml(name), escapeHtml(name));
    if (std::filesystem::exists(svg)) {
      html += fmt::format("<p><img src=\"counterexamples/{}\" alt=\"sequence diagram of {}\"></p>\n",
                          escapeHtml(svg.filename().string()), escapeHtml(name));
    } else {
      html += "<p>No sequence diagram: a step of this history is not enabled in the spec (a mutant's history).</p>\n";
    }
    html += "<pre>" + escapeHtml(readText(scenario)) + "</pre>\n";
  }
  if (std::filesystem::exists(sutStderr())) {
    html += "<h2>The SUT's standard error</h2>\n<p><a href=\"sut-stderr.log\">sut-stderr.log</a> (every SUT process, "
            "complete)</p>\n";
  }
  if (std::filesystem::exists(dir_ / "config.txt")) {
    html += "<h2>Configuration</h2>\n<pre>" + escapeHtml(readText(dir_ / "config.txt")) + "</pre>\n";
  }
  html += fmt::format("<h2>Report</h2>\n<p><a href=\"{}\">{}</a></p>\n<pre>{}</pre>\n</body></html>\n", report_name,
                      report_name, escapeHtml(readText(dir_ / report_name)));
  writeFileAtomically(dir_ / "index.html", html);
}

}  // namespace kcspec::cli
