// FtsQuery: what users type into `revsum search` becomes FTS5 that means it, or a message saying
// what to write instead; and searches restricted to products, on a real store.
#include <filesystem>
#include <random>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/store.h"

namespace revsum {
namespace {

using ::testing::HasSubstr;

// The message FtsQuery throws for `query`, or "" when it does not throw.
std::string Message(const std::string& query) {
  try {
    FtsQuery(query);
  } catch (const StoreError& e) {
    return e.what();
  }
  return "";
}

TEST(FtsQueryTest, PlainFts5SyntaxKeepsItsMeaning) {
  EXPECT_EQ(FtsQuery("battery"), "battery");
  EXPECT_EQ(FtsQuery("battery OR cord"), "battery OR cord");
  EXPECT_EQ(FtsQuery("battery NOT cord"), "battery NOT cord");
  EXPECT_EQ(FtsQuery("batt*"), "batt*");
  EXPECT_EQ(FtsQuery("\"battery life\""), "\"battery life\"");
  EXPECT_EQ(FtsQuery("(cord OR plug) AND kettle"), "(cord OR plug) AND kettle");
  EXPECT_EQ(FtsQuery("NEAR(cord outlet, 5)"), "NEAR(cord outlet, 5)");
  EXPECT_EQ(FtsQuery("^great"), "^great");
}

TEST(FtsQueryTest, AGroupBesideAWordIsJoinedWithAnd) {
  // FTS5 has no implicit AND next to a (group): "kettle (cord OR plug)" is its syntax error.
  EXPECT_EQ(FtsQuery("kettle (cord OR plug)"), "kettle AND (cord OR plug)");
  EXPECT_EQ(FtsQuery("(cord OR plug) kettle"), "(cord OR plug) AND kettle");
  EXPECT_EQ(FtsQuery("kettle 物流,包装"), "kettle AND (\"物流\" \"包装\")");
  EXPECT_EQ(FtsQuery("(cord OR plug) OR kettle"), "(cord OR plug) OR kettle");
}

TEST(FtsQueryTest, KeywordsInsideAWordAreWords) {
  EXPECT_EQ(FtsQuery("OR,电池"), "(\"OR\" \"电池\")");
  EXPECT_EQ(FtsQuery("AND*"), "\"AND\"*");
  EXPECT_EQ(FtsQuery("^NOT"), "^\"NOT\"");
  EXPECT_EQ(FtsQuery("NOTE"), "NOTE");
}

TEST(FtsQueryTest, MinusWordMeansNot) {
  EXPECT_EQ(FtsQuery("cord -outlet"), "cord NOT outlet");
  EXPECT_EQ(FtsQuery("a -b c"), "(a c) NOT b");
  EXPECT_EQ(FtsQuery("cord OR plug -outlet"), "(cord OR plug) NOT outlet");
  EXPECT_EQ(FtsQuery("kettle -\"short cord\""), "kettle NOT \"short cord\"");
  EXPECT_EQ(FtsQuery("kettle -(cord OR plug)"), "kettle NOT (cord OR plug)");
  EXPECT_EQ(FtsQuery("kettle -cord -plug"), "kettle NOT cord NOT plug");
  EXPECT_EQ(FtsQuery("wi-fi"), "\"wi-fi\"") << "a hyphen inside a word is not NOT";
}

TEST(FtsQueryTest, OnlyNegativeTermsGetAMessage) {
  EXPECT_THAT(Message("-outlet"), HasSubstr("FTS5 needs at least one positive term"));
  EXPECT_THAT(Message("-outlet"), HasSubstr("e.g. WORD -outlet"));
  EXPECT_THAT(Message("kettle (-cord)"), HasSubstr("at least one positive term"));
}

TEST(FtsQueryTest, PlusWordIsTheWord) {
  EXPECT_EQ(FtsQuery("+kettle"), "kettle");
  EXPECT_EQ(FtsQuery("+kettle +quiet"), "kettle quiet");
}

TEST(FtsQueryTest, ColumnFiltersGetAMessage) {
  EXPECT_THAT(Message("text:battery"), HasSubstr("column filter"));
  EXPECT_THAT(Message("text:battery"), HasSubstr("without the colon: text battery"));
  EXPECT_THAT(Message("note:"), HasSubstr("without the colon: note"));
  EXPECT_EQ(FtsQuery("\"ratio 16:9\""), "\"ratio 16:9\"") << "a colon inside quotes is text";
}

TEST(FtsQueryTest, UnbalancedQuotesAndParenthesesSayWhatToWrite) {
  EXPECT_THAT(Message("\"battery life"), HasSubstr("close the quote: \"battery life\""));
  EXPECT_THAT(Message("\"battery life"), HasSubstr("FTS5 syntax"));
  EXPECT_THAT(Message("(cord OR plug"), HasSubstr("close it: (cord OR plug)"));
  EXPECT_THAT(Message("cord OR plug)"), HasSubstr("remove it: cord OR plug"));
}

TEST(FtsQueryTest, MisplacedOperatorsSayWhatToWrite) {
  EXPECT_THAT(Message("cord OR"), HasSubstr("OR needs a word on each side"));
  EXPECT_THAT(Message("NOT outlet"), HasSubstr("cord -outlet"));
  EXPECT_THAT(Message("cord AND NOT outlet"), HasSubstr("write cord NOT outlet"));
  EXPECT_THAT(Message("!!!"), HasSubstr("no words to search for"));
}

TEST(FtsQueryTest, PunctuationInsideAWordIsThePhraseTheIndexHolds) {
  EXPECT_EQ(FtsQuery("don't"), "\"don't\"");
  EXPECT_EQ(FtsQuery("great!"), "\"great!\"");
  EXPECT_EQ(FtsQuery("kettle ,"), "kettle") << "lone punctuation has no token";
}

TEST(FtsQueryTest, CjkRunsBecomePhrasesOfCharacterPairs) {
  EXPECT_EQ(FtsQuery("电池 OR battery"), "\"电池\" OR battery");
  EXPECT_EQ(FtsQuery("电池续航"), "\"电池 池续 续航\"");
  EXPECT_EQ(FtsQuery("好"), "\"好\"*") << "one character: the pairs it starts, or its run's end";
  EXPECT_EQ(FtsQuery("电池*"), "\"电池\"*");
  EXPECT_EQ(FtsQuery("物流,包装"), "(\"物流\" \"包装\")");
  EXPECT_EQ(FtsQuery("电池 -屏幕"), "\"电池\" NOT \"屏幕\"");
  EXPECT_EQ(FtsQuery("\"电池abc\""), "(\"电池\" \"abc\")")
      << "text and CJK are indexed in two columns: a mixed phrase is the AND of its pieces";
  EXPECT_EQ(FtsQuery("\"works great\""), "\"works great\"");
  EXPECT_EQ(FtsQuery("NEAR(电池 续航, 3)"), "NEAR(\"电池\" \"续航\", 3)");
}

class FtsSearchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("revsum_fts_query_test_" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
    store_ = ReviewStore::Open((dir_ / "reviews.db").string());
    const int64_t source = store_->ingest().AddSource("a.jsonl", "jsonl", 10);
    Add(source, "K1", "The cord is too short to reach the outlet.");
    Add(source, "K1", "The cord is long enough.");
    Add(source, "K2", "Short cord, but it boils fast.");
    Add(source, "K3", "电池续航很好，屏幕也清楚。");
    store_->Flush();
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Add(int64_t source, const std::string& product, const std::string& text) {
    Review r;
    r.source = "a.jsonl";
    r.line = ++line_;
    r.product = product;
    r.external_id = "r" + std::to_string(line_);
    r.text = text;
    store_->ingest().AddReview(source, r,
                               {Sentence{0, 0, static_cast<int32_t>(text.size()), text}});
  }

  std::filesystem::path dir_;
  std::unique_ptr<ReviewStore> store_;
  uint64_t line_ = 0;
};

TEST_F(FtsSearchTest, MinusWordExcludesSentences) {
  EXPECT_EQ(store_->search().Find("cord", 10).size(), 3u);
  auto hits = store_->search().Find("cord -outlet", 10);
  EXPECT_EQ(hits.size(), 2u);
  for (const SearchHit& h : hits) EXPECT_THAT(h.text, ::testing::Not(HasSubstr("outlet")));
}

TEST_F(FtsSearchTest, EveryRewrittenFormRunsInFts5) {
  EXPECT_EQ(store_->search().Find("cord (short OR long)", 10).size(), 3u);
  EXPECT_EQ(store_->search().Find("(short OR long) cord -outlet", 10).size(), 2u);
  EXPECT_EQ(store_->search().Find("电池,屏幕 OR,cord", 10).size(), 0u) << "OR is a word there";
  EXPECT_EQ(store_->search().Find("\"short cord\"*", 10).size(), 1u);
  EXPECT_EQ(store_->search().Find("NEAR(cord outlet, 8)", 10).size(), 1u);
  EXPECT_EQ(store_->search().Find("NEAR(cord outlet, 2)", 10).size(), 0u);
}

TEST_F(FtsSearchTest, SearchProductsRestrictsHitsToTheGivenProducts) {
  EXPECT_EQ(store_->search().Find("cord", 10, {}).size(), 3u);
  auto hits = store_->search().Find("cord", 10, {"K2"});
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].product, "K2");
  EXPECT_EQ(store_->search().Find("cord", 10, {"K1", "K2"}).size(), 3u);
  EXPECT_EQ(store_->search().Find("cord", 10, {"K3", "nope"}).size(), 0u);
  EXPECT_EQ(store_->search().Find("电池", 10, {"K3"}).size(), 1u);
  EXPECT_EQ(store_->search().Find("cord", 1, {"K1"}).size(), 1u) << "the limit still applies";
}

}  // namespace
}  // namespace revsum
