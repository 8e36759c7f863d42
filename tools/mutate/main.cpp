// kcspec-mutate: writes the mutant schemata of the reference controller (docs/testing.md
// "Generated mutants"). Parses each given impl/controller/*.cpp with Clang (its flags from the
// build's compile_commands.json), finds every site of every operator (operators.hpp), and writes
//   <out>/<file>.cpp             the file with every site as `on(N) ? mutated : original`
//   <out>/generated_mutants_table.cpp   the table of impl/generated_mutants.hpp
// Run by the build (tools/mutate/CMakeLists.txt), not by hand. Files are rewritten only when
// their text changes. Exit 2 with `file: message` when a file cannot be parsed or written.
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "operators.hpp"
#include "site.hpp"

namespace fs = std::filesystem;
using kcspec::mutate::Site;

namespace {

struct Options {
  std::string build_dir, out_dir, source_root, resource_dir;
  std::vector<std::string> files;
};

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "kcspec-mutate: " << message << "\n";
  std::exit(2);
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path + ": cannot read");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeIfChanged(const fs::path& path, const std::string& text) {
  if (fs::exists(path) && readFile(path.string()) == text) return;
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out || !(out << text)) fail(temporary.string() + ": cannot write");
  }
  fs::rename(temporary, path);
}

std::string literal(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A mutant: its primary site and, for swap-arguments, the second argument's site.
struct Mutant {
  Site primary;
  std::vector<Site> more;
};

// Sites in match order → mutants, duplicates (a node matched twice) removed, in source order.
std::vector<Mutant> group(std::vector<Site> sites) {
  std::vector<Mutant> mutants;
  std::set<std::tuple<std::size_t, std::size_t, std::string, std::string>> seen;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    Mutant m{sites[i], {}};
    while (i + 1 < sites.size() && sites[i + 1].op == sites[i].op + "+") m.more.push_back(sites[++i]);
    if (!seen.insert({m.primary.begin, m.primary.end, m.primary.op, m.primary.prefix}).second) continue;
    mutants.push_back(std::move(m));
  }
  std::stable_sort(mutants.begin(), mutants.end(),
                   [](const Mutant& a, const Mutant& b) { return a.primary.begin < b.primary.begin; });
  return mutants;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) fail(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--build-dir") o.build_dir = value();
    else if (arg == "--out") o.out_dir = value();
    else if (arg == "--source-root") o.source_root = value();
    else if (arg == "--resource-dir") o.resource_dir = value();
    else if (arg.rfind("--", 0) == 0) fail("unknown option " + arg);
    else o.files.push_back(arg);
  }
  if (o.build_dir.empty() || o.out_dir.empty() || o.source_root.empty() || o.files.empty()) {
    fail("usage: kcspec-mutate --build-dir DIR --out DIR --source-root DIR [--resource-dir DIR] FILE.cpp...");
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  std::string error;
  std::unique_ptr<clang::tooling::CompilationDatabase> database =
      clang::tooling::CompilationDatabase::loadFromDirectory(o.build_dir, error);
  if (!database) fail(o.build_dir + ": " + error);
  fs::create_directories(o.out_dir);

  int next_id = 0;
  std::string table;
  std::size_t files_with_sites = 0;
  for (const std::string& file : o.files) {
    std::vector<Site> sites;
    kcspec::mutate::Operators operators(sites);
    clang::ast_matchers::MatchFinder finder;
    operators.registerOn(finder);
    clang::tooling::ClangTool tool(*database, {file});
    // g++'s flags in the database: Clang ignores the warnings it does not know.
    tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
        "-Wno-unknown-warning-option", clang::tooling::ArgumentInsertPosition::END));
    if (!o.resource_dir.empty()) {
      tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
          ("-resource-dir=" + o.resource_dir).c_str(), clang::tooling::ArgumentInsertPosition::END));
    }
    if (tool.run(clang::tooling::newFrontendActionFactory(&finder).get()) != 0) fail(file + ": Clang could not parse it");

    std::vector<Mutant> mutants = group(std::move(sites));
    std::vector<Site> numbered;
    const std::string relative = fs::relative(file, o.source_root).generic_string();
    for (Mutant& m : mutants) {
      const int id = next_id++;
      m.primary.id = id;
      numbered.push_back(m.primary);
      for (Site& s : m.more) {
        s.id = id;
        numbered.push_back(s);
      }
      table += "    {" + std::to_string(id) + ", " + literal(relative) + ", " + std::to_string(m.primary.line) + ", " +
               std::to_string(m.primary.column) + ", " + literal(m.primary.op) + ", " + literal(m.primary.original) +
               ", " + literal(m.primary.mutated) + "},\n";
    }
    files_with_sites += mutants.empty() ? 0 : 1;
    const std::string text = readFile(file);
    const std::string schema = "#include \"impl/generated_mutants.hpp\"\n#line 1 " + literal(relative) + "\n" +
                               kcspec::mutate::applySites(text, numbered);
    writeIfChanged(fs::path(o.out_dir) / fs::path(file).filename(), schema);
  }
  const std::string table_file =
      "// Written by kcspec-mutate (tools/mutate): the generated mutants of impl/controller.\n"
      "#include \"impl/generated_mutants.hpp\"\n\n"
      "namespace kcspec::impl::generated {\nnamespace {\n"
      "constexpr GeneratedMutant kTable[] = {\n" +
      table +
      "};\n}  // namespace\n\n"
      "std::span<const GeneratedMutant> table() { return kTable; }\n\n"
      "}  // namespace kcspec::impl::generated\n";
  writeIfChanged(fs::path(o.out_dir) / "generated_mutants_table.cpp", table_file);
  std::cout << "kcspec-mutate: " << next_id << " mutants in " << files_with_sites << " of " << o.files.size()
            << " files\n";
  return 0;
}
