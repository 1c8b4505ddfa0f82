// FTS5 text for mixed Chinese/English search, and the rewriting of what users type into FTS5.
//
// FTS5's unicode61 tokenizer keeps a run of ideographs as one token, so "电池" would never match
// inside "电池续航很好". The index (sentences_fts) therefore has a second column, `search`
// (sentences.search, FtsCjkGrams): each CJK run written as its overlapping pairs of characters and
// its last character ("电池续航" -> "电池 池续 续航 航"), as Lucene's CJK analyser indexes bigrams.
// Both columns are real columns of `sentences`, so FTS5's own 'rebuild', sqlite-utils and
// Datasette re-read exactly what revsum indexed, and plain sqlite3 finds a two-character word as
// written (MATCH '电池'). A query's CJK run of two or more characters becomes the phrase of its
// pairs ("电池续" -> "电池 池续"), which matches exactly the sentences that contain it; a single
// character the prefix query "电"* (every character starts a pair or ends its run).
//
// Users type web-search habits ("cord -outlet", "+kettle", "don't", "wi-fi") that FTS5 reads as
// column filters or syntax errors; FtsQuery parses the query into items (words, "phrases",
// (groups), operators) and renders FTS5 that means what the user meant, or throws a message that
// says what to write instead.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "revsum/store.h"
#include "revsum/utf8.h"

