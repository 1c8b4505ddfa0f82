// Specification of CleanText / CleanWithOffsets: HTML, entities, NFKC, controls, whitespace.

#include <cctype>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/text.h"
#include "text_test_util.h"

namespace revsum {
namespace {

TEST(CleanText, EmptyInputGivesEmptyText) {
  EXPECT_EQ(CleanText(""), "");
  EXPECT_TRUE(CleanWithOffsets("").text.empty());
}

TEST(CleanText, RemovesHtmlTagsAndKeepsTheirText) {
  EXPECT_EQ(CleanText("I <b>really</b> like the <a href=\"https://example.com/p?id=1&x=2\">blue "
                      "one</a>."),
            "I really like the blue one.");
}

TEST(CleanText, BreakTagsBecomeSpacesInOneLineText) {
  EXPECT_EQ(CleanText("Works well.<br /><br />Battery lasts two days."),
            "Works well. Battery lasts two days.");
}

TEST(CleanText, BlockTagsBecomeLineBreaksInMappedText) {
  const MappedText cleaned = CleanWithOffsets("Fits well<br>Runs small<p>Buy a size up</p>");
  EXPECT_EQ(cleaned.text, U"Fits well\nRuns small\nBuy a size up");
}

TEST(CleanText, KeepsThingsThatOnlyLookLikeTags) {
  EXPECT_EQ(CleanText("I <3 this mug, and 2 < 3 > 1"), "I <3 this mug, and 2 < 3 > 1");
  EXPECT_EQ(CleanText("if a<b and c>d then"), "if a<b and c>d then");
}

TEST(CleanText, RemovesHtmlComments) {
  EXPECT_EQ(CleanText("Good<!-- imported from the old site --> value"), "Good value");
}

// Every element of HTML (living standard), plus SVG/MathML and custom elements that appear in
// scraped pages. Cleaning keeps no tag of any of them.
const std::vector<std::string> kAllElementNames = {"a",
                                                   "abbr",
                                                   "address",
                                                   "area",
                                                   "article",
                                                   "aside",
                                                   "audio",
                                                   "b",
                                                   "base",
                                                   "bdi",
                                                   "bdo",
                                                   "blockquote",
                                                   "body",
                                                   "br",
                                                   "button",
                                                   "canvas",
                                                   "caption",
                                                   "cite",
                                                   "code",
                                                   "col",
                                                   "colgroup",
                                                   "data",
                                                   "datalist",
                                                   "dd",
                                                   "del",
                                                   "details",
                                                   "dfn",
                                                   "dialog",
                                                   "div",
                                                   "dl",
                                                   "dt",
                                                   "em",
                                                   "embed",
                                                   "fieldset",
                                                   "figcaption",
                                                   "figure",
                                                   "footer",
                                                   "form",
                                                   "h1",
                                                   "h2",
                                                   "h3",
                                                   "h4",
                                                   "h5",
                                                   "h6",
                                                   "head",
                                                   "header",
                                                   "hgroup",
                                                   "hr",
                                                   "html",
                                                   "i",
                                                   "iframe",
                                                   "img",
                                                   "input",
                                                   "ins",
                                                   "kbd",
                                                   "label",
                                                   "legend",
                                                   "li",
                                                   "link",
                                                   "main",
                                                   "map",
                                                   "mark",
                                                   "menu",
                                                   "meta",
                                                   "meter",
                                                   "nav",
                                                   "noscript",
                                                   "object",
                                                   "ol",
                                                   "optgroup",
                                                   "option",
                                                   "output",
                                                   "p",
                                                   "param",
                                                   "picture",
                                                   "pre",
                                                   "progress",
                                                   "q",
                                                   "rp",
                                                   "rt",
                                                   "ruby",
                                                   "s",
                                                   "samp",
                                                   "script",
                                                   "search",
                                                   "section",
                                                   "select",
                                                   "slot",
                                                   "small",
                                                   "source",
                                                   "span",
                                                   "strong",
                                                   "style",
                                                   "sub",
                                                   "summary",
                                                   "sup",
                                                   "table",
                                                   "tbody",
                                                   "td",
                                                   "template",
                                                   "textarea",
                                                   "tfoot",
                                                   "th",
                                                   "thead",
                                                   "time",
                                                   "title",
                                                   "tr",
                                                   "track",
                                                   "u",
                                                   "ul",
                                                   "var",
                                                   "video",
                                                   "wbr",
                                                   "svg",
                                                   "math",
                                                   "marquee",
                                                   "blink",
                                                   "frameset",
                                                   "frame",
                                                   "applet",
                                                   "font",
                                                   "center",
                                                   "xmp",
                                                   "noembed",
                                                   "noframes",
                                                   "plaintext",
                                                   "foreignObject",
                                                   "animate",
                                                   "my-widget",
                                                   "x-custom",
                                                   "fb:like",
                                                   "o:p"};

bool IsDroppedContentElement(const std::string& name) {
  for (const char* n :
       {"script", "style", "template", "noscript", "iframe", "noembed", "noframes", "xmp"}) {
    if (name == n) return true;
  }
  return false;
}

TEST(CleanText, RemovesTheTagsOfEveryElement) {
  ASSERT_GE(kAllElementNames.size(), 48u);
  for (const std::string& name : kAllElementNames) {
    for (const std::string& open :
         {"<" + name + ">", "<" + name + " class=\"x\" id='y'>", "<" + name + "/>"}) {
      const std::string cleaned = CleanText("before " + open + "inner</" + name + "> after");
      EXPECT_EQ(cleaned.find('<'), std::string::npos) << open << " -> " << cleaned;
      EXPECT_EQ(cleaned.find('>'), std::string::npos) << open << " -> " << cleaned;
      EXPECT_THAT(cleaned, ::testing::StartsWith("before")) << open;
      EXPECT_THAT(cleaned, ::testing::EndsWith("after")) << open;
    }
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(CleanText("x <" + upper + " A=1>y</" + upper + "> z").find('<'), std::string::npos)
        << upper;
  }
}

TEST(CleanText, DropsTheContentOfScriptStyleTemplateAndNoscript) {
  for (const std::string& name : kAllElementNames) {
    const std::string cleaned = CleanText("before <" + name + ">inner</" + name + "> after");
    if (IsDroppedContentElement(name)) {
      EXPECT_EQ(cleaned, "before after") << name;
    } else {
      EXPECT_NE(cleaned.find("inner"), std::string::npos) << name << " -> " << cleaned;
    }
  }
  EXPECT_EQ(CleanText("Great<script type=\"text/javascript\">if (a < b && c > d) alert('</p>')"
                      "</SCRIPT >kettle"),
            "Great kettle");
  EXPECT_EQ(CleanText("ok<style>p > a { color: red }</style>."), "ok .");
}

TEST(CleanText, KeepsTheTextAfterAnUnclosedScriptOrStyle) {
  EXPECT_EQ(CleanText("I love the <style> of this jacket. Warm too."),
            "I love the of this jacket. Warm too.");
  EXPECT_EQ(CleanText("Runs <script>alert(1) but fine"), "Runs alert(1) but fine");
}

TEST(CleanText, RemovesCommentsDoctypesCdataAndProcessingInstructions) {
  EXPECT_EQ(CleanText("a<!DOCTYPE html>b"), "ab");
  EXPECT_EQ(CleanText("a<![CDATA[ <script>x</script> ]]>b"), "ab");
  EXPECT_EQ(CleanText("a<?xml version=\"1.0\"?>b"), "ab");
  EXPECT_EQ(CleanText("a<!-- <script>alert(1)</script> -->b"), "ab");
  EXPECT_EQ(CleanText("a<!---->b"), "ab");
}

TEST(CleanText, RemovesEventHandlerAndSvgPayloads) {
  for (const char* payload :
       {"<img src=x onerror=alert(1)>", "<svg onload=alert(1)>", "<svg/onload=alert(1)>",
        "<iframe src=\"javascript:alert(1)\"></iframe>", "<body onload=alert(1)>",
        "<a href=\"javascript:alert(1)\">click</a>", "<input autofocus onfocus=alert(1)>",
        "<details open ontoggle=alert(1)>", "<object data=\"x.swf\"></object>",
        "<form action=\"https://evil\"><button>Go</button></form>",
        "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
        "<video><source onerror=\"alert(1)\"></video>", "<input disabled>"}) {
    const std::string cleaned = CleanText(std::string("Nice ") + payload + " kettle");
    EXPECT_EQ(cleaned.find('<'), std::string::npos) << payload << " -> " << cleaned;
    EXPECT_EQ(cleaned.find("alert"), std::string::npos) << payload << " -> " << cleaned;
  }
}

TEST(CleanText, KeepsComparisonsHeartsAndArrows) {
  EXPECT_EQ(CleanText("5 < 6 and 7 > 3"), "5 < 6 and 7 > 3");
  EXPECT_EQ(CleanText("I <3 it"), "I <3 it");
  EXPECT_EQ(CleanText("<- this one, not -> that one"), "<- this one, not -> that one");
  EXPECT_EQ(CleanText("x << y >> z, <= 5, >= 2"), "x << y >> z, <= 5, >= 2");
  EXPECT_EQ(CleanText("price<$20 & size<M"), "price<$20 & size<M");
  EXPECT_EQ(CleanText("a <b and c> d"), "a <b and c> d");
}

TEST(CleanWithOffsets, MapsAroundDroppedScriptContent) {
  // "a<script>x</script>b": a=0, <script>x</script>=1..19, b=19
  const MappedText m = CleanWithOffsets("a<script>x</script>b");
  ASSERT_EQ(m.text, U"a b");
  EXPECT_THAT(m.begin, ::testing::ElementsAre(0, 1, 19));
  EXPECT_THAT(m.end, ::testing::ElementsAre(1, 19, 20));
  // "好<kbd>图</kbd>!": 好=0, <kbd>=1..6, 图=6, </kbd>=7..13, !=13
  const MappedText n = CleanWithOffsets("好<kbd>图</kbd>!");
  ASSERT_EQ(n.text, U"好图!");
  EXPECT_THAT(n.begin, ::testing::ElementsAre(0, 6, 13));
  EXPECT_THAT(n.end, ::testing::ElementsAre(1, 7, 14));
}

TEST(CleanText, DecodesNamedAndNumericEntities) {
  EXPECT_EQ(CleanText("She said &quot;perfect&quot; &amp; it&#39;s true, isn&#x27;t it"),
            "She said \"perfect\" & it's true, isn't it");
  EXPECT_EQ(CleanText("caf&eacute; &lt;3 &hearts;"), "caf\u00e9 <3 \u2665");
}

TEST(CleanText, DecodesDoublyEscapedEntities) {
  EXPECT_EQ(CleanText("the &amp;quot;pro&amp;quot; model"), "the \"pro\" model");
}

TEST(CleanText, RemovesTagsThatDecodingMakes) {
  // The escaped tag decodes to markup: removed as a raw one would be, not left in the text.
  EXPECT_EQ(CleanText("Good. &lt;img src=x onerror=alert(1)&gt; Fast."), "Good. Fast.");
  EXPECT_EQ(CleanText("a &amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt; b"), "a b");
  EXPECT_EQ(CleanText("tea&lt;br&gt;pot"), "tea pot");
  // Full-width brackets become ASCII under NFKC.
  EXPECT_EQ(CleanText("Good \uFF1Cimg src=x onerror=alert(1)\uFF1E kettle"), "Good kettle");
  // Removing "<b>" joins the rest into a tag.
  EXPECT_EQ(CleanText("x <<b>img src=x onerror=alert(1)> y"), "x y");
  // Comparisons and hearts that decoding makes stay text.
  EXPECT_EQ(CleanText("5 &lt; 6 and 7 &gt; 3, I &lt;3 it"), "5 < 6 and 7 > 3, I <3 it");
}

TEST(CleanText, MakesMarkupInertWhenNestingOutlastsThePasses) {
  // Each pass removes one "<b>" and joins the next layer; whatever is left after the passes is made
  // inert instead of being returned as a tag.
  // "<<<b>b>img>" needs two passes to become "img>"; this one needs eight.
  std::string nested = "x ";
  for (int i = 0; i < 8; ++i) nested += "<";
  for (int i = 0; i < 7; ++i) nested += "b>";
  nested += "img src=x onerror=alert(1)> y";
  const std::string cleaned = CleanText(nested);
  EXPECT_EQ(cleaned.find("<img"), std::string::npos) << cleaned;
  EXPECT_EQ(cleaned.find("<b>"), std::string::npos) << cleaned;
  EXPECT_NE(cleaned.find("img src=x onerror=alert(1)> y"), std::string::npos) << cleaned;
  EXPECT_EQ(CleanText(cleaned), cleaned);
}

TEST(CleanText, RemovesATagThatDroppingAControlOrFormatCharacterJoins) {
  for (const char* text :
       {"x <\x01img src=x onerror=alert(1)> y", "x <\u200Bimg src=x onerror=alert(1)> y",
        "x <\u00ADimg src=x onerror=alert(1)> y"}) {
    EXPECT_EQ(CleanText(text), "x y");
  }
}

TEST(CleanWithOffsets, MapsAroundMarkupThatDecodingMakes) {
  // "ab &lt;i&gt;cd": the decoded tag spans original code points 3..11.
  const MappedText m = CleanWithOffsets("ab &lt;i&gt;cd");
  ASSERT_EQ(m.text, U"ab cd");
  EXPECT_THAT(m.begin, ::testing::ElementsAre(0, 1, 2, 12, 13));
  EXPECT_THAT(m.end, ::testing::ElementsAre(1, 2, 3, 13, 14));
}

TEST(CleanText, ReadsNumericReferencesInTheC1RangeAsWindows1252) {
  EXPECT_EQ(CleanText("don&#146;t"), "don\u2019t");
}

TEST(CleanText, NbspEntityBecomesAnOrdinarySpace) {
  EXPECT_EQ(CleanText("great&nbsp;&nbsp;price"), "great price");
}

TEST(CleanText, LeavesUnknownOrUnterminatedEntitiesAlone) {
  EXPECT_EQ(CleanText("AT&T and R&D &bogus; &amp"), "AT&T and R&D &bogus; &amp");
}

TEST(CleanText, AppliesNfkcToFullWidthForms) {
  EXPECT_EQ(CleanText("ＡＢＣ１２３！？"), "ABC123!?");
  EXPECT_EQ(CleanText("东西不错，物流很快；下次还来～"), "东西不错,物流很快;下次还来~");
}

TEST(CleanText, AppliesNfkcCompositionAndCompatibilityMappings) {
  EXPECT_EQ(CleanText("cafe\u0301 \ufb01ne \u2460 \u2026"), "caf\u00e9 fine 1 ...");
}

TEST(CleanText, CollapsesWhitespaceAndTrims) {
  EXPECT_EQ(CleanText("  too \t many\u3000\u00a0spaces \n\n here  "), "too many spaces here");
}

TEST(CleanText, DropsControlAndFormatCharactersButKeepsEmojiJoiners) {
  EXPECT_EQ(CleanText("\ufeffgood\u0007 stuff\u200b!"), "good stuff!");
  const std::string family = "\U0001F468\u200D\U0001F469\u200D\U0001F467";
  EXPECT_EQ(CleanText("for the " + family), "for the " + family);
}

TEST(CleanText, ReplacesInvalidUtf8WithReplacementCharacter) {
  EXPECT_EQ(CleanText("bad \xff\xfe bytes \xe4\xb8"), "bad \ufffd\ufffd bytes \ufffd");
}

TEST(CleanWithOffsets, MapsEachCleanedCharacterToItsOriginalSpan) {
  // "a&amp;b<br>c": a=0, &amp;=1..6, b=6, <br>=7..11, c=11
  const MappedText m = CleanWithOffsets("a&amp;b<br>c");
  ASSERT_EQ(m.text, U"a&b\nc");
  EXPECT_THAT(m.begin, ::testing::ElementsAre(0, 1, 6, 7, 11));
  EXPECT_THAT(m.end, ::testing::ElementsAre(1, 6, 7, 11, 12));
}

TEST(CleanWithOffsets, CountsOffsetsInCodePointsNotBytes) {
  const MappedText m = CleanWithOffsets("好 ＯＫ");  // 好=0, space=1, Ｏ=2, Ｋ=3
  ASSERT_EQ(m.text, U"好 OK");
  EXPECT_THAT(m.begin, ::testing::ElementsAre(0, 1, 2, 3));
  EXPECT_THAT(m.end, ::testing::ElementsAre(1, 2, 3, 4));
}

TEST(CleanWithOffsets, MapsNfkcExpansionsToTheOneOriginalCharacter) {
  const MappedText m = CleanWithOffsets("ok\u2026");  // … -> ...
  ASSERT_EQ(m.text, U"ok...");
  EXPECT_THAT(m.begin, ::testing::ElementsAre(0, 1, 2, 2, 2));
  EXPECT_THAT(m.end, ::testing::ElementsAre(1, 2, 3, 3, 3));
}

TEST(CjkFraction, CountsLettersDigitsAndIdeographsOnly) {
  EXPECT_DOUBLE_EQ(CjkFraction(""), 0.0);
  EXPECT_DOUBLE_EQ(CjkFraction("Great price!!!"), 0.0);
  EXPECT_DOUBLE_EQ(CjkFraction("物流很快。"), 1.0);
  EXPECT_DOUBLE_EQ(CjkFraction("ipad很好"), 2.0 / 6.0);
}

TEST(IsCjk, AcceptsCjkLettersButNotCjkPunctuation) {
  EXPECT_TRUE(IsCjk(U'好'));
  EXPECT_TRUE(IsCjk(U'の'));
  EXPECT_TRUE(IsCjk(U'カ'));
  EXPECT_TRUE(IsCjk(U'한'));
  EXPECT_FALSE(IsCjk(U'。'));
  EXPECT_FALSE(IsCjk(U'a'));
  EXPECT_FALSE(IsCjk(U'！'));
}

}  // namespace
}  // namespace revsum
