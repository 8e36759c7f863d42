#include "operators.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

namespace kcspec::mutate {
namespace {

using namespace clang;
using namespace clang::ast_matchers;

constexpr std::size_t kMaxShownChars = 70;  // of `original` and `mutated` in the table

std::string oneLine(std::string text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > kMaxShownChars) out = out.substr(0, kMaxShownChars - 3) + "...";
  return out;
}

bool mentions(const std::string& text, std::string_view word) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find(word) != std::string::npos;
}

// The byte range of `range` in the main file, or nothing when any part of it is in a macro or
// another file.
std::optional<std::pair<std::size_t, std::size_t>> mainFileRange(const SourceManager& sm, const LangOptions& lang,
                                                                   SourceRange range) {
  if (range.getBegin().isMacroID() || range.getEnd().isMacroID()) return std::nullopt;
  if (!sm.isInMainFile(range.getBegin()) || !sm.isInMainFile(range.getEnd())) return std::nullopt;
  const SourceLocation end = Lexer::getLocForEndOfToken(range.getEnd(), 0, sm, lang);
  if (end.isInvalid()) return std::nullopt;
  const std::size_t b = sm.getFileOffset(range.getBegin());
  const std::size_t e = sm.getFileOffset(end);
  if (e < b) return std::nullopt;
  return std::make_pair(b, e);
}

// The innermost function around `node` that is not a lambda's call operator (a lambda is
// implicitly constexpr whenever it can be: what counts is the function it is written in), if any.
template <class Node>
const FunctionDecl* enclosingFunction(ASTContext& context, const Node& node) {
  DynTypedNodeList parents = context.getParents(node);
  for (int depth = 0; depth < 256 && !parents.empty(); ++depth) {  // bounded: ASTs are shallow
    const DynTypedNode& parent = parents[0];
    if (const auto* f = parent.get<FunctionDecl>()) {
      const auto* m = dyn_cast<CXXMethodDecl>(f);
      if (m == nullptr || !m->getParent()->isLambda()) return f;
    }
    parents = context.getParents(parent);
  }
  return nullptr;
}

// Inside a call that only logs (StateChangeLogger's trace/info), where a change shows nowhere
// the checks look by design: not mutated.
template <class Node>
bool insideLogging(ASTContext& context, const Node& node) {
  DynTypedNodeList parents = context.getParents(node);
  for (int depth = 0; depth < 256 && !parents.empty(); ++depth) {
    const DynTypedNode& parent = parents[0];
    if (const auto* call = parent.get<CXXMemberCallExpr>()) {
      if (const CXXMethodDecl* m = call->getMethodDecl()) {
        const std::string cls = m->getParent()->getNameAsString();
        const std::string name = m->getNameAsString();
        if (cls == "StateChangeLogger" && (name == "trace" || name == "info")) return true;
      }
    }
    parents = context.getParents(parent);
  }
  return false;
}

// Inside the code of a hand-written mutant (impl/mutants.hpp): the then-branch of
// `if (<…mutant…>)` or the else-branch of `if (!<…mutant…>)`. Such code runs only with --mutant.
template <class Node>
bool insideHandWrittenMutant(ASTContext& context, const Node& node) {
  const SourceManager& sm = context.getSourceManager();
  DynTypedNode child = DynTypedNode::create(node);
  DynTypedNodeList parents = context.getParents(node);
  for (int depth = 0; depth < 256 && !parents.empty(); ++depth) {
    const DynTypedNode& parent = parents[0];
    if (const auto* branch = parent.get<IfStmt>()) {
      const std::string condition =
          Lexer::getSourceText(CharSourceRange::getTokenRange(branch->getCond()->getSourceRange()), sm, context.getLangOpts())
              .str();
      if (condition.find("mutant") != std::string::npos) {
        // `mutant(M) && …` runs its then-branch only with the mutant on; `!mutant(M)` alone runs its
        // else-branch only then. With `||` (or a negated switch among others) both branches also
        // run without the mutant: they are ordinary code.
        const bool negated = condition.find("!services_.mutant") != std::string::npos ||
                             condition.find("!mutants.has") != std::string::npos;
        const bool has_or = condition.find("||") != std::string::npos;
        const bool has_and = condition.find("&&") != std::string::npos;
        const Stmt* in = child.get<Stmt>();
        if (!negated && !has_or && in != nullptr && in == branch->getThen()) return true;
        if (negated && !has_or && !has_and && in != nullptr && in == branch->getElse()) return true;
      }
    }
    child = parent;
    parents = context.getParents(parent);
  }
  return false;
}