namespace revsum {
namespace {

// The code point at s[i] (NextCodePoint, utf8.h) and its length; an invalid byte is one U+FFFD.
size_t Decode(std::string_view s, size_t i, char32_t* cp) {
  size_t next = i;
  const int32_t c = NextCodePoint(s, &next);
  if (c < 0) {
    *cp = 0xFFFD;
    return 1;
  }
  *cp = static_cast<char32_t>(c);
  return next - i;
}

// Scripts written without spaces between words: Han, kana, hangul syllables.
bool IsSpacelessScript(char32_t c) {
  return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x2FA1F);
}

bool IsAsciiAlnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Separates items: ASCII space and every C0 control and DEL (FTS5 would stop a quoted string at
// NUL and reject the other controls; the tokenizer drops them anyway).
bool IsSeparator(char c) {
  auto b = static_cast<unsigned char>(c);
  return b <= 0x20 || b == 0x7F;
}

// A one-byte ASCII character FTS5 does not accept inside a bareword (its barewords are ASCII
// letters, digits, '_' and every non-ASCII byte).
bool IsAsciiPunct(char c) {
  auto b = static_cast<unsigned char>(c);
  return b < 0x80 && !IsAsciiAlnum(c) && c != '_' && !IsSeparator(c);
}

// The FTS5 query for one CJK run (see the header comment): the phrase of its pairs, or for one
// character the prefix query on it.
std::string CjkRunQuery(std::string_view run) {
  std::vector<std::string_view> chars;
  char32_t cp;
  for (size_t i = 0; i < run.size();) {
    const size_t n = Decode(run, i, &cp);
    chars.push_back(run.substr(i, n));
    i += n;
  }
  if (chars.size() == 1) return "\"" + std::string(chars[0]) + "\"*";
  std::string out = "\"";
  for (size_t k = 0; k + 1 < chars.size(); ++k) {
    if (k) out += ' ';
    out.append(chars[k]).append(chars[k + 1]);
  }
  return out + "\"";
}

// `text` cut into maximal runs of CJK (IsSpacelessScript) and of other characters, in order, each
// with whether it is CJK.
std::vector<std::pair<std::string_view, bool>> ScriptRuns(std::string_view text) {
  std::vector<std::pair<std::string_view, bool>> runs;
  for (size_t i = 0; i < text.size();) {
    const size_t start = i;
    char32_t cp;
    Decode(text, i, &cp);
    const bool cjk = IsSpacelessScript(cp);
    while (i < text.size()) {
      const size_t n = Decode(text, i, &cp);
      if (IsSpacelessScript(cp) != cjk) break;
      i += n;
    }
    runs.emplace_back(text.substr(start, i - start), cjk);
  }
  return runs;
}

// Text split into its CJK runs and the text between them, each rendered as FTS5: a run by
// CjkRunQuery, other text as the quoted phrase the tokenizer makes of it (skipped when it holds
// no token). `prefix` puts '*' on the last piece (a CJK run's pairs: the substring is a prefix).
std::vector<std::string> RenderedPieces(std::string_view text, bool prefix) {
  std::vector<std::string> out;
  for (const auto& [piece, cjk] : ScriptRuns(text)) {
    if (cjk) {
      out.push_back(CjkRunQuery(piece));
      continue;
    }
    bool has_text = false;
    std::string quoted;
    for (char c : piece) {
      if (c == '"') c = ' ';        // the quotes are ours; a '"' is no token either way
      if (IsSeparator(c)) c = ' ';  // FTS5 would end the string at a NUL
      has_text = has_text || !(IsAsciiPunct(c) || c == ' ');
      quoted += c;
    }
    if (has_text) out.push_back("\"" + quoted + "\"");
  }
  if (prefix && !out.empty() && out.back().back() != '*') out.back() += '*';
  return out;
}

// RenderedPieces joined: one piece as it is, several as an AND group.
std::string Rendered(std::string_view text, bool prefix) {
  const std::vector<std::string> pieces = RenderedPieces(text, prefix);
  if (pieces.size() == 1) return pieces[0];
  std::string out;
  for (const std::string& p : pieces) out += (out.empty() ? "" : " ") + p;
  return out.empty() ? out : "(" + out + ")";
}

// One piece of a parsed query, rendered as FTS5.
struct Item {
  enum Kind { kTerm, kOperator, kGroup } kind = kTerm;
  bool negative = false;
  std::string fts;
};

class QueryRewriter {
 public:
  // `shown` is the whole query as the user typed it, for messages.
  QueryRewriter(std::string_view query, std::string_view shown) : query_(query), shown_(shown) {}

  std::string Rewrite() {
    std::string out = Sequence(0);
    if (out.empty()) Fail("the query has no words to search for");
    return out;
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    throw StoreError("search \"" + std::string(shown_) + "\": " + what);
  }

  void SkipSeparators() {
    while (pos_ < query_.size() && IsSeparator(query_[pos_])) ++pos_;
  }

  // Items up to the end (depth 0) or the ')' closing this group, rendered with every negative
  // item moved after the positive ones: "a -b c" -> "(a c) NOT b".
  std::string Sequence(int depth) {
    std::vector<Item> items;
    for (;;) {
      SkipSeparators();
      if (pos_ == query_.size()) {
        if (depth > 0) {
          Fail("FTS5 syntax: a parenthesis is not closed; close it: " + std::string(query_) + ")");
        }
        break;
      }
      if (query_[pos_] == ')') {
        if (depth == 0) {
          std::string fixed(query_);
          fixed.erase(pos_, 1);
          Fail("FTS5 syntax: ')' has no matching '('; remove it: " + fixed);
        }
        ++pos_;
        break;
      }
      ParseItem(&items);
    }
    return Render(items);
  }

  std::string Render(const std::vector<Item>& items) const {
    std::vector<const Item*> positive, negative;
    for (const Item& item : items) (item.negative ? negative : positive).push_back(&item);
    CheckOperators(positive, !negative.empty());
    if (positive.empty() && !negative.empty()) {
      Fail("FTS5 needs at least one positive term: " + Original(negative) +
           " only says what to leave out; add a word to look for, e.g. WORD " + Original(negative));
    }
    // FTS5 joins juxtaposed words and phrases with an implicit AND, but not a (group): "a (b OR
    // c)" is a syntax error there, so an AND is written next to a group.
    std::string out;
    for (size_t i = 0; i < positive.size(); ++i) {
      const Item& item = *positive[i];
      if (i > 0) {
        const Item& prev = *positive[i - 1];
        const bool group = item.fts.front() == '(' || prev.fts.front() == '(';
        const bool op = item.kind == Item::kOperator || prev.kind == Item::kOperator;
        out += group && !op ? " AND " : " ";
      }
      out += item.fts;
    }
    if (!negative.empty() && positive.size() > 1) out = "(" + out + ")";
    for (const Item* item : negative) out += " NOT " + item->fts;
    return out;
  }

  // The negative items as the user wrote them, for messages.
  static std::string Original(const std::vector<const Item*>& negative) {
    std::string s;
    for (const Item* item : negative) s += (s.empty() ? "-" : " -") + item->fts;
    return s;
  }

  // AND, OR and NOT join two terms; a query that starts or ends with one, or has two in a row, is
  // an FTS5 syntax error that SQLite reports only as 'syntax error near ""'.
  void CheckOperators(const std::vector<const Item*>& positive, bool has_negative) const {
    for (size_t i = 0; i < positive.size(); ++i) {
      if (positive[i]->kind != Item::kOperator) continue;
      const bool first = i == 0;
      const bool last = i + 1 == positive.size();
      if (!first && !last && positive[i + 1]->kind != Item::kOperator) continue;
      const std::string& op = positive[i]->fts;
      if (!last && positive[i + 1]->fts == "NOT") {
        Fail("FTS5 syntax: " + op +
             " NOT: NOT already means AND NOT; write cord NOT outlet, or "
             "cord -outlet");
      }
      if (op == "NOT" && first) {
        Fail(
            "FTS5 syntax: NOT needs a word before it to leave out of: write cord NOT outlet, "
            "or cord -outlet");
      }
      Fail("FTS5 syntax: " + op + " needs a word on each side" +
           (has_negative && op != "NOT" ? " (a -word only leaves words out)" : "") +
           ", e.g. cord " + op + " plug");
    }
  }

  void ParseItem(std::vector<Item>* items) {
    bool negative = false;
    // '-' and '+' directly before a word, "phrase" or (group): -word means NOT word, +word means
    // word. On their own ("a - b") they are punctuation and dropped.
    while (pos_ + 1 < query_.size() && (query_[pos_] == '-' || query_[pos_] == '+') &&
           !IsSeparator(query_[pos_ + 1])) {
      negative = negative || query_[pos_] == '-';
      ++pos_;
    }
    const char c = query_[pos_];
    Item item;
    item.negative = negative;
    if (c == '"') {
      item.fts = Phrase();
    } else if (c == '(') {
      ++pos_;
      item.kind = Item::kGroup;
      std::string inner = Sequence(1);
      if (inner.empty()) return;
      item.fts = "(" + inner + ")";
    } else {
      const size_t start = pos_;
      while (pos_ < query_.size() && !IsSeparator(query_[pos_]) && query_[pos_] != '"' &&
             query_[pos_] != '(' && query_[pos_] != ')') {
        ++pos_;
      }
      std::string_view word = query_.substr(start, pos_ - start);
      if (word == "AND" || word == "OR" || word == "NOT") {
        item.fts = std::string(word);
        // "-OR" is the word "or", not the operator.
        if (negative)
          item.fts = "\"" + item.fts + "\"";
        else
          item.kind = Item::kOperator;
      } else if (word == "NEAR" && pos_ < query_.size() && query_[pos_] == '(') {
        item.fts = Near();
      } else {
        item.fts = Word(word);
      }
    }
    if (item.fts.empty()) return;  // punctuation only: no token to look for
    items->push_back(std::move(item));
  }

  // A "quoted phrase" at pos_, with an optional '*' after it (prefix on its last token). Inside
  // the quotes only CJK spacing changes: the tokenizer splits the rest as it split the index.
  std::string Phrase() {
    const size_t close = query_.find('"', pos_ + 1);
    if (close == std::string_view::npos) {
      std::string_view inside = query_.substr(pos_ + 1);
      while (!inside.empty() && IsSeparator(inside.back())) inside.remove_suffix(1);
      Fail("FTS5 syntax: a quote is not closed; close the quote: \"" + std::string(inside) + "\"");
    }
    std::string inside(query_.substr(pos_ + 1, close - pos_ - 1));
    pos_ = close + 1;
    bool prefix = false;
    while (pos_ < query_.size() && query_[pos_] == '*') {
      prefix = true;
      ++pos_;
    }
    // "" or "!!": no token to look for. Text and CJK runs are indexed in two columns, so a
    // phrase that mixes them matches its pieces anywhere in the sentence (an AND group).
    return Rendered(inside, prefix);
  }

  // NEAR(word word "phrase", N) at pos_ (on the '('): the words are rewritten one by one, the
  // distance is kept.
  std::string Near() {
    const size_t open = pos_;
    size_t close = open + 1;
    for (bool quoted = false; close < query_.size(); ++close) {
      if (query_[close] == '"') quoted = !quoted;
      if (!quoted && query_[close] == ')') break;
    }
    if (close == query_.size()) {
      Fail("FTS5 syntax: a parenthesis is not closed; close it: " + std::string(query_) + ")");
    }
    std::string_view inner = query_.substr(open + 1, close - open - 1);
    std::string distance;
    if (size_t comma = inner.rfind(','); comma != std::string_view::npos) {
      std::string_view n = inner.substr(comma + 1);
      while (!n.empty() && IsSeparator(n.front())) n.remove_prefix(1);
      while (!n.empty() && IsSeparator(n.back())) n.remove_suffix(1);
      bool digits = !n.empty();
      for (char d : n) digits = digits && d >= '0' && d <= '9';
      if (digits) {
        distance = ", " + std::string(n);
        inner = inner.substr(0, comma);
      }
    }
    QueryRewriter words(inner, shown_);
    std::vector<Item> items;
    for (;;) {
      words.SkipSeparators();
      if (words.pos_ == inner.size()) break;
      if (inner[words.pos_] == '(' || inner[words.pos_] == ')') {
        Fail("FTS5 syntax: NEAR(...) takes words and \"phrases\", e.g. NEAR(cord outlet, 5)");
      }
      words.ParseItem(&items);
    }
    std::string out;
    for (const Item& item : items) {
      if (item.negative || item.kind != Item::kTerm || item.fts.front() == '(' ||
          item.fts.front() == '^') {
        Fail("FTS5 syntax: NEAR(...) takes words and \"phrases\", e.g. NEAR(cord outlet, 5)");
      }
      out += (out.empty() ? "" : " ") + item.fts;
    }
    if (out.empty()) Fail("FTS5 syntax: NEAR(...) needs words, e.g. NEAR(cord outlet, 5)");
    pos_ = close + 1;
    return "NEAR(" + out + distance + ")";
  }

  // A bare word: '^' before it and '*' after it are FTS5's (first token, prefix); ASCII
  // punctuation touching CJK separates words ("物流,包装"); a word with other punctuation
  // ("don't", "wi-fi") becomes the phrase the tokenizer made of it in the index.
  std::string Word(std::string_view word) const {
    if (word.find(':') != std::string_view::npos) {
      std::string fixed(word);
      for (char& c : fixed) {
        if (c == ':') c = ' ';
      }
      while (!fixed.empty() && fixed.back() == ' ') fixed.pop_back();
      while (!fixed.empty() && fixed.front() == ' ') fixed.erase(0, 1);
      Fail("FTS5 syntax: \"" + std::string(word) +
           "\" reads as a column filter (column:word), and revsum searches sentence text only; "
           "write it without the colon: " +
           (fixed.empty() ? std::string("a word") : fixed));
    }
    std::string caret;
    if (word.size() > 1 && word.front() == '^') {
      caret = "^";
      word.remove_prefix(1);
    }
    bool prefix = false;
    while (!word.empty() && word.back() == '*') {
      prefix = true;
      word.remove_suffix(1);
    }
    // Split at punctuation that touches CJK.
    std::vector<std::string_view> parts;
    size_t start = 0;
    bool prev_cjk = false;
    for (size_t i = 0; i < word.size();) {
      char32_t cp;
      const size_t n = Decode(word, i, &cp);
      char32_t next = 0;
      if (i + n < word.size()) Decode(word, i + n, &next);
      if (n == 1 && IsAsciiPunct(word[i]) && (prev_cjk || IsSpacelessScript(next))) {
        parts.push_back(word.substr(start, i - start));
        start = i + 1;
      }
      prev_cjk = IsSpacelessScript(cp);
      i += n;
    }
    parts.push_back(word.substr(start));

    std::vector<std::string> rendered;
    for (std::string_view part : parts) {
      bool has_text = false, has_punct = false;
      for (char c : part) {
        if (IsAsciiPunct(c))
          has_punct = true;
        else
          has_text = true;
      }
      if (!has_text) continue;
      for (std::string& piece : has_punct ? RenderedPieces(part, false) : Bare(part)) {
        rendered.push_back(std::move(piece));
      }
    }
    if (rendered.empty()) return "";
    rendered.front() = caret + rendered.front();
    if (prefix && rendered.back().back() != '*') rendered.back() += '*';
    std::string out;
    for (const std::string& r : rendered) out += (out.empty() ? "" : " ") + r;
    return rendered.size() > 1 ? "(" + out + ")" : out;
  }

  // A word of bareword characters, as pieces: CJK runs become CjkRunQuery; a run of other
  // characters that FTS5 would read as a keyword ("OR" in "OR,电池", "AND*") is quoted, as it is
  // a word there.
  static std::vector<std::string> Bare(std::string_view part) {
    std::vector<std::string> out;
    for (const auto& [run, cjk] : ScriptRuns(part)) {
      const bool keyword = !cjk && (run == "AND" || run == "OR" || run == "NOT" || run == "NEAR");
      out.push_back(cjk       ? CjkRunQuery(run)
                    : keyword ? "\"" + std::string(run) + "\""
                              : std::string(run));
    }
    return out;
  }

  std::string_view query_;
  std::string_view shown_;
  size_t pos_ = 0;
};

}  // namespace

std::string FtsIndexText(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 3 / 2);
  for (size_t i = 0; i < text.size();) {
    char32_t cp;
    size_t n = Decode(text, i, &cp);
    if (IsSpacelessScript(cp)) {
      out += ' ';
      out.append(text.substr(i, n));
      out += ' ';
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

bool FtsIndexTextIsText(std::string_view text) {
  // Every spaced code point is U+3040 or above, which UTF-8 starts with a byte of 0xE3 or more;
  // an invalid byte is copied as it is either way.
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0xE3) return false;
  }
  return true;
}

std::string FtsCjkGrams(std::string_view text) {
  std::string out;
  std::string_view prev;  // the previous character of the current run
  char32_t cp;
  for (size_t i = 0; i <= text.size();) {
    const size_t n = i < text.size() ? Decode(text, i, &cp) : 0;
    const bool cjk = n && IsSpacelessScript(cp);
    if (cjk && !prev.empty()) {
      out.append(prev).append(text.substr(i, n)) += ' ';
    } else if (!cjk && !prev.empty()) {
      out.append(prev) += ' ';  // the run's last character
    }
    prev = cjk ? text.substr(i, n) : std::string_view();
    if (!n) break;
    i += n;
  }
  if (!out.empty()) out.pop_back();
  return out;
}

std::string FtsQuery(std::string_view query) { return QueryRewriter(query, query).Rewrite(); }

}  // namespace revsum
