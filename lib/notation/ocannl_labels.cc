#include "stridekit/ocannl_labels.h"

#include <set>

#include "stridekit/error.h"

namespace stridekit {
namespace {

enum class TokenType {
  kIdent,
  kInt,
  kUnderscore,
  kComma,
  kPipe,
  kArrow,
  kDoubleArrow,
  kSemicolon,
  kEllipsis,
  kDotDot,
  kEnd,
};

struct Token {
  TokenType type;
  std::string text;
  int64_t value = 0;  // kInt only
  size_t column = 0;  // 1-based
};

bool IsAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string Quoted(std::string_view spec) { return StrCat("\"", spec, "\""); }

class Lexer {
 public:
  explicit Lexer(std::string_view spec)
      : spec_(spec), multichar_(IsMultichar(spec)) {}

  std::vector<Token> Tokens() {
    std::vector<Token> tokens;
    size_t i = 0;
    while (i < spec_.size()) {
      const char c = spec_[i];
      const size_t column = i + 1;
      if (IsSpace(c)) {
        ++i;
      } else if (IsAlpha(c) || c == '_') {
        size_t end = i + 1;
        if (multichar_ && c != '_') {
          while (end < spec_.size() &&
                 (IsAlpha(spec_[end]) || IsDigit(spec_[end]) ||
                  spec_[end] == '_')) {
            ++end;
          }
        }
        const std::string text(spec_.substr(i, end - i));
        tokens.push_back(
            {text == "_" ? TokenType::kUnderscore : TokenType::kIdent, text, 0,
             column});
        AddImplicitComma(tokens);
        i = end;
      } else if (IsDigit(c)) {
        int64_t value = 0;
        size_t end = i;
        for (; end < spec_.size() && IsDigit(spec_[end]); ++end) {
          if (__builtin_mul_overflow(value, 10, &value) ||
              __builtin_add_overflow(value, spec_[end] - '0', &value)) {
            Fail(ErrorKind::kInvalidArgument, "Lexer error: integer at column ",
                 column, " overflows int64 in spec: ", Quoted(spec_));
          }
        }
        tokens.push_back({TokenType::kInt,
                          std::string(spec_.substr(i, end - i)), value,
                          column});
        AddImplicitComma(tokens);
        i = end;
      } else {
        i = Punctuation(tokens, i);
      }
    }
    tokens.push_back({TokenType::kEnd, "end of spec", 0, spec_.size() + 1});
    return tokens;
  }

 private:
  // Single-char mode: every identifier and integer is followed by a comma.
  void AddImplicitComma(std::vector<Token>& tokens) const {
    if (!multichar_) {
      tokens.push_back({TokenType::kComma, ",", 0, tokens.back().column});
    }
  }

  // Lexes the punctuation at spec_[i]; returns the index after it.
  size_t Punctuation(std::vector<Token>& tokens, size_t i) const {
    const std::string_view rest = spec_.substr(i);
    const size_t column = i + 1;
    struct Symbol {
      std::string_view text;
      TokenType type;
    };
    static constexpr Symbol kSymbols[] = {
        {"...", TokenType::kEllipsis}, {"..", TokenType::kDotDot},
        {"->", TokenType::kArrow},     {"=>", TokenType::kDoubleArrow},
        {",", TokenType::kComma},      {"|", TokenType::kPipe},
        {";", TokenType::kSemicolon},
    };
    for (const Symbol& s : kSymbols) {
      if (rest.substr(0, s.text.size()) == s.text) {
        tokens.push_back({s.type, std::string(s.text), 0, column});
        return i + s.text.size();
      }
    }
    const char c = spec_[i];
    if (c == '*' || c == '+' || c == '^' || c == '=' || c == '<') {
      Fail(ErrorKind::kUnsupported, "Unsupported axis syntax '", c,
           "' at column ", column, " in spec ", Quoted(spec_),
           ": affine, convolution and concatenation axes are not supported");
    }
    if (c == '&') {
      Fail(ErrorKind::kInvalidArgument, "Lexer error: '&' at column ", column,
           " is reserved in spec ", Quoted(spec_));
    }
    // A whole UTF-8 sequence, so that the message stays valid text.
    size_t end = i + 1;
    while (end < spec_.size() &&
           (static_cast<unsigned char>(spec_[end]) & 0xC0) == 0x80) {
      ++end;
    }
    Fail(ErrorKind::kInvalidArgument, "Lexer error: Unexpected character in ",
         multichar_ ? "multichar" : "single-char",
         " mode: ", spec_.substr(i, end - i), " at column ", column,
         " in spec ", Quoted(spec_));
  }

