// Output files are written atomically (cli/files.hpp writeFileAtomically, which every file kcspec
// writes goes through): a write that fails midway — here the file-size limit is hit after 64 KiB
// of a 1 MiB report — or a rename that cannot happen leaves the old file exactly as it was, and
// no temporary file behind.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/files.hpp"
#include "run_kcspec.hpp"

namespace kcspec::cli {
namespace {

namespace fs = std::filesystem;

class AtomicWrite : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kcspec-atomic-" + std::to_string(::getpid()) + "-" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The names in the folder (a temporary file left behind shows here).
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir_;
};

TEST_F(AtomicWrite, ReplacesTheWholeFileAndLeavesNoTemporary) {
  const fs::path report = dir_ / "report.scenario";
  writeFileAtomically(report, "old contents, longer than the new ones\n");
  writeFileAtomically(report, "new\n");
  EXPECT_EQ(cli_test::slurp(report), "new\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"report.scenario"});
}

TEST_F(AtomicWrite, CreatesMissingFolders) {
  const fs::path report = dir_ / "a" / "b" / "report.txt";
  writeFileAtomically(report, "x");
  EXPECT_EQ(cli_test::slurp(report), "x");
}

TEST_F(AtomicWrite, AWriteThatFailsMidwayKeepsTheOldFile) {
  const fs::path report = dir_ / "report.scenario";
  const std::string old_contents = "# kcspec scenario v1\nbrokers 1 2 3\nsteps\n";
  writeFileAtomically(report, old_contents);
  // In a child process: the file-size limit (64 KiB) cuts the 1 MiB write short with EFBIG.
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{64 * 1024, 64 * 1024};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    int status = 3;  // 3: the write succeeded, which it must not
    try {
      writeFileAtomically(report, std::string(1 << 20, 'y'));
    } catch (const UserError& e) {
      status = std::string(e.what()).find(report.string() + ": cannot write file") == 0 ? 0 : 4;
    } catch (...) {
      status = 5;
    }
    ::_exit(status);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "3: the write succeeded, 4: the message does not name the file, 5: another exception";
  EXPECT_EQ(cli_test::slurp(report), old_contents);
  EXPECT_EQ(entries(), std::vector<std::string>{"report.scenario"});
}

TEST_F(AtomicWrite, ARenameThatFailsKeepsWhatIsThere) {
  // The target is a folder with a file in it: the rename fails, the folder and its file stay.
  const fs::path target = dir_ / "out";
  fs::create_directories(target);
  writeFileAtomically(target / "keep.txt", "kept");
  EXPECT_THROW(writeFileAtomically(target, "report"), UserError);
  EXPECT_EQ(cli_test::slurp(target / "keep.txt"), "kept");
  EXPECT_EQ(entries(), std::vector<std::string>{"out"});
}

TEST_F(AtomicWrite, AnUnwritableFolderIsAUserErrorNamingThePath) {
  // A regular file where the folder should be.
  writeFileAtomically(dir_ / "file", "x");
  try {
    writeFileAtomically(dir_ / "file" / "report.txt", "y");
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find((dir_ / "file").string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(cli_test::slurp(dir_ / "file"), "x");
}

}  // namespace
}  // namespace kcspec::cli
