// Each dump teaches its own store (include/revsum/train.h): a rated store trains and keeps a
// model that runs use; ratings that cannot teach (too few, all equal, an unknown scale) leave the
// default model with a notice; a damaged stored model is refused.
#include <sqlite3.h>

#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "revsum/ingest.h"
#include "revsum/run.h"
#include "revsum/train.h"
#include "support/query_db.h"
#include "support/temp_dir.h"

namespace revsum {
namespace {

using testing::TempDir;

int64_t Count(ReviewStore& store, const std::string& sql) {
  store.Flush();
  const testing::DbConnection db(store.path());
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db.get(), sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
  int64_t n = -1;
  if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return n;
}

// `n` kettle reviews over 4 products; rating(i) gives each review's stars. A review says one of
// a few things for its rating and some narration.
std::string WriteDump(const TempDir& dir, size_t n, double (*rating)(size_t)) {
  const char* good[] = {"It boils a full jug in under two minutes.",
                        "The lid closes with a soft click.", "Pours cleanly without dribbling.",
                        "Still spotless after months of use."};
  const char* bad[] = {"The base started rusting in the second month.",
                       "Water tastes of plastic no matter how often I rinse it.",
                       "The switch clicks off before the water boils.",
                       "Scale builds up inside within days."};
  const char* narration[] = {"I use it every morning.", "It sits next to the toaster.",
                             "Bought it for the office.", "My old one was a different brand."};
  const std::string path = dir / "kettles.jsonl";
  std::ofstream out(path);
  for (size_t i = 0; i < n; ++i) {
    const double r = rating(i);
    const char* said = r >= 4 ? good[i % 4] : r <= 2 ? bad[i % 4] : narration[(i + 1) % 4];
    out << "{\"id\":\"k" << i << "\",\"asin\":\"KETTLE" << i % 4 << "\",\"rating\":" << r
        << ",\"text\":\"" << narration[i % 4] << " " << said << " Review number " << i << ".\"}\n";
  }
  return path;
}

std::unique_ptr<ReviewStore> Ingested(const TempDir& dir, const std::string& dump) {
  auto store = ReviewStore::Open(dir / "store.db");
  IngestFile(*store, dump, IngestOptions{});
  return store;
}

RunOptions Lexical() {
  RunOptions options;
  options.embedder = EmbedderChoice::kLexical;
  options.threads = 1;
  return options;
}

TEST(StoreOpinions, ARatedStoreTrainsKeepsAndUsesItsOwnModel) {
  TempDir dir;
  auto store = Ingested(dir, WriteDump(dir, 600, [](size_t i) { return i % 3 == 0 ? 1.0 : 5.0; }));
  const RunReport report = SummarizeStore(*store, Lexical());
  EXPECT_NE(report.opinion_model.find("store model 1"), std::string::npos) << report.opinion_model;
  EXPECT_TRUE(report.opinion_notice.empty());
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM opinion_models"), 1);
  EXPECT_GT(Count(*store, "SELECT heldout_reviews FROM opinion_models"), 30);
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM scores WHERE opinion IS NULL"), 0);
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM sentence_opinions"),
            Count(*store, "SELECT count(*) FROM sentences"));
  EXPECT_EQ(Count(*store,
                  "SELECT count(*) FROM sentence_opinions WHERE polarity = 'complaint' AND text = "
                  "'The base started rusting in the second month.'"),
            Count(*store,
                  "SELECT count(*) FROM sentences WHERE text = "
                  "'The base started rusting in the second month.'"));
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM runs WHERE params LIKE '%store model 1%'"), 1);
  // The next run finds the stored model instead of training again.
  const RunReport again = SummarizeStore(*store, Lexical());
  EXPECT_EQ(again.opinion_model, report.opinion_model);
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM opinion_models"), 1);
}

TEST(StoreOpinions, EqualRatingsTeachNothing) {
  TempDir dir;
  auto store = Ingested(dir, WriteDump(dir, 400, [](size_t) { return 5.0; }));
  const RunReport report = SummarizeStore(*store, Lexical());
  EXPECT_NE(report.opinion_model.find("default model"), std::string::npos);
  EXPECT_NE(report.opinion_notice.find("every rating is 5.00"), std::string::npos)
      << report.opinion_notice;
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM opinion_models"), 0);
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM scores WHERE opinion IS NULL"), 0);
}

TEST(StoreOpinions, TooFewRatedReviewsKeepTheDefault) {
  TempDir dir;
  auto store = Ingested(dir, WriteDump(dir, 60, [](size_t i) { return i % 2 ? 1.0 : 5.0; }));
  const RunReport report = SummarizeStore(*store, Lexical());
  EXPECT_NE(report.opinion_notice.find("60 rated reviews, fewer than the 200"), std::string::npos)
      << report.opinion_notice;
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM opinion_models"), 0);
}

TEST(StoreOpinions, AnUnknownScaleKeepsTheDefault) {
  TempDir dir;
  auto store =
      Ingested(dir, WriteDump(dir, 400, [](size_t i) { return i % 3 == 0 ? 10.0 : 95.0; }));
  const RunReport report = SummarizeStore(*store, Lexical());
  EXPECT_NE(report.opinion_notice.find("unknown scale"), std::string::npos)
      << report.opinion_notice;
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM opinion_models"), 0);
}

TEST(StoreOpinions, OneOutlierDoesNotMakeAStarDumpsScaleUnknown) {
  // 600 star ratings and one 100: the dump is still on stars (the 100 reads as 5), so it trains.
  // Before the dump's counts per scale, its range 1-100 made the scale unknown: no model.
  TempDir dir;
  auto store = Ingested(dir, WriteDump(dir, 601, [](size_t i) {
                          return i == 600 ? 100.0 : i % 3 ? 5 : 1.0;
                        }));
  const RunReport report = SummarizeStore(*store, Lexical());
  EXPECT_NE(report.opinion_model.find("store model 1"), std::string::npos)
      << report.opinion_model << " / " << report.opinion_notice;
  EXPECT_EQ(Count(*store, "SELECT count(*) FROM opinion_models"), 1);
}

TEST(StoreOpinions, ADamagedStoredModelIsRefused) {
  TempDir dir;
  auto store = Ingested(dir, WriteDump(dir, 600, [](size_t i) { return i % 3 == 0 ? 1.0 : 5.0; }));
  StoreTrainOptions options;
  const StoreTrainReport trained = TrainStoreOpinions(*store, options, LoadDefaultOpinionModel());
  ASSERT_TRUE(trained.trained) << trained.notice;
  // One byte of the stored weights flipped.
  std::string blob = store->opinion_models().Latest()->blob;
  blob[5000] ^= 0x01;
  const testing::DbConnection db(store->path());
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db.get(), "UPDATE opinion_models SET model = ?1", -1, &st, nullptr),
            SQLITE_OK);
  sqlite3_bind_blob(st, 1, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
  ASSERT_EQ(sqlite3_step(st), SQLITE_DONE);
  sqlite3_finalize(st);
  try {
    SummarizeStore(*store, Lexical());
    FAIL() << "a damaged model was used";
  } catch (const OpinionError& e) {
    EXPECT_NE(std::string(e.what()).find("opinion_models row 1: opinion model is damaged"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace revsum