  std::string_view spec_;
  bool multichar_;
};

class Parser {
 public:
  explicit Parser(std::string_view spec)
      : spec_(spec), tokens_(Lexer(spec).Tokens()) {}

  LabelsSpec AxisLabels() {
    LabelsSpec labels = ShapeSpec();
    if (Peek().type != TokenType::kEnd) {
      Error(Peek(), StrCat("unexpected '", Peek().text, "' in a labels spec"));
    }
    return labels;
  }

  EinsumLabelsSpec Einsum() {
    EinsumLabelsSpec einsum;
    einsum.text = std::string(spec_);
    einsum.operands.push_back(ShapeSpec());
    while (Peek().type == TokenType::kSemicolon) {
      ++pos_;
      einsum.operands.push_back(ShapeSpec());
    }
    if (Peek().type != TokenType::kDoubleArrow) {
      Error(Peek(),
            StrCat("expected ';' or '=>' but found '", Peek().text, "'"));
    }
    ++pos_;
    einsum.result = ShapeSpec();
    if (Peek().type != TokenType::kEnd) {
      Error(Peek(),
            StrCat("unexpected '", Peek().text, "' after the result spec"));
    }
    return einsum;
  }

 private:
  const Token& Peek() const { return tokens_[pos_]; }

  [[noreturn]] void Error(const Token& at, const std::string& reason) const {
    Fail(ErrorKind::kInvalidArgument, "Parse error at column ", at.column,
         " in spec ", Quoted(spec_), ": ", reason);
  }

  static bool IsAxis(TokenType t) {
    return t == TokenType::kIdent || t == TokenType::kInt ||
           t == TokenType::kUnderscore;
  }

  static AxisSpec ToAxis(const Token& t) {
    switch (t.type) {
      case TokenType::kInt:
        return AxisSpec::FixedIndex(t.value);
      case TokenType::kUnderscore:
        return AxisSpec::Placeholder();
      default:
        return AxisSpec::Label(t.text);
    }
  }

  // row ::= axes? ','? ellipsis ','? axes? ','? | axes? ','?
  // A "..." gets an empty name here; ShapeSpec names it after its kind.
  RowSpec Row() {
    std::vector<AxisSpec> before, after;
    std::optional<std::string> row_var;
    bool after_axis = false;
    bool after_ellipsis = false;
    for (;;) {
      const Token& t = Peek();
      if (IsAxis(t.type)) {
        if (after_axis) Error(t, "expected ',' between axes");
        (row_var ? after : before).push_back(ToAxis(t));
        after_axis = true;
        after_ellipsis = false;
        ++pos_;
      } else if (t.type == TokenType::kComma) {
        if (!after_axis && !after_ellipsis) Error(t, "empty axis before ','");
        after_axis = after_ellipsis = false;
        ++pos_;
      } else if (t.type == TokenType::kEllipsis ||
                 t.type == TokenType::kDotDot) {
        if (row_var) Error(t, "a row can have at most one row variable");
        row_var = RowVariable();
        after_axis = false;
        after_ellipsis = true;
      } else {
        break;
      }
    }
    RowSpec row;
    row.row_var = row_var;
    if (row_var) {
      row.beg = std::move(before);
      row.end = std::move(after);
    } else {
      row.end = std::move(before);
    }
    return row;
  }

  // ellipsis ::= '...' | '..' IDENT ','? '..'
  std::string RowVariable() {
    if (tokens_[pos_++].type == TokenType::kEllipsis) return "";
    const Token& name = Peek();
    if (name.type != TokenType::kIdent) {
      Error(name, "expected a row variable name after '..'");
    }
    ++pos_;
    if (Peek().type == TokenType::kComma) ++pos_;
    if (Peek().type != TokenType::kDotDot) {
      Error(Peek(), StrCat("expected '..' to close the row variable '",
                           name.text, "'"));
    }
    ++pos_;
    return name.text;
  }