class SiteCallback : public MatchFinder::MatchCallback {
 public:
  explicit SiteCallback(std::vector<Site>& sites) : sites_(sites) {}

 protected:
  // The text of [b, e) of the main file.
  static std::string text(const SourceManager& sm, std::size_t b, std::size_t e) {
    const StringRef buffer = sm.getBufferData(sm.getMainFileID());
    return buffer.substr(b, e - b).str();
  }

  // Common filters: a site in a function that runs at run time, not a log line, not a mutant switch.
  template <class Node>
  bool eligible(ASTContext& context, const Node& node, const std::string& code) {
    const FunctionDecl* f = enclosingFunction(context, node);
    if (f == nullptr || f->isConstexpr() || f->isConsteval()) return false;
    if (insideLogging(context, node) || insideHandWrittenMutant(context, node)) return false;
    if (code.find("mutant") != std::string::npos) return false;
    return true;
  }

  // The bytes and text of `node` when it is an eligible site wholly in the main file.
  struct Spelled {
    std::size_t begin, end;
    std::string code;
  };
  std::optional<Spelled> spelled(const MatchFinder::MatchResult& r, const Expr& node) {
    auto range = mainFileRange(*r.SourceManager, r.Context->getLangOpts(), node.getSourceRange());
    if (!range) return std::nullopt;
    std::string code = text(*r.SourceManager, range->first, range->second);
    if (!eligible(*r.Context, node, code)) return std::nullopt;
    return Spelled{range->first, range->second, std::move(code)};
  }

  void add(const SourceManager& sm, std::size_t b, std::size_t e, std::string op, std::string original,
           std::string mutated, std::string prefix, std::string suffix) {
    Site s;
    s.begin = b;
    s.end = e;
    s.op = std::move(op);
    s.original = oneLine(std::move(original));
    s.mutated = oneLine(std::move(mutated));
    s.prefix = std::move(prefix);
    s.suffix = std::move(suffix);
    const SourceLocation loc = sm.getComposedLoc(sm.getMainFileID(), static_cast<unsigned>(b));
    s.line = static_cast<int>(sm.getSpellingLineNumber(loc));
    s.column = static_cast<int>(sm.getSpellingColumnNumber(loc));
    sites_.push_back(std::move(s));
  }

  static constexpr const char* kOn = "::kcspec::impl::generated::on(@ID@)";

 private:
  std::vector<Site>& sites_;
};

// negate-condition: the condition of an if, while, for or ?: is negated.
class NegateCondition : public SiteCallback {
 public:
  using SiteCallback::SiteCallback;
  void run(const MatchFinder::MatchResult& r) override {
    const auto site = spelled(r, *r.Nodes.getNodeAs<Expr>("cond"));
    if (!site) return;
    add(*r.SourceManager, site->begin, site->end, "negate-condition", site->code, "!(" + site->code + ")",
        std::string("(") + kOn + " != static_cast<bool>(", "))");
  }
};

// drop-call / drop-assignment: a statement that is a call, an assignment or an increment does nothing.
class DropStatement : public SiteCallback {
 public:
  using SiteCallback::SiteCallback;
  void run(const MatchFinder::MatchResult& r) override {
    const auto* e = r.Nodes.getNodeAs<Expr>("stmt");
    const auto site = spelled(r, *e);
    if (!site) return;
    const Expr* inner = e->IgnoreImplicit();
    const bool call = isa<CallExpr>(inner) && !isa<CXXOperatorCallExpr>(inner);
    if (const auto* member = dyn_cast<CXXMemberCallExpr>(inner)) {
      if (const CXXMethodDecl* m = member->getMethodDecl()) {
        const std::string cls = m->getParent()->getNameAsString();
        if (cls == "StateChangeLogger") return;  // its lines are not compared as text (docs/testing.md)
      }
    }
    add(*r.SourceManager, site->begin, site->end, call ? "drop-call" : "drop-assignment", site->code, "(nothing)",
        std::string("(") + kOn + " ? static_cast<void>(0) : static_cast<void>(", "))");
  }
};

// drop-filter: a predicate lambda's `return <bool>` always keeps (true).
class DropFilter : public SiteCallback {
 public:
  using SiteCallback::SiteCallback;
  void run(const MatchFinder::MatchResult& r) override {
    const Expr* value = r.Nodes.getNodeAs<Expr>("value");
    // `return true` already keeps: its mutant would be the original (session 33's G68).
    if (const auto* literal = dyn_cast<CXXBoolLiteralExpr>(value->IgnoreParenImpCasts()); literal && literal->getValue()) {
      return;
    }
    const auto site = spelled(r, *value);
    if (!site) return;
    add(*r.SourceManager, site->begin, site->end, "drop-filter", site->code, "true",
        std::string("(") + kOn + " || static_cast<bool>(", "))");
  }
};

