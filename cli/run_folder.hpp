// A run's complete record in one folder a person can keep (`--run-folder DIR` of explore, drive
// and mutants), the way a Maelstrom user finds a run's results:
//
//   DIR/index.html        the page to open: the command, the exit status and what it means, the
//                         configuration, the report, and every counterexample as its sequence
//                         diagram with a link to its scenario (relative links, no script)
//   DIR/command.txt       the command line, each word quoted for a shell
//   DIR/config.txt        the configuration (explore, drive)
//   DIR/report.txt        everything the command printed on standard output (report.json with --json)
//   DIR/counterexamples/  the counterexamples' scenario files and sequence diagrams (SVG)
//   DIR/sut-stderr.log    drive: the complete standard error of every SUT process
//
// The folder is checked for being writable before the work; standard output is copied into
// report.txt as it is printed (the terminal still sees it); finish() writes the rest.
#pragma once

#include <CLI/CLI.hpp>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "spec/vocabulary/config.hpp"

namespace kcspec::cli {

// The command line kcspec was started with (main sets it), for records of a run.
void setCommandLine(int argc, char** argv);
const std::vector<std::string>& commandLine();

class RunFolder {
 public:
  // Throws UserError("--run-folder", …) when `dir` cannot be written, or exists and is not empty
  // (a run folder holds one run: counterexamples of an older run would be mixed in).
  RunFolder(std::filesystem::path dir, bool json_report);
  ~RunFolder();  // an unfinished run (an exception) still leaves its record, marked as such
  RunFolder(const RunFolder&) = delete;
  RunFolder& operator=(const RunFolder&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path counterexamples() const { return dir_ / "counterexamples"; }
  std::filesystem::path sutStderr() const { return dir_ / "sut-stderr.log"; }

  void writeConfig(const Config& config);
  // Draws each counterexample scenario that has no diagram yet as `<same name>.svg` next to it,
  // through the spec, when each of its steps is enabled in the spec (a mutant's history may not be).
  void drawCounterexamples() const;

  // Stops copying standard output and writes command.txt and index.html.
  void finish(int exit_status);

 private:
  void stopCopy();
  void writeIndex(const std::string& status_text);

  std::filesystem::path dir_;
  bool json_report_;
  int saved_stdout_ = -1;
  int pipe_write_ = -1;
  int pipe_read_ = -1;
  int report_fd_ = -1;
  std::atomic<bool> stopping_{false};
  std::thread copier_;
  bool finished_ = false;
};

// Adds `--run-folder DIR` to `command`; it cannot be given with `out` (the folder holds the
// counterexamples then).
CLI::Option* addRunFolderOption(CLI::App* command, std::string& dir, CLI::Option* out);

// Runs `run(RunFolder*)` — with nullptr when `dir` is empty — and finishes the folder with the
// exit status it returns.
template <class Run>
int withRunFolder(const std::string& dir, bool json_report, Run&& run) {
  if (dir.empty()) return run(static_cast<RunFolder*>(nullptr));
  RunFolder folder(dir, json_report);
  const int status = run(&folder);
  folder.finish(status);
  return status;
}

}  // namespace kcspec::cli
