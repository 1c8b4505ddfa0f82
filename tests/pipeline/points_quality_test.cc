// Support and polarity of points on generated dumps with planted opinions (bench/gen_planted.py):
// the reported share of each planted opinion must be within 5 points of the truth and its
// polarity right. Prints, per language, the planted and reported shares and a threshold sweep.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "revsum/ingest.h"
#include "revsum/run.h"
#include "revsum/store.h"
#include "support/temp_dir.h"

namespace revsum {
namespace {

struct Planted {
  std::string product, key, polarity;
  double share = 0;
  std::set<std::string> paraphrases;
};

std::vector<Planted> ReadTruth(const std::string& path) {
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.load(path);
  std::vector<Planted> out;
  for (auto [product, entry] : root.get_object()) {
    for (simdjson::dom::element o : entry["opinions"].get_array()) {
      Planted p;
      p.product = std::string(product);
      p.key = std::string(std::string_view(o["key"]));
      p.polarity = std::string(std::string_view(o["polarity"]));
      p.share = double(o["share"]);
      for (simdjson::dom::element t : o["paraphrases"].get_array())
        p.paraphrases.insert(std::string(std::string_view(t)));
      out.push_back(std::move(p));
    }
  }
  return out;
}

// The planted opinion's point: the stored point whose representative is one of its paraphrases,
// with the largest support (a split opinion reports its biggest part).
const StoredPoint* Find(const std::vector<StoredPoint>& points, const Planted& p) {
  const StoredPoint* best = nullptr;
  for (const StoredPoint& s : points) {
    // The segmenter normalises punctuation (NFKC: "，" becomes ","): compare without the last
    // character, full-width commas read as ASCII ones.
    auto ascii_commas = [](std::string t) {
      for (size_t at; (at = t.find("\uFF0C")) != std::string::npos;) t.replace(at, 3, ",");
      return t;
    };
    for (const std::string& t : p.paraphrases) {
      const std::string stem = ascii_commas(
          t.substr(0, t.size() - (static_cast<unsigned char>(t.back()) >= 0x80 ? 3 : 1)));
      if (s.product == p.product && ascii_commas(s.text).rfind(stem, 0) == 0 &&
          (!best || s.support > best->support))
        best = &s;
    }
  }
  return best;
}

void CheckLanguage(const std::string& lang, bool ratings, double tolerance,
                   const std::string& shape = "--products 2 --reviews 200", int seed = 7) {
  testing::TempDir dir;
  const std::string cmd = "python3 \"" REVSUM_SOURCE_DIR "/bench/gen_planted.py\" \"" +
                          dir.path().string() + "\" --lang " + lang + " " + shape + " --seed " +
                          std::to_string(seed) + (ratings ? "" : " --no-ratings") + " > /dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::string dump = dir / ("planted_" + lang + ".jsonl");
  auto store = ReviewStore::Open(dir / "p.db");
  IngestFile(*store, dump, {});
  RunOptions run;
  run.threads = 1;
  SummarizeStore(*store, run);
  const std::vector<StoredPoint> points = store->points().LatestPoints();
  for (const Planted& p : ReadTruth(dump + ".truth.json")) {
    const StoredPoint* got = Find(points, p);
    std::cout << lang << (ratings ? " rated " : " unrated ") << p.product << " " << p.key
              << ": planted " << 100 * p.share << "% " << p.polarity << ", reported "
              << (got ? std::to_string(100 * got->share) + "% " + got->polarity : "no point")
              << "\n";
    ASSERT_NE(got, nullptr) << p.key;
    EXPECT_NEAR(got->share, p.share, tolerance) << p.product << " " << p.key;
    EXPECT_EQ(got->polarity, p.polarity) << p.product << " " << p.key;
  }
}

// Before the sign split, the average-linkage merge and the learned Chinese space (seed 7, 200
// reviews): English rated battery 36% and 33% for 40% planted; unrated 36%/27% and screen "no
// point"; Chinese: no planted opinion formed a point. Now all within 2 points
// (bench/points_planted.sh prints them for other seeds and for the held-out wordings).
// Chinese without ratings, seed 7, was disabled: zh-product-2's "service" (5 %) point had a
// filler sentence as its face (its highest-weight member; 10 of its 14 members were the
// opinion's), so no point showed one of its wordings. Passes since the representative is the
// member nearest the point's centroid (points.h, 1d); no word list changed.
TEST(PointsQuality, EnglishPlantedSharesAndPolarity) { CheckLanguage("en", true, 0.05); }
TEST(PointsQuality, EnglishPlantedWithoutRatings) { CheckLanguage("en", false, 0.05); }
TEST(PointsQuality, ChinesePlantedSharesAndPolarity) { CheckLanguage("zh", true, 0.05); }
TEST(PointsQuality, ChinesePlantedWithoutRatings) { CheckLanguage("zh", false, 0.05); }
// Seed 3 in Chinese: without the aspect terms (models/polarity/zh-aspects.txt) the rated
// "battery" (40 %) came out at 34 % (12 of its wordings a point of their own) and, unrated,
// "service" (5 %) sat in a 41.5 % point with it (PointsOptions::learned_aspect_weight).
TEST(PointsQuality, ChinesePlantedSeed3) {
  CheckLanguage("zh", true, 0.05, "--products 2 --reviews 200", 3);
}
TEST(PointsQuality, ChinesePlantedSeed3WithoutRatings) {
  CheckLanguage("zh", false, 0.05, "--products 2 --reviews 200", 3);
}
// One product of 5,000 reviews (about 25,000 sentences): leaders were taken from the 2,000
// highest-weight sentences only, none of them a planted wording, and battery came out 22.7 %
// neutral for 40 %, screen and service with no point (PointsOptions::max_scan).
TEST(PointsQuality, ChinesePlantedOnABigProduct) {
  CheckLanguage("zh", true, 0.05, "--products 1 --reviews 5000");
}

// Small products (issue 8): ten reviews of one kettle saying four things (boils fast 60 %, the lid
// broke 30 %, the cord is short 30 %, looks good 20 %) and filler no other review says
// (tests/data/points/kettle_small.truth.tsv). Every member of every point must say what its
// representative says, no point may be above its thing's true share + 10 points, and "boils fast"
// must be found. Before the small-scope rule (points.h, small_scope_*): one 70 % complaint point
// held the lid, the cord, "The handle stays cool." and "It came in a plain brown box.".
TEST(PointsQuality, SmallProductPointsSayOneThing) {
  const std::string data = REVSUM_SOURCE_DIR "/tests/data/points/";
  std::map<std::string, std::string> says;
  {
    std::ifstream truth(data + "kettle_small.truth.tsv");
    ASSERT_TRUE(truth) << "kettle_small.truth.tsv";
    for (std::string line; std::getline(truth, line);) {
      if (line.empty() || line[0] == '#') continue;
      const size_t tab = line.find('\t');
      ASSERT_NE(tab, std::string::npos) << line;
      says[line.substr(0, tab)] = line.substr(tab + 1);
    }
  }
  testing::TempDir dir;
  auto store = ReviewStore::Open(dir / "k.db");
  IngestFile(*store, data + "kettle_small.jsonl", {});
  RunOptions run;
  run.threads = 1;
  SummarizeStore(*store, run);
  const std::string product = "B0KETTLE01";
  std::map<int64_t, std::string> sentence;
  std::map<std::string, std::set<int64_t>> reviews_saying;
  const std::vector<StoredReview> reviews = store->reviews().GetProductReviews(product);
  ASSERT_EQ(reviews.size(), 10u);
  for (const StoredReview& r : reviews) {
    for (const StoredSentence& s : r.sentences) {
      ASSERT_TRUE(says.count(s.text)) << "not in the truth: " << s.text;
      sentence[s.id] = s.text;
      reviews_saying[says[s.text]].insert(r.id);
    }
  }
  const std::vector<StoredPoint> latest = store->points().LatestPoints(product);
  ASSERT_FALSE(latest.empty());
  bool fast = false;
  for (const StoredPoint& p : store->points().RunPoints(latest.front().run_id, product)) {
    const std::string thing = says.at(p.text);
    std::cout << p.polarity << " " << 100 * p.share << "% [" << thing << "] " << p.text << "\n";
    const double truth = thing == "-" ? 0.1 : reviews_saying[thing].size() / 10.0;
    EXPECT_LE(p.share, truth + 0.1 + 1e-9) << p.text;
    for (const StoredPointMember& m : p.members) {
      std::cout << "    " << sentence.at(m.sentence_id) << "\n";
      EXPECT_EQ(says.at(sentence.at(m.sentence_id)), thing)
          << "\"" << sentence.at(m.sentence_id) << "\" in the point of \"" << p.text << "\"";
    }
    fast = fast || thing == "fast";
  }
  EXPECT_TRUE(fast) << "no point says that it boils fast";
}

}  // namespace
}  // namespace revsum