// swap-arguments: two adjacent arguments of one scalar type (ids, epochs, states) are swapped.
class SwapArguments : public SiteCallback {
 public:
  using SiteCallback::SiteCallback;
  void run(const MatchFinder::MatchResult& r) override {
    const auto* call = r.Nodes.getNodeAs<CallExpr>("call");
    if (const FunctionDecl* callee = call->getDirectCallee()) {
      const std::string qualified = callee->getQualifiedNameAsString();
      if (qualified.rfind("fmt::", 0) == 0 || qualified.rfind("std::", 0) == 0) return;  // formatting, std helpers
    }
    const SourceManager& sm = *r.SourceManager;
    const LangOptions& lang = r.Context->getLangOpts();
    for (unsigned i = 0; i + 1 < call->getNumArgs(); ++i) {
      const Expr* a = call->getArg(i);
      const Expr* b = call->getArg(i + 1);
      if (isa<CXXDefaultArgExpr>(a) || isa<CXXDefaultArgExpr>(b)) continue;
      const QualType ta = a->getType().getCanonicalType().getUnqualifiedType();
      const QualType tb = b->getType().getCanonicalType().getUnqualifiedType();
      if (ta != tb || !ta->isScalarType() || ta->isPointerType()) continue;
      auto ra = mainFileRange(sm, lang, a->getSourceRange());
      auto rb = mainFileRange(sm, lang, b->getSourceRange());
      if (!ra || !rb) continue;
      const std::string ca = text(sm, ra->first, ra->second);
      const std::string cb = text(sm, rb->first, rb->second);
      if (ca == cb || !eligible(*r.Context, *call, ca + cb)) continue;
      // Both arguments are side-effect free names or constants (each is evaluated once either way).
      if (a->HasSideEffects(*r.Context) || b->HasSideEffects(*r.Context)) continue;
      const std::string whole = text(sm, ra->first, rb->second);
      // One site for the pair: the first argument's range carries the mutant; the second is
      // rewritten by a second site with the same id (see Operators::registerOn's note).
      add(sm, ra->first, ra->second, "swap-arguments", whole, cb + ", " + ca,
          std::string("(") + kOn + " ? (" + cb + ") : (", "))");
      add(sm, rb->first, rb->second, "swap-arguments+", "", "",
          std::string("(") + kOn + " ? (" + ca + ") : (", "))");
    }
  }
};

// off-by-one: `epoch + 1` / `version + 1` adds 0, and a comparison with an epoch or version
// moves its boundary (< and <=, > and >= exchanged).
class OffByOne : public SiteCallback {
 public:
  using SiteCallback::SiteCallback;
  void run(const MatchFinder::MatchResult& r) override {
    const SourceManager& sm = *r.SourceManager;
    const LangOptions& lang = r.Context->getLangOpts();
    if (const auto* one = r.Nodes.getNodeAs<IntegerLiteral>("one")) {
      const auto* plus = r.Nodes.getNodeAs<BinaryOperator>("plus");
      auto range = mainFileRange(sm, lang, one->getSourceRange());
      auto whole = mainFileRange(sm, lang, plus->getSourceRange());
      if (!range || !whole) return;
      const std::string code = text(sm, whole->first, whole->second);
      if (!mentions(code, "epoch") && !mentions(code, "version")) return;
      if (!eligible(*r.Context, *plus, code)) return;
      const std::string op = plus->getOpcodeStr().str();
      add(sm, range->first, range->second, "off-by-one", code, code.substr(0, code.rfind(op)) + op + " 0",
          std::string("(") + kOn + " ? 0 : ", ")");
      return;
    }
    const auto* cmp = r.Nodes.getNodeAs<BinaryOperator>("cmp");
    auto range = mainFileRange(sm, lang, cmp->getSourceRange());
    if (!range) return;
    const std::string code = text(sm, range->first, range->second);
    if (!mentions(code, "epoch") && !mentions(code, "version")) return;
    if (!eligible(*r.Context, *cmp, code) || cmp->HasSideEffects(*r.Context)) return;
    auto lhs = mainFileRange(sm, lang, cmp->getLHS()->getSourceRange());
    auto rhs = mainFileRange(sm, lang, cmp->getRHS()->getSourceRange());
    if (!lhs || !rhs) return;
    const std::string op = cmp->getOpcodeStr().str();
    const std::string moved = op == "<" ? "<=" : op == "<=" ? "<" : op == ">" ? ">=" : ">";
    const std::string mutated =
        "(" + text(sm, lhs->first, lhs->second) + ") " + moved + " (" + text(sm, rhs->first, rhs->second) + ")";
    add(sm, range->first, range->second, "off-by-one", code, mutated,
        std::string("(") + kOn + " ? (" + mutated + ") : (", "))");
  }
};

