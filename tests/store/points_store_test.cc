// Points in the store (schema 5): AddPoints, DeleteProductPoints, DeleteRunPoints, LatestPoints,
// Ratings, the product_points and point_evidence views, on real files in a temporary directory.
#include <sqlite3.h>

#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "revsum/store.h"

namespace revsum {
namespace {

namespace fs = std::filesystem;

class PointsStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("revsum_points_store_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
    path_ = (dir_ / "reviews.db").string();
    store_ = ReviewStore::Open(path_);
    const int64_t source = store_->ingest().AddSource("dump.jsonl", "jsonl", 0);
    for (int i = 0; i < 4; ++i) {
      Review r;
      r.source = "dump.jsonl";
      r.line = static_cast<uint64_t>(i + 1);
      r.product = i < 3 ? "phone" : "case";
      r.external_id = "ext" + std::to_string(i);
      r.text = i < 2 ? "battery dies fast" : "great screen";
      r.rating = i < 2 ? 1.0 : 5.0;
      const std::string t = r.text;
      ASSERT_TRUE(store_->ingest().AddReview(source, r,
                                             {Sentence{0, 0, static_cast<int32_t>(t.size()), t}}));
    }
    store_->Flush();
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }
  StoredPoint Battery(int64_t run) {
    StoredPoint p;
    p.run_id = run;
    p.idx = 0;
    p.text = "battery dies fast";
    p.sentence_id = 1;
    p.review_id = 1;
    p.polarity = "complaint";
    p.support = 2;
    p.share = 2.0 / 3;
    p.aspect = "battery";
    p.weight = 0.5;
    p.members = {{1, 1, 1.0}, {2, 2, 0.9}};
    return p;
  }
  int64_t Scalar(const std::string& sql) {
    sqlite3* db;
    EXPECT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
    int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
  }
  fs::path dir_;
  std::string path_;
  std::unique_ptr<ReviewStore> store_;
};

TEST_F(PointsStoreTest, WritesReadsAndServesTheViews) {
  RunInfo info;
  info.key = "k";
  const int64_t run = store_->runs().BeginRun(info, {"centroid"});
  StoredPoint screen = Battery(run);
  screen.idx = 1;
  screen.text = "great screen";
  screen.sentence_id = 3;
  screen.review_id = 3;
  screen.polarity = "praise";
  screen.support = 1;
  screen.aspect = "";
  screen.members = {{3, 3, 1.0}};
  store_->points().AddPoints(run, "phone", {Battery(run), screen});
  // Not finished: the view shows nothing yet.
  EXPECT_TRUE(store_->points().LatestPoints().empty());
  store_->runs().FinishRun(run);
  const std::vector<StoredPoint> points = store_->points().LatestPoints("phone");
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].text, "battery dies fast");
  EXPECT_EQ(points[0].external_id, "ext0");
  EXPECT_EQ(points[0].aspect, "battery");
  EXPECT_EQ(points[1].aspect, "");
  EXPECT_EQ(points[1].polarity, "praise");
  // The question of the issue, as one short SELECT.
  EXPECT_EQ(Scalar("SELECT support FROM product_points WHERE polarity = 'complaint' AND "
                   "(aspect = 'battery' OR text LIKE '%battery%') ORDER BY support DESC LIMIT 5"),
            2);
  EXPECT_EQ(Scalar("SELECT members FROM product_points WHERE idx = 0"), 2);
  EXPECT_EQ(Scalar("SELECT count(*) FROM point_evidence WHERE point = 'battery dies fast'"), 2);
  EXPECT_EQ(Scalar("SELECT sum(rating) FROM point_evidence WHERE idx = 0"), 2);
}

TEST_F(PointsStoreTest, DeletesPerProductPerRunAndWithTheRun) {
  RunInfo info;
  info.key = "k";
  const int64_t run = store_->runs().BeginRun(info, {"centroid"});
  store_->points().AddPoints(run, "phone", {Battery(run)});
  StoredPoint other = Battery(run);
  other.sentence_id = 4;
  other.review_id = 4;
  other.members = {{4, 4, 1.0}};
  store_->points().AddPoints(run, "case", {other});
  store_->runs().FinishRun(run);
  EXPECT_EQ(Scalar("SELECT count(*) FROM point_members"), 3);
  store_->points().DeleteProductPoints(run, "phone");
  store_->Flush();
  EXPECT_EQ(Scalar("SELECT count(*) FROM points"), 1);
  EXPECT_EQ(Scalar("SELECT count(*) FROM point_members"), 1);  // cascaded
  store_->points().DeleteRunPoints(run);
  store_->Flush();
  EXPECT_EQ(Scalar("SELECT count(*) FROM points"), 0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM point_members"), 0);
}

TEST_F(PointsStoreTest, RatingRange) {
  auto all = store_->reviews().Ratings();
  ASSERT_TRUE(all);
  EXPECT_EQ(all->min, 1);
  EXPECT_EQ(all->max, 5);
  EXPECT_FALSE(all->labels_only);
  auto phone = store_->reviews().Ratings("phone");
  ASSERT_TRUE(phone);
  EXPECT_FALSE(store_->reviews().Ratings("nothing"));
}

}  // namespace
}  // namespace revsum
