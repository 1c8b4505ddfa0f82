// Issue 8, "never empty" and "no fragments", through the pipeline library on a real store: a
// product whose every review is two or three characters long still gets a summary, and a
// product with real sentences never gets its fragments.
#include <sqlite3.h>

#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "revsum/ingest.h"
#include "revsum/run.h"
#include "support/query_db.h"
#include "support/temp_dir.h"

namespace revsum {
namespace {

using testing::TempDir;

// The product summaries of the store's latest run, subject -> text.
std::vector<std::pair<std::string, std::string>> ProductSummaries(ReviewStore& store) {
  std::vector<std::pair<std::string, std::string>> out;
  store.Flush();
  const testing::DbConnection db(store.path());
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db.get(),
                               "SELECT subject, text FROM summaries WHERE scope = 'product' "
                               "ORDER BY subject",
                               -1, &st, nullptr),
            SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW) {
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)),
                     reinterpret_cast<const char*>(sqlite3_column_text(st, 1)));
  }
  sqlite3_finalize(st);
  return out;
}

std::unique_ptr<ReviewStore> Ingest(const TempDir& dir, const std::string& csv) {
  std::ofstream(dir / "dump.csv") << csv;
  auto store = ReviewStore::Open(dir / "store.db");
  IngestOptions ingest;
  ingest.read.fields.product = "cat";
  IngestFile(*store, dir / "dump.csv", ingest);
  return store;
}

TEST(ShortReviewsTest, AProductWhoseReviewsAreAllTwoCharactersLongGetsASummary) {
  TempDir dir;
  auto store =
      Ingest(dir, "cat,review\n耳机,很好\n耳机,不错\n耳机,音质差\n耳机,好评\n耳机,太差了\n");
  SummarizeStore(*store, RunOptions{});
  const auto summaries = ProductSummaries(*store);
  ASSERT_EQ(summaries.size(), 1u);
  EXPECT_EQ(summaries[0].first, "耳机");
  EXPECT_THAT(summaries[0].second, ::testing::AnyOf("音质差", "太差了"))
      << "a sentence that is not a fragment is preferred to the heavier '很好'";
}

TEST(ShortReviewsTest, FragmentsAreNotChosenWhenTheProductHasRealSentences) {
  TempDir dir;
  auto store = Ingest(dir,
                      "cat,review\n"
                      "酒店,住了两天.房间很干净,早餐种类丰富。\n"
                      "酒店,办入住手续时。前台服务热情周到。\n"
                      "酒店,所以打1分。隔音效果很差,晚上很吵。\n"
                      "酒店,我相信会的。房间很干净,位置也方便。\n"
                      "酒店,其次,书的内容。早餐种类丰富,味道不错。\n"
                      "酒店,我在:http:t.cn/zjKqa2U 前台服务热情。\n");
  SummarizeStore(*store, RunOptions{});
  const auto summaries = ProductSummaries(*store);
  ASSERT_EQ(summaries.size(), 1u);
  const std::string& text = summaries[0].second;
  EXPECT_FALSE(text.empty());
  for (const char* fragment :
       {"住了两天", "办入住手续时", "所以打1分", "我相信会的", "其次", "http", "t.cn"}) {
    EXPECT_THAT(text, ::testing::Not(::testing::HasSubstr(fragment))) << text;
  }
}

// Strings of one column of a query on the store.
std::vector<std::string> Column(ReviewStore& store, const char* sql) {
  std::vector<std::string> out;
  store.Flush();
  const testing::DbConnection db(store.path());
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db.get(), sql, -1, &st, nullptr), SQLITE_OK) << sql;
  while (sqlite3_step(st) == SQLITE_ROW)
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  return out;
}

TEST(ShortReviewsTest, AHotelsRepliesAreNotTheReviewersWords) {
  // The shopping dump's hotel reviews carry the hotel's answer after "宾馆反馈 <date> ："; the
  // same thanks in every review would otherwise be the most central sentence of all.
  const std::string reply =
      "宾馆反馈 2008年8月12日 ： 非常感谢您对我们酒店的支持。欢迎您再次光临本酒店!";
  TempDir dir;  // full-width commas in the text, as in the dump (an ASCII one splits a field)
  auto store =
      Ingest(dir,
             "cat,review\n"
             "酒店,房间很干净，早餐种类丰富。" +
                 reply + "\n" + "酒店,前台服务热情周到，房间也很干净。" + reply + "\n" +
                 "酒店,隔音效果很差，晚上很吵。" + reply + "\n" + "酒店,房间很干净，位置也方便。" +
                 reply + "\n" + "酒店,早餐种类丰富，味道不错。\n");
  SummarizeStore(*store, RunOptions{});
  const auto summaries = ProductSummaries(*store);
  ASSERT_EQ(summaries.size(), 1u);
  const std::vector<std::string> members =
      Column(*store, "SELECT s.text FROM point_members m JOIN sentences s ON s.id = m.sentence_id");
  ASSERT_FALSE(members.empty());
  for (const std::string& text : members) {
    EXPECT_THAT(text, ::testing::Not(::testing::AnyOf(::testing::HasSubstr("感谢"),
                                                      ::testing::HasSubstr("光临"))));
  }
  for (const char* words : {"宾馆反馈", "感谢", "光临"}) {
    EXPECT_THAT(summaries[0].second, ::testing::Not(::testing::HasSubstr(words)));
  }
  // The summary's input size counts the reviewer's words only: as a store without the replies.
  {
    TempDir plain_dir;
    auto plain = Ingest(plain_dir,
                        "cat,review\n"
                        "酒店,房间很干净，早餐种类丰富。\n"
                        "酒店,前台服务热情周到，房间也很干净。\n"
                        "酒店,隔音效果很差，晚上很吵。\n"
                        "酒店,房间很干净，位置也方便。\n"
                        "酒店,早餐种类丰富，味道不错。\n");
    SummarizeStore(*plain, RunOptions{});
    const char* sizes =
        "SELECT units_in || ' ' || tokens_in FROM summaries WHERE scope = 'product'";
    EXPECT_EQ(Column(*store, sizes), Column(*plain, sizes));
  }
  // Nothing is lost: the store keeps the replies' sentences, only the run leaves them out.
  EXPECT_EQ(Column(*store, "SELECT count(*) FROM sentences WHERE text LIKE '%光临%'")[0], "4");
}

}  // namespace
}  // namespace revsum
