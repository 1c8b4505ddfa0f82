// Escaping text from a dump for output. Every string read from a dump (review text, sentences,
// product keys, review ids, source paths, reject reasons that quote the data) is hostile: it may
// hold terminal escape sequences, bidi overrides, newlines that forge lines of a report, or
// markdown/HTML markup. Whatever writes such a string to a human- or machine-read output passes it
// through exactly one of these functions first:
//
//   terminal, stderr, a line of plain text  -> TerminalSafe   (nothing can move the cursor,
//   recolour,
//                                                              reorder or break the line)
//   inside one line of markdown             -> MarkdownInline (nothing can open a heading, list
//   item,
//                                                              link, image, code span or HTML tag)
//   HTML text or a quoted attribute value   -> HtmlEscape
//   JSON                                    -> JsonQuote (revsum/json.h)
//
// All functions are pure and thread-safe, and never throw on any input (invalid UTF-8 included).
#pragma once

#include <string>
#include <string_view>

namespace revsum {

// Makes `s` safe to print on a terminal as part of one line. The result is printable UTF-8 with no
// control characters; it is for display and is not meant to be unescaped.
//   - C0 controls and DEL become \n \r \t, or \xNN (ESC is \x1b, DEL is \x7f);
//   - C1 controls (U+0080..U+009F), bidi controls (U+061C, U+200E, U+200F, U+202A..U+202E,
//     U+2066..U+2069) and the line/paragraph separators U+2028, U+2029 become \uXXXX
//     (U+202E is \u202e);
//   - every byte of an invalid UTF-8 sequence (overlong, surrogate, truncated, > U+10FFFF, stray
//     continuation byte) becomes \xNN;
//   - everything else, printable UTF-8 such as Chinese, emoji and '\' itself, passes unchanged.
std::string TerminalSafe(std::string_view s);

// For identifiers shown to people (product keys): every code point that displays as nothing or as
// a plain space although it is not one — default-ignorable code points (U+200B-U+200D, U+2060,
// U+FEFF, U+00AD, variation selectors, tags...) and non-ASCII spaces (U+00A0, U+3000...) —
// becomes "\uXXXX" ("\UXXXXXXXX" above U+FFFF), so two keys that differ only by them print
// differently. Everything else, invalid UTF-8 included, passes unchanged: apply the format's
// escape (TerminalSafe, MarkdownInline, HtmlEscape) after it. Not for review text, where a
// zero-width joiner is part of an emoji.
std::string ShowInvisibles(std::string_view s);

// A product key (or other identifier from a dump) as an error or warning quotes it:
// TerminalSafe(ShowInvisibles(key)), and a key longer than 200 bytes is cut there, at a character
// boundary, with "... (N bytes)" after it, so a 1 MB key cannot flood stderr.
std::string KeyForMessage(std::string_view key);

// Makes `s` safe as inline content of one markdown line (CommonMark/GFM), e.g. after "## " or
// "- ". The rendered text reads as `s` does; its markup never takes effect:
//   - controls, bidi controls, U+2028/U+2029 and newlines become one space; leading and trailing
//     whitespace is dropped (so no indented code block and no hard line break);
//   - invalid UTF-8 becomes U+FFFD (the result is valid UTF-8);
//   - \ ` * _ [ ] | ~ # @ are backslash-escaped everywhere ('@': GFM's email, mailto: and xmpp:
//     autolinks); '!' before '[', and ':' before "//"
//     and the '.' in a word-initial "www." (GFM autolinks) are backslash-escaped too;
//   - < and > become &lt; and &gt; (no raw HTML tag or autolink in any markdown dialect), and
//     '&' becomes &amp; when it would start a character reference (&name; &#123; &#x1F;);
//   - a leading - + = (list item, setext underline, thematic break) and the '.' or ')' after
//     leading digits (ordered list item) are backslash-escaped.
std::string MarkdownInline(std::string_view s);

// Escapes & < > " ' as &amp; &lt; &gt; &quot; &#39;, so `s` is safe as HTML text and inside a
// quoted attribute value. Other bytes pass unchanged.
std::string HtmlEscape(std::string_view s);

// `s` as well-formed UTF-8: every maximal invalid subpart (Unicode 15, table 3-8) becomes U+FFFD;
// everything else, controls and NUL included, passes unchanged. For writers whose format must be
// UTF-8 (JSON: JsonQuote passes bytes through), so a store holding invalid UTF-8 cannot make them
// write a document a parser refuses.
std::string ValidUtf8(std::string_view s);

}  // namespace revsum