  // shape_spec ::= row '|' row '->' row | row '|' row | row '->' row | row
  LabelsSpec ShapeSpec() {
    LabelsSpec labels;
    RowSpec first = Row();
    if (Peek().type == TokenType::kPipe) {
      ++pos_;
      labels.row(AxisKind::kBatch) = std::move(first);
      RowSpec second = Row();
      if (Peek().type == TokenType::kArrow) {
        ++pos_;
        labels.row(AxisKind::kInput) = std::move(second);
        labels.row(AxisKind::kOutput) = Row();
      } else {
        labels.row(AxisKind::kOutput) = std::move(second);
      }
    } else if (Peek().type == TokenType::kArrow) {
      ++pos_;
      labels.row(AxisKind::kInput) = std::move(first);
      labels.row(AxisKind::kOutput) = Row();
    } else {
      labels.row(AxisKind::kOutput) = std::move(first);
    }
    if (Peek().type == TokenType::kPipe || Peek().type == TokenType::kArrow) {
      Error(Peek(), StrCat("unexpected '", Peek().text,
                           "': a labels spec has at most one '|' and one "
                           "'->', in that order"));
    }
    for (AxisKind kind : kMemoryOrder) {
      std::optional<std::string>& var = labels.row(kind).row_var;
      if (var && var->empty()) *var = AxisKindName(kind);
    }
    return labels;
  }

  std::string_view spec_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

void CheckNameClash(const EinsumLabelsSpec& einsum) {
  std::set<std::string> labels, row_vars;
  auto collect = [&](const LabelsSpec& spec) {
    for (const RowSpec& row : spec.rows) {
      if (row.row_var) row_vars.insert(*row.row_var);
      for (const auto* axes : {&row.beg, &row.end}) {
        for (const AxisSpec& axis : *axes) {
          if (axis.kind == AxisSpec::Kind::kLabel) labels.insert(axis.label);
        }
      }
    }
  };
  for (const LabelsSpec& operand : einsum.operands) collect(operand);
  collect(einsum.result);
  for (const std::string& name : labels) {
    if (row_vars.count(name)) {
      Fail(ErrorKind::kInvalidArgument, "Name '", name,
           "' is used as both a dimension variable and a row variable in "
           "spec: ",
           einsum.text);
    }
  }
}

std::string ToString(const AxisSpec& axis) {
  switch (axis.kind) {
    case AxisSpec::Kind::kFixedIndex:
      return StrCat("#", axis.index);
    case AxisSpec::Kind::kPlaceholder:
      return "_";
    default:
      return axis.label;
  }
}

std::string Join(const std::vector<AxisSpec>& axes) {
  std::string out;
  for (const AxisSpec& axis : axes) {
    if (!out.empty()) out += ",";
    out += ToString(axis);
  }
  return out;
}

}  // namespace

const char* AxisKindName(AxisKind kind) {
  switch (kind) {
    case AxisKind::kBatch:
      return "batch";
    case AxisKind::kInput:
      return "input";
    default:
      return "output";
  }
}

bool IsMultichar(std::string_view spec) {
  for (size_t i = 0; i < spec.size(); ++i) {
    switch (spec[i]) {
      case ',':
      case '*':
      case '+':
      case '^':
      case '&':
      case '<':
        return true;
      case '=':
        if (i + 1 == spec.size() || spec[i + 1] != '>') return true;
        break;
      default:
        break;
    }
  }
  return false;
}

LabelsSpec ParseAxisLabels(std::string_view spec) {
  return Parser(spec).AxisLabels();
}

EinsumLabelsSpec ParseEinsumLabels(std::string_view spec) {
  EinsumLabelsSpec einsum = Parser(spec).Einsum();
  CheckNameClash(einsum);
  return einsum;
}

std::string ToString(const RowSpec& row) {
  std::string out = Join(row.beg);
  if (row.row_var) {
    if (!out.empty()) out += " ";
    out += StrCat("<..", *row.row_var, "..>");
    if (!row.end.empty()) out += " ";
  }
  return StrCat("[", out, Join(row.end), "]");
}

}  // namespace stridekit