// return-early: a void function (not a constructor or destructor) returns at once.
class ReturnEarly : public SiteCallback {
 public:
  using SiteCallback::SiteCallback;
  void run(const MatchFinder::MatchResult& r) override {
    const auto* f = r.Nodes.getNodeAs<FunctionDecl>("function");
    const auto* body = r.Nodes.getNodeAs<CompoundStmt>("body");
    if (f->isConstexpr() || f->isNoReturn() || body->body_empty() || isa<CXXConstructorDecl>(f) || isa<CXXDestructorDecl>(f)) return;
    if (const auto* m = dyn_cast<CXXMethodDecl>(f); m != nullptr && m->getParent()->isLambda()) return;
    const SourceManager& sm = *r.SourceManager;
    const SourceLocation open = body->getLBracLoc();
    if (open.isMacroID() || !sm.isInMainFile(open)) return;
    const std::size_t at = sm.getFileOffset(open) + 1;
    add(sm, at, at, "return-early", f->getNameAsString() + "()", "return at once",
        std::string(" if (") + kOn + ") return;", "");
  }
};

}  // namespace

Operators::Operators(std::vector<Site>& sites) : sites_(sites) {}
Operators::~Operators() = default;

void Operators::registerOn(MatchFinder& finder) {
  // Templates are matched once, as written (not per instantiation).
  const auto spelled = [](auto matcher) { return traverse(TK_IgnoreUnlessSpelledInSource, matcher); };
  auto negate = std::make_unique<NegateCondition>(sites_);
  const auto condition = expr().bind("cond");
  finder.addMatcher(spelled(ifStmt(unless(isConstexpr()), unless(hasConditionVariableStatement(declStmt())),
                                   hasCondition(condition))),
                    negate.get());
  finder.addMatcher(spelled(whileStmt(hasCondition(condition))), negate.get());
  finder.addMatcher(spelled(forStmt(hasCondition(condition))), negate.get());
  finder.addMatcher(spelled(conditionalOperator(hasCondition(condition))), negate.get());

  auto drop = std::make_unique<DropStatement>(sites_);
  finder.addMatcher(
      spelled(expr(anyOf(callExpr(), binaryOperator(isAssignmentOperator()), cxxOperatorCallExpr(isAssignmentOperator()),
                         unaryOperator(hasAnyOperatorName("++", "--"))),
                   hasParent(compoundStmt()))
                  .bind("stmt")),
      drop.get());

  auto filter = std::make_unique<DropFilter>(sites_);
  finder.addMatcher(returnStmt(hasReturnValue(expr(hasType(booleanType())).bind("value")),
                               forFunction(cxxMethodDecl(ofClass(cxxRecordDecl(isLambda()))))),
                    filter.get());

  // Each swap is two sites with one id: the schema writer numbers "swap-arguments+" with the id
  // of the site before it (see main.cpp).
  auto swap = std::make_unique<SwapArguments>(sites_);
  finder.addMatcher(spelled(callExpr(unless(argumentCountIs(0)), unless(argumentCountIs(1))).bind("call")), swap.get());

  auto off = std::make_unique<OffByOne>(sites_);
  finder.addMatcher(spelled(binaryOperator(hasAnyOperatorName("+", "-"), hasRHS(integerLiteral(equals(1)).bind("one")))
                                .bind("plus")),
                    off.get());
  finder.addMatcher(spelled(binaryOperator(hasAnyOperatorName("<", "<=", ">", ">=")).bind("cmp")), off.get());

  auto early = std::make_unique<ReturnEarly>(sites_);
  finder.addMatcher(spelled(functionDecl(isDefinition(), returns(voidType()), hasBody(compoundStmt().bind("body")))
                                .bind("function")),
                    early.get());

  callbacks_.push_back(std::move(negate));
  callbacks_.push_back(std::move(drop));
  callbacks_.push_back(std::move(filter));
  callbacks_.push_back(std::move(swap));
  callbacks_.push_back(std::move(off));
  callbacks_.push_back(std::move(early));
}

}  // namespace kcspec::mutate
