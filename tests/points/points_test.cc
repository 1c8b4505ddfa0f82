// Points (include/revsum/points.h): clustering, support, share, polarity, aspect, lexicon, scales.
#include "revsum/points.h"

#include <gtest/gtest.h>
#include <algorithm>

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace revsum {
namespace {

PolarityLexicon TestLexicon() {
  PolarityLexicon lex;
  lex.Add(
      "[positive]\ngreat\nlove\n好\n不错\n[negative]\nbad\ndies\n差\n没电\n[negator]\nnot\n不\n",
      "test");
  return lex;
}

TEST(PolarityLexicon, EnglishWordsNegationAndPhrases) {
  PolarityLexicon lex;
  lex.Add("[positive]\ngood\nworks well\n[negative]\nbad\nstopped working\n[negator]\nnot\ndon't\n",
          "t");
  EXPECT_EQ(lex.Score("This is GOOD."), 1);
  EXPECT_EQ(lex.Score("not good at all"), -1);
  EXPECT_EQ(lex.Score("It's not bad"), 1);
  EXPECT_EQ(lex.Score("It works well, then stopped working."), 0);
  EXPECT_EQ(lex.Score("I don't find it good"), -1);
  EXPECT_EQ(lex.Score("goodness"), 0);  // whole words only
}

TEST(PolarityLexicon, ChineseSubstringsLongestFirstAndNegators) {
  const PolarityLexicon lex = TestLexicon();
  EXPECT_EQ(lex.Score("很好"), 1);
  EXPECT_EQ(lex.Score("不好"), -1);     // negator before 好
  EXPECT_EQ(lex.Score("质量不错"), 1);  // 不错 is matched whole, not 不 + 错
  EXPECT_EQ(lex.Score("电池半天就没电了"), -1);
  EXPECT_EQ(lex.Score("不差"), 1);
}

// Score looks only at the terms that can start at a position (by first word, first two bytes or
// the one byte); these cases need the longest of several terms sharing that start, a term added
// by a later Add, one-byte terms after longer ones, and text that is not valid UTF-8.
TEST(PolarityLexicon, TermsSharingAStartKeepLongestFirst) {
  PolarityLexicon lex;
  lex.Add(
      "[positive]\nworks\nworks well enough\n好\n好用\n\xC3\n[negative]\nworks badly\n好用不了\n"
      "[negator]\nnot\n",
      "t");
  EXPECT_EQ(lex.Score("It works badly."), -1);       // two words beat one
  EXPECT_EQ(lex.Score("It works well enough."), 1);  // three words, not "works" alone
  EXPECT_EQ(lex.Score("it works well"), 1);          // only "works" fits
  EXPECT_EQ(lex.Score("好用不了"), -1);              // 4 characters beat 好用 and 好
  EXPECT_EQ(lex.Score("好用好"), 2);
  EXPECT_EQ(lex.Score("\xC3\xA9 \xC3"), 2);   // the one-byte term, twice
  EXPECT_EQ(lex.Score("\xE5\xA5"), 0);        // a cut 好 is no term
  lex.Add("[negative]\nworks\n好用\n", "u");  // same text, other sign: first listed wins
  EXPECT_EQ(lex.Score("it works"), 1);
  lex.Add("[negative]\nworks not at all\n", "v");  // a later, longer term is indexed too
  EXPECT_EQ(lex.Score("it works not at all"), -1);
}

TEST(PolarityLexicon, BadListNamesLine) {
  PolarityLexicon lex;
  try {
    lex.Add("# c\n\ngood\n", "x.txt");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "x.txt:3: term outside a section: good");
  }
  EXPECT_THROW(lex.Add("[happy]\n", "x.txt"), std::runtime_error);
}

// A neutral term scores nothing and keeps shorter terms from matching inside it; it is not a
// negator. With the shipped lists: 书籍's top praise point was shown by "...也看了好多本了" (好多
// "many" scored as 好 "good").
TEST(PolarityLexicon, NeutralTermsScoreNothingAndHideShorterOnes) {
  PolarityLexicon lex;
  lex.Add("[positive]\n好\ngood\n[negative]\n差\n[negator]\n不\n[neutral]\n好多\ngood luck\n", "t");
  EXPECT_EQ(lex.Score("好多人"), 0);
  EXPECT_EQ(lex.Score("不好多"), 0);    // not a negated 好
  EXPECT_EQ(lex.Score("好多不差"), 1);  // the neutral term does not block the negator after it
  EXPECT_EQ(lex.Score("Good luck with that"), 0);
  EXPECT_EQ(lex.Score("good value"), 1);
  const PolarityLexicon shipped = PolarityLexicon::Load(PolarityLexicon::DefaultPaths());
  EXPECT_EQ(shipped.Score("这一套书我基本买齐了,也看了好多本了。"), 0);
  EXPECT_EQ(shipped.Score("好像是二手的"), 0);
  EXPECT_LT(shipped.Score("质量好差"), 0);
}

TEST(PolarityLexicon, DefaultListsLoad) {
  const PolarityLexicon lex = PolarityLexicon::Load(PolarityLexicon::DefaultPaths());
  EXPECT_FALSE(lex.empty());
  EXPECT_LT(lex.Score("The battery died after two days, very disappointed."), 0);
  EXPECT_GT(lex.Score("Great sound, I love it."), 0);
  EXPECT_LT(lex.Score("电池不耐用,太差了"), 0);
  EXPECT_GT(lex.Score("屏幕很清晰,非常满意"), 0);
}

// Aspect terms are matched apart from the polarity terms: they score nothing, a polar term inside
// one still counts, the longest aspect term at a position wins and is consumed (卫生间 is a room,
// not 卫生 "hygiene"), and a section named twice is one aspect.
TEST(PolarityLexicon, AspectsLongestFirstApartFromPolarity) {
  PolarityLexicon lex;
  lex.Add(
      "[positive]\n好\n干净\ngood\n[aspect:battery]\n电池\n续航\n[aspect:room]\n卫生间\n"
      "[aspect:cleanliness]\n卫生\n干净\n[aspect:price]\nprice\ngood value\n[negative]\n差\n"
      "[aspect:battery]\n充电\n",
      "t");
  ASSERT_EQ(lex.aspect_names(),
            (std::vector<std::string>{"battery", "room", "cleanliness", "price"}));
  EXPECT_EQ(lex.Aspects("电池续航都不好,充电也慢"), std::vector<int>{0});
  EXPECT_EQ(lex.Aspects("卫生间"), std::vector<int>{1});
  EXPECT_EQ(lex.Aspects("卫生间很干净"), (std::vector<int>{1, 2}));
  EXPECT_EQ(lex.Aspects("Good value for the price."), std::vector<int>{3});
  EXPECT_TRUE(lex.Aspects("It boils water.").empty());
  EXPECT_EQ(lex.Score("电池续航"), 0);  // aspect terms carry no sign
  EXPECT_EQ(lex.Score("卫生间很干净"), 1);
  EXPECT_EQ(lex.Score("电池差"), -1);  // the [negative] after the aspect sections is polar
  EXPECT_THROW(lex.Add("[aspect:]\n电池\n", "x.txt"), std::runtime_error);
  const PolarityLexicon shipped = PolarityLexicon::Load(PolarityLexicon::DefaultPaths());
  const auto& names = shipped.aspect_names();
  const auto battery = std::find(names.begin(), names.end(), "battery");
  ASSERT_NE(battery, names.end());
  EXPECT_EQ(shipped.Aspects("电池容量太小"),
            std::vector<int>{static_cast<int>(battery - names.begin())});
}

TEST(RatingScale, DetectsAndNormalises) {
  const RatingScale labels = DetectRatingScale(0, 1, true);
  EXPECT_EQ(labels.kind, RatingScale::Kind::kLabels);
  EXPECT_DOUBLE_EQ(labels.Normalise(0), -1);
  EXPECT_DOUBLE_EQ(labels.Normalise(1), 1);
  const RatingScale stars = DetectRatingScale(1, 5, false);
  EXPECT_EQ(stars.kind, RatingScale::Kind::kStars);
  EXPECT_DOUBLE_EQ(stars.Normalise(3), 0);
  EXPECT_DOUBLE_EQ(stars.Normalise(5), 1);
  EXPECT_DOUBLE_EQ(stars.Normalise(2), -0.5);
  const RatingScale ten = DetectRatingScale(1, 10, false);
  EXPECT_EQ(ten.kind, RatingScale::Kind::kTen);
  EXPECT_DOUBLE_EQ(ten.Normalise(10), 1);
  EXPECT_DOUBLE_EQ(ten.Normalise(1), -1);
  const RatingScale hundred = DetectRatingScale(0, 100, false);
  EXPECT_EQ(hundred.kind, RatingScale::Kind::kLinear);
  EXPECT_DOUBLE_EQ(hundred.Normalise(50), 0);
}

TEST(RatingScale, AFewOutliersDoNotStretchTheDumpsScale) {
  // 400 star ratings and one 100: still stars, and the 100 reads as the top of the scale.
  const RatingScale stars = DetectRatingScale(1, 100, false, {401, 400, 400});
  EXPECT_EQ(stars.kind, RatingScale::Kind::kStars);
  EXPECT_DOUBLE_EQ(stars.Normalise(2), -0.5);
  EXPECT_DOUBLE_EQ(stars.Normalise(100), 1);
  // Ratings 0-10 with two outliers in 300: tenths.
  EXPECT_EQ(DetectRatingScale(0, 1e6, false, {300, 120, 298}).kind, RatingScale::Kind::kTen);
  // More than 1 % outside: the range decides, as without counts.
  EXPECT_EQ(DetectRatingScale(1, 100, false, {100, 90, 90}).kind, RatingScale::Kind::kLinear);
  // Small dumps may have one.
  EXPECT_EQ(DetectRatingScale(1, 100, false, {10, 9, 9}).kind, RatingScale::Kind::kStars);
  EXPECT_EQ(DetectRatingScale(1, 100, false, {10, 8, 8}).kind, RatingScale::Kind::kLinear);
  // One rating, off every scale, is not a star dump.
  EXPECT_EQ(DetectRatingScale(20, 20, false, {1, 0, 0}).kind, RatingScale::Kind::kLinear);
}

// A scope of 3 topics in orthogonal directions (plus noise-free paraphrases): e0 x5 reviews,
// e1 x3 reviews, e2 x1 review.
struct Fixture {
  std::vector<std::string> texts;
  std::vector<size_t> review_of;
  Matrix S;
  Weights w;
  PointsInput Input(std::vector<std::optional<double>> ratings = {}) {
    PointsInput in;
    in.texts = &texts;
    in.review_of = review_of;
    in.ratings = std::move(ratings);
    in.review_count = 10;
    in.scale = DetectRatingScale(1, 5, false);
    in.embeddings = &S;
    in.weights = &w;
    return in;
  }
};

Fixture MakeFixture() {
  Fixture f;
  auto add = [&](const std::string& t, size_t review, int dir, float wobble) {
    f.texts.push_back(t);
    f.review_of.push_back(review);
    Eigen::VectorXf v = Eigen::VectorXf::Zero(4);
    v(dir) = 1;
    v(3) = wobble;
    v.normalize();
    f.S.conservativeResize(static_cast<Eigen::Index>(f.texts.size()), 4);
    f.S.row(f.S.rows() - 1) = v.transpose();
  };
  for (size_t r = 0; r < 5; ++r) add("battery dies fast " + std::to_string(r), r, 0, 0.1f * r);
  add("the battery dies again", 0, 0,
      0.05f);  // a second sentence of review 0: support counts it once
  for (size_t r = 5; r < 8; ++r) add("great screen " + std::to_string(r), r, 1, 0.1f);
  add("I love the color", 8, 2, 0);
  add("x", 9, 3, 0);  // alone on its own axis
  const Eigen::Index n = f.S.rows();
  f.w.final = Eigen::VectorXf::Constant(n, 1.0f / static_cast<float>(n));
  f.w.final(1) *= 2;  // the second battery sentence ranks first among its paraphrases
  f.w.final /= f.w.final.sum();
  f.w.head_names = {"centroid", "aspect:battery", "aspect:display"};
  f.w.per_head = Matrix::Constant(n, 3, 1.0f / static_cast<float>(n));
  for (Eigen::Index i = 0; i < 6; ++i) f.w.per_head(i, 1) = 3.0f / static_cast<float>(n);
  return f;
}

TEST(ComputePoints, ClustersCountsDistinctReviewsAndOrdersBySupport) {
  Fixture f = MakeFixture();
  PolarityLexicon lex = TestLexicon();
  lex.Add("[aspect:battery]\nbattery\n[aspect:screen]\nscreen\n[aspect:colour]\ncolor\n",
          "aspects");
  PointsOptions o;
  o.threshold = 0.9f;
  o.small_scope_reviews = 0;  // the general rule; PointsQuality.SmallProductPointsSayOneThing
  const std::vector<Point> points = ComputePoints(f.Input(), lex, o);
  ASSERT_EQ(points.size(), 2u);  // support 1 points are dropped
  EXPECT_EQ(points[0].support, 5u);
  EXPECT_EQ(points[0].members.size(), 6u);
  EXPECT_DOUBLE_EQ(points[0].share, 0.5);
  // Attention counts (face_weight): the member twice as heavy as the others ("battery dies fast
  // 1"), near the centroid too; without it the member nearest the centroid (wobbles 0, 0.05,
  // 0.1 ... 0.4: mean 0.175), the most typical wording.
  EXPECT_EQ(points[0].text, "battery dies fast 1");
  PointsOptions typical = o;
  typical.face_weight = 0;
  EXPECT_EQ(ComputePoints(f.Input(), lex, typical)[0].text, "battery dies fast 2");
  EXPECT_EQ(points[0].polarity, Polarity::kComplaint);
  EXPECT_EQ(points[0].aspect, "battery");
  EXPECT_EQ(points[1].support, 3u);
  EXPECT_EQ(points[1].polarity, Polarity::kPraise);
  EXPECT_EQ(points[1].aspect, "screen");

  // The aspect its members name, not the attention's aspect heads: without the terms, none
  // (though the fixture's "aspect:battery" head stands out over the battery sentences).
  EXPECT_EQ(ComputePoints(f.Input(), TestLexicon(), o)[0].aspect, "");
  // Named by fewer than half the members: none.
  f.texts[0] = f.texts[2] = f.texts[3] = f.texts[4] = "dies fast";
  EXPECT_EQ(ComputePoints(f.Input(), lex, o)[0].aspect, "");
}

TEST(ComputePoints, FragmentsAreNeverRepresentatives) {
  Fixture f = MakeFixture();
  PointsOptions o;
  o.threshold = 0.9f;
  o.is_fragment = [](std::string_view t) { return t == "battery dies fast 1"; };
  const std::vector<Point> points = ComputePoints(f.Input(), TestLexicon(), o);
  ASSERT_FALSE(points.empty());
  EXPECT_NE(points[0].text, "battery dies fast 1");
  EXPECT_EQ(points[0].support, 5u);
}

TEST(ComputePoints, PolarityFromRatingsWhenTheTextIsSilentAndUnknownWithout) {
  Fixture f = MakeFixture();
  f.texts = std::vector<std::string>(f.texts.size(), "it is a phone");
  PointsOptions o;
  o.threshold = 0.9f;
  std::vector<std::optional<double>> ratings(10, 5.0);
  for (size_t r = 0; r < 5; ++r) ratings[r] = 1.0;
  std::vector<Point> points = ComputePoints(f.Input(ratings), TestLexicon(), o);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].polarity, Polarity::kComplaint);
  EXPECT_EQ(points[1].polarity, Polarity::kPraise);
  std::vector<std::optional<double>> mid(10, 3.0);
  EXPECT_EQ(ComputePoints(f.Input(mid), TestLexicon(), o)[0].polarity, Polarity::kNeutral);
  EXPECT_EQ(ComputePoints(f.Input(), TestLexicon(), o)[0].polarity, Polarity::kUnknown);
}

TEST(ComputePoints, RatingsDecideOnlyWhereTheyDifferFromTheScopes) {
  Fixture f = MakeFixture();
  f.texts = std::vector<std::string>(f.texts.size(), "it is a phone");
  PointsOptions o;
  o.threshold = 0.9f;
  // Every review five stars: a silent point's ratings are the scope's, so they tell nothing.
  std::vector<std::optional<double>> all_five(10, 5.0);
  for (const Point& p : ComputePoints(f.Input(all_five), TestLexicon(), o))
    EXPECT_EQ(p.polarity, Polarity::kNeutral) << p.text;
  // Battery reviews (0-4) 4 stars (0.5), screen reviews (5-7) 5 (1.0), the other two 4: the
  // reviews outside battery average 0.8, so battery (0.5, lift -0.3) is neutral; those outside
  // screen average 0.5, so screen (lift 0.5) is praise.
  std::vector<std::optional<double>> mixed(10, 4.0);
  for (size_t r = 5; r < 8; ++r) mixed[r] = 5.0;
  const std::vector<Point> points = ComputePoints(f.Input(mixed), TestLexicon(), o);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].polarity, Polarity::kNeutral);
  EXPECT_EQ(points[1].polarity, Polarity::kPraise);
  o.rating_min_lift = -2;  // the absolute rule alone: 0.5 >= rating_min_mean
  EXPECT_EQ(ComputePoints(f.Input(mixed), TestLexicon(), o)[0].polarity, Polarity::kPraise);
}

TEST(ComputePoints, AComplaintInsideAFiveStarReviewIsAComplaint) {
  Fixture f = MakeFixture();
  PointsOptions o;
  o.threshold = 0.9f;
  std::vector<std::optional<double>> ratings(10, 5.0);
  EXPECT_EQ(ComputePoints(f.Input(ratings), TestLexicon(), o)[0].polarity, Polarity::kComplaint);
}

// Two of the battery point's six members (2 of 7 weight units) say "dies": a verdict of a minority
// of the point, which a rated scope must back with its ratings (lexicon_minority_coverage).
TEST(ComputePoints, AMinorityVerdictNeedsTheRatingsWhenRated) {
  Fixture f = MakeFixture();
  for (size_t i = 0; i < 6; ++i) f.texts[i] = "the battery " + std::to_string(i);
  f.texts[2] = f.texts[3] = "the battery dies";
  PointsOptions o;
  o.threshold = 0.9f;
  o.centre = 0;
  o.small_scope_reviews = 0;
  EXPECT_EQ(ComputePoints(f.Input(), TestLexicon(), o)[0].polarity, Polarity::kComplaint);
  const std::vector<std::optional<double>> flat(10, 4.0);
  EXPECT_EQ(ComputePoints(f.Input(flat), TestLexicon(), o)[0].polarity, Polarity::kNeutral);
  std::vector<std::optional<double>> low = flat;
  for (size_t r = 0; r < 5; ++r) low[r] = 2.0;  // the battery reviews rate two stars lower
  EXPECT_EQ(ComputePoints(f.Input(low), TestLexicon(), o)[0].polarity, Polarity::kComplaint);
  // Most members say it: the word lists decide even in 4-star reviews.
  f.texts[0] = f.texts[1] = "the battery dies";
  EXPECT_EQ(ComputePoints(f.Input(flat), TestLexicon(), o)[0].polarity, Polarity::kComplaint);
  o.lexicon_minority_coverage = 0;
  f.texts[0] = f.texts[1] = "the battery";
  EXPECT_EQ(ComputePoints(f.Input(flat), TestLexicon(), o)[0].polarity, Polarity::kComplaint);
}

TEST(ComputePoints, AlwaysOnePointAndSizeChecks) {
  std::vector<std::string> texts = {"好"};
  Matrix S = Matrix::Zero(1, 2);
  S(0, 0) = 1;
  Weights w;
  w.final = Eigen::VectorXf::Ones(1);
  PointsInput in;
  in.texts = &texts;
  in.review_of = {0};
  in.review_count = 1;
  in.embeddings = &S;
  in.weights = &w;
  const std::vector<Point> points = ComputePoints(in, TestLexicon(), {});
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].support, 1u);
  EXPECT_EQ(points[0].polarity, Polarity::kPraise);
  in.review_of = {};
  EXPECT_THROW(ComputePoints(in, TestLexicon(), {}), std::invalid_argument);
}

TEST(ComputePoints, ClusterColumnsUseTheTailOnly) {
  // Left half says "different", right half says "same": with cluster_columns = 2 they join.
  std::vector<std::string> texts = {"a", "b"};
  Matrix S(2, 4);
  S << 1, 0, 1, 0,  //
      0, 1, 1, 0;
  S.rowwise().normalize();
  Weights w;
  w.final = Eigen::VectorXf::Constant(2, 0.5f);
  PointsInput in;
  in.texts = &texts;
  in.review_of = {0, 1};
  in.review_count = 2;
  in.embeddings = &S;
  in.weights = &w;
  PointsOptions o;
  o.threshold = 0.9f;
  o.min_support = 1;
  EXPECT_EQ(ComputePoints(in, TestLexicon(), o)[0].support, 1u);
  o.cluster_columns = 2;
  EXPECT_EQ(ComputePoints(in, TestLexicon(), o)[0].support, 2u);
}

// Two sentences at cosine 1 in the cluster space but of opposite sign are two points: a praise and
// a complaint about the same thing are never one opinion.
TEST(ComputePoints, OppositeSignsNeverShareAPoint) {
  std::vector<std::string> texts = {"battery great", "battery bad", "battery great again"};
  Matrix S(3, 2);
  S << 1, 0, 1, 0, 1, 0;
  Weights w;
  w.final = Eigen::Vector3f(0.5f, 0.3f, 0.2f);
  PointsInput in;
  in.texts = &texts;
  in.review_of = {0, 1, 2};
  in.review_count = 3;
  in.embeddings = &S;
  in.weights = &w;
  PointsOptions o;
  o.min_support = 1;
  const std::vector<Point> points = ComputePoints(in, TestLexicon(), o);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].support, 2u);
  EXPECT_EQ(points[0].polarity, Polarity::kPraise);
  EXPECT_EQ(points[1].support, 1u);
  EXPECT_EQ(points[1].polarity, Polarity::kComplaint);
}

// One row direction for every text (cosine 1 between all of them), one review per text unless
// given, equal weights except a heavier first row.
PointsInput SameDirection(const std::vector<std::string>& texts, Matrix& S, Weights& w) {
  const auto n = static_cast<Eigen::Index>(texts.size());
  S = Matrix::Zero(n, 2);
  S.col(0).setOnes();
  w.final = Eigen::VectorXf::Constant(n, 1.0f);
  w.final(0) = 2;
  w.final /= w.final.sum();
  PointsInput in;
  in.texts = &texts;
  for (size_t i = 0; i < texts.size(); ++i) in.review_of.push_back(i);
  in.review_count = texts.size();
  in.embeddings = &S;
  in.weights = &w;
  return in;
}

// An unsigned group linked at the cut to praise only joins the praise point (words the opinion
// model could not sign); praise and complaint never share a point.
TEST(ComputePoints, AnUnsignedGroupJoinsTheOneSideItIsLinkedTo) {
  const std::vector<std::string> texts = {"the battery", "battery great 1", "battery great 2",
                                          "battery great 3", "the battery again"};
  Matrix S;
  Weights w;
  PointsInput in = SameDirection(texts, S, w);
  PointsOptions o;
  o.small_scope_reviews = 0;
  o.centre = 0;
  std::vector<Point> points = ComputePoints(in, TestLexicon(), o);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].support, 5u);
  EXPECT_EQ(points[0].polarity, Polarity::kPraise);
  EXPECT_EQ(points[0].text.rfind("battery great", 0), 0u);  // a member that says it
  // Linked to both sides: the unsigned group stays apart, and each side is its own point.
  const std::vector<std::string> both = {"the battery",   "battery great 1", "battery great 2",
                                         "battery bad 1", "battery bad 2",   "the battery again"};
  Matrix S2;
  Weights w2;
  points = ComputePoints(SameDirection(both, S2, w2), TestLexicon(), o);
  ASSERT_EQ(points.size(), 3u);
  std::map<Polarity, size_t> support;
  for (const Point& p : points) support[p.polarity] = p.support;
  EXPECT_EQ(support[Polarity::kPraise], 2u);
  EXPECT_EQ(support[Polarity::kComplaint], 2u);
  EXPECT_EQ(support[Polarity::kUnknown], 2u);
}

// A statement sided only by its reviews' ratings (unsigned, alone in its review) that is also
// made, unsigned, in reviews of other ratings is one neutral point, not a praise.
TEST(ComputePoints, ARatedSideOfAnUnsignedStatementFoldsIntoIt) {
  const std::vector<std::string> texts = {"it replaced my old lamp", "it replaced my old lamp",
                                          "it replaced my old lamp", "it replaced my old lamp"};
  Matrix S;
  Weights w;
  PointsInput in = SameDirection(texts, S, w);
  in.review_of = {0, 1, 2, 2};  // the last two share a review: little of its verdict each
  in.review_count = 3;
  in.ratings = {5.0, 5.0, 1.0};
  in.scale = RatingScale{};
  PointsOptions o;
  o.small_scope_reviews = 0;
  o.centre = 0;
  o.min_share = 0;
  in.salience = {1.0f, 1.0f, 0.3f, 0.3f};
  std::vector<Point> points = ComputePoints(in, TestLexicon(), o);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].support, 3u);
  EXPECT_EQ(points[0].polarity, Polarity::kNeutral);
  // Without a rating of the other side, the five-star statement argues for its ratings.
  in.ratings = {5.0, 5.0, 5.0};
  in.salience = {1.0f, 1.0f, 0.5f, 0.5f};
  in.ratings.push_back(1.0);  // a fourth review, outside the point, for the lift
  in.review_count = 4;
  points = ComputePoints(in, TestLexicon(), o);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].polarity, Polarity::kPraise);
}

// In a point of at least 5 members, the face is the most typical member no longer than the
// median member; it is shown without the number of a list item it opens.
TEST(ComputePoints, TheFaceHasATypicalLengthAndNoListNumber) {
  std::vector<std::string> texts = {
      "1) battery great", "battery great, really great, for days and days and weeks on end",
      "the battery great indeed", "2.0 battery great", "battery great, they say, for weeks"};
  Matrix S;
  Weights w;
  PointsInput in = SameDirection(texts, S, w);
  // The long sentence is the nearest to the centre; it is longer than the median.
  S(1, 1) = 0.f;
  S(0, 1) = S(2, 1) = S(3, 1) = S(4, 1) = 0.3f;
  S.rowwise().normalize();
  PointsOptions o;
  o.small_scope_reviews = 0;
  const std::vector<Point> points = ComputePoints(in, TestLexicon(), o);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].text, "battery great");
  EXPECT_EQ(texts[points[0].representative], "1) battery great");
  texts[0] = "2.0 battery great";  // a version number is no list item
  EXPECT_EQ(ComputePoints(in, TestLexicon(), o)[0].text, "2.0 battery great");
}

// A question or a hashtag states no claim: such a member is never the face, and a group of them
// alone makes no point.
TEST(ComputePoints, QuestionsAndHashtagsAreNoFaceAndAloneMakeNoPoint) {
  std::vector<std::string> texts = {"Does the battery last?",    "battery lasts all day",
                                    "电池能用多久吗。",          "#battery lasts",
                                    "the #1 battery for a week", "does it last a week ?\""};
  Matrix S;
  Weights w;
  PointsInput in = SameDirection(texts, S, w);
  // Row 0 is the nearest to the centre; rows 2 and 3 next.
  S(1, 1) = S(4, 1) = S(5, 1) = 0.4f;
  S(2, 1) = S(3, 1) = 0.2f;
  S.rowwise().normalize();
  PointsOptions o;
  o.small_scope_reviews = 0;
  std::vector<Point> points = ComputePoints(in, TestLexicon(), o);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_TRUE(points[0].text == "battery lasts all day" ||
              points[0].text == "the #1 battery for a week")
      << points[0].text;

  // Only questions and hashtags: no point from the group; the scope's fallback is its heaviest
  // sentence (here a question, as nothing else is left).
  texts = {"Does the battery last?", "电池能用多久吗", "#battery", "does it last?", "really?"};
  in = SameDirection(texts, S, w);
  points = ComputePoints(in, TestLexicon(), o);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].support, 1u) << "the fallback, not a group of questions";
}

// Average linkage: a chain of rows at 0, 40 and 80 degrees (neighbours at cosine 0.77, the ends
// at 0.17): the pair at 0-40 merges first, and the third joins it at a mean over its two pairs
// of 0.47, so the chain is one claim at a cut of 0.45 and two at 0.5.
TEST(ComputePoints, AverageLinkageJoinsAChainWhoseMeanSimilarityReachesTheCut) {
  std::vector<std::string> texts = {"a", "b", "c", "d"};
  const float d = 3.14159265f / 180;
  Matrix S(4, 3);
  S << 1, 0, 0,                               //
      std::cos(40 * d), std::sin(40 * d), 0,  //
      std::cos(80 * d), std::sin(80 * d), 0,  //
      0, 0, 1;
  Weights w;
  w.final = Eigen::Vector4f(0.4f, 0.1f, 0.3f, 0.2f);
  PointsInput in;
  in.texts = &texts;
  in.review_of = {0, 1, 2, 3};
  in.review_count = 4;
  in.embeddings = &S;
  in.weights = &w;
  PointsOptions o;
  o.small_scope_reviews = 0;
  o.centre = 0;
  o.min_support = 1;
  o.min_share = 0;
  o.threshold = 0.45f;
  std::vector<Point> points = ComputePoints(in, TestLexicon(), o);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].support, 3u);
  o.threshold = 0.5f;
  points = ComputePoints(in, TestLexicon(), o);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].support, 2u);
}

// A group said by fewer than min_share of the reviews is no point; a side bigger than
// max_cluster_sentences clusters an even sample (rows 0, 5, ..., 35 of 40) and the rest join
// its groups by the same criterion.
TEST(ComputePoints, SmallGroupsAreNoPointAndBigSidesClusterASample) {
  std::vector<std::string> texts;
  Matrix S(40, 3);
  PointsInput in;
  for (int i = 0; i < 40; ++i) {
    texts.push_back("sentence " + std::to_string(i));
    S.row(i) << (i < 30 ? 1.0f : 0.0f), (i >= 30 && i < 37 ? 1.0f : 0.0f), (i >= 37 ? 1.0f : 0.0f);
    in.review_of.push_back(static_cast<size_t>(i));
  }
  Weights w;
  w.final = Eigen::VectorXf::Constant(40, 1.0f / 40);
  in.texts = &texts;
  in.review_count = 40;
  in.embeddings = &S;
  in.weights = &w;
  PointsOptions o;
  o.small_scope_reviews = 0;
  o.centre = 0;
  o.threshold = 0.9f;
  o.min_share = 0.1;  // 4 reviews: the group of 3 is no point
  std::vector<Point> points = ComputePoints(in, TestLexicon(), o);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].support, 30u);
  EXPECT_EQ(points[1].support, 7u);
  o.max_cluster_sentences = 8;
  o.min_share = 0.05;  // 2 reviews: the sampled 30 and 35 make a group; 37-39 were not sampled
  points = ComputePoints(in, TestLexicon(), o);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].support, 30u);
  EXPECT_EQ(points[1].support, 7u);
}

// The learned space (Chinese): sentences about the battery in different words are closer to each
// other than to sentences about delivery, on a small corpus of the kind a product has.
TEST(LearnedSentenceVectors, ChineseParaphrasesAreCloserThanOtherTopics) {
  const std::vector<std::string> battery = {"电池不耐用，一天要充两次电。", "电池续航太短了。",
                                            "续航不行，没电很快。", "电量掉得快，电池一般。"};
  const std::vector<std::string> delivery = {"快递很快，第二天就送到了。",
                                             "物流速度快，快递员很好。", "送货很快，包装完好。",
                                             "物流很快，快递小哥态度好。"};
  std::vector<std::string> texts;
  for (int copies = 0; copies < 6; ++copies) {
    texts.insert(texts.end(), battery.begin(), battery.end());
    texts.insert(texts.end(), delivery.begin(), delivery.end());
  }
  const Matrix X = LearnedSentenceVectors(texts, LearnedSpaceOptions{});
  ASSERT_EQ(X.rows(), static_cast<Eigen::Index>(texts.size()));
  double within = 0, across = 0;
  int nw = 0, na = 0;
  for (size_t i = 0; i < 8; ++i) {
    for (size_t j = i + 1; j < 8; ++j) {
      const double c = X.row(static_cast<Eigen::Index>(i)).dot(X.row(static_cast<Eigen::Index>(j)));
      if ((i < 4) == (j < 4))
        within += c, ++nw;
      else
        across += c, ++na;
    }
  }
  EXPECT_GT(within / nw, across / na + 0.15) << within / nw << " vs " << across / na;
  EXPECT_EQ(X, LearnedSentenceVectors(texts, LearnedSpaceOptions{}));  // deterministic
}

// The shipped English word lists on a hand-labelled set (tests/data/polarity/en_labelled.tsv, 140
// review sentences written for this project): the sentence's sign must be the label's (praise
// +, complaint -, neutral 0). Prints accuracy per label; the floor guards against regressions.
TEST(PolarityLexicon, EnglishHandLabelledSet) {
  const PolarityLexicon lex = PolarityLexicon::Load(PolarityLexicon::DefaultPaths());
  std::ifstream in(REVSUM_TEST_DATA "/polarity/en_labelled.tsv");
  ASSERT_TRUE(in) << "tests/data/polarity/en_labelled.tsv";
  std::map<std::string, std::pair<int, int>> per;  // label -> (right, total)
  std::string line;
  int right = 0, total = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    const std::string label = line.substr(0, tab);
    const int s = lex.Score(line.substr(tab + 1));
    const int want = label == "praise" ? 1 : label == "complaint" ? -1 : 0;
    const bool ok = ((s > 0) - (s < 0)) == want;
    per[label].first += ok;
    per[label].second += 1;
    right += ok;
    total += 1;
    if (!ok)
      std::cout << "  miss (" << label << ", score " << s << "): " << line.substr(tab + 1) << "\n";
  }
  for (const auto& [label, c] : per)
    std::cout << label << ": " << c.first << "/" << c.second << "\n";
  std::cout << "English lexicon accuracy: " << right << "/" << total << " = "
            << 100.0 * right / total << "%\n";
  ASSERT_EQ(total, 140);
  EXPECT_GE(right, 100);  // measured
}

// Points depend only on the dot products of the rows: the fixture rotated into 4,096 dimensions
// (where a 10-row scope clusters in its row space, RowSpaceCoordinates, from its rows or from the
// scorer's Gram matrix) gives the points of the 4-dimensional original (clustered directly), for
// the general and the small-scope (centred) rule.
TEST(ComputePoints, AWideSpaceGivesThePointsOfTheSameDotProducts) {
  Fixture narrow = MakeFixture();
  Fixture wide = MakeFixture();
  // An orthonormal 4 x 4096 map: axis j spreads over its own 1,024 coordinates with seeded signs
  // of 1/32 (so each wide row is exact).
  wide.S = Matrix::Zero(narrow.S.rows(), 4096);
  uint32_t state = 12345;
  for (Eigen::Index j = 0; j < 4; ++j) {
    for (Eigen::Index c = 0; c < 1024; ++c) {
      state = state * 1664525u + 1013904223u;
      const float sign = (state >> 31) ? 1.0f / 32 : -1.0f / 32;
      for (Eigen::Index i = 0; i < narrow.S.rows(); ++i)
        wide.S(i, j * 1024 + c) = narrow.S(i, j) * sign;
    }
  }
  // And from the scorer's S S^T alone (Weights::gram), without the wide rows' columns.
  Fixture from_gram = wide;
  const Eigen::Index n = wide.S.rows();
  from_gram.w.gram = Matrix(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) from_gram.w.gram(i, j) = wide.S.row(i).dot(wide.S.row(j));
  }
  for (auto [small, gram] : {std::pair{size_t{0}, false}, std::pair{size_t{50}, false},
                             std::pair{size_t{0}, true}, std::pair{size_t{50}, true}}) {
    PointsOptions o;
    o.small_scope_reviews = small;
    const std::vector<Point> a = ComputePoints(narrow.Input(), TestLexicon(), o);
    const std::vector<Point> b = ComputePoints((gram ? from_gram : wide).Input(), TestLexicon(), o);
    ASSERT_EQ(a.size(), b.size()) << small << gram;
    for (size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(a[k].text, b[k].text) << small << gram;
      EXPECT_EQ(a[k].support, b[k].support) << small << gram;
      // The same members with the same similarities (their order among equal similarities is
      // the arithmetic's).
      auto by_index = [](std::vector<PointMember> ms) {
        std::sort(ms.begin(), ms.end(),
                  [](const PointMember& x, const PointMember& y) { return x.index < y.index; });
        return ms;
      };
      const std::vector<PointMember> ma = by_index(a[k].members), mb = by_index(b[k].members);
      ASSERT_EQ(ma.size(), mb.size()) << small << gram;
      for (size_t m = 0; m < ma.size(); ++m) {
        EXPECT_EQ(ma[m].index, mb[m].index) << small << gram;
        EXPECT_NEAR(ma[m].similarity, mb[m].similarity, 1e-4) << small << gram;
      }
    }
  }
}

// The rows of the two tests below: 240 sentences on four topics of 120, 60, 40 and 20 over 64
// columns, each row a column all share, its topic's and one of 59 others (3 nonzeros); their
// texts and their reviews (one each).
constexpr Eigen::Index kTopicRows = 240, kTopicCols = 64;
Matrix SparseTopicRows(std::vector<std::string>* texts, PointsInput* in) {
  Matrix sparse = Matrix::Zero(kTopicRows, kTopicCols);
  for (Eigen::Index i = 0; i < kTopicRows; ++i) {
    const Eigen::Index topic = i < 120 ? 0 : i < 180 ? 1 : i < 220 ? 2 : 3;
    sparse(i, 0) = 0.8f;  // a word every sentence has: centring takes it off
    sparse(i, 1 + topic) = 1.0f;
    sparse(i, 5 + i % 59) = 0.5f;
    texts->push_back("topic " + std::to_string(topic) + " note " + std::to_string(i));
    in->review_of.push_back(static_cast<size_t>(i));
  }
  return sparse;
}

// `sparse` turned by an orthonormal map (Sylvester's Hadamard matrix, scaled): dense rows with the
// same products.
Matrix DenseTurnOf(const Matrix& sparse) {
  Matrix turn = Matrix::Constant(1, 1, 1.0f);
  while (turn.rows() < sparse.cols()) {
    const Eigen::Index h = turn.rows();
    Matrix next(2 * h, 2 * h);
    next << turn, turn, turn, -turn;
    turn = next;
  }
  turn /= std::sqrt(static_cast<float>(sparse.cols()));
  return sparse * turn;
}

// The same members in a and b, each with the same cosine to its point's centroid up to rounding
// (the sparse space computes them from its sparse rows, the dense one from its rows).
void ExpectSameMembersOfSparseAndDense(const Point& a, const Point& b) {
  std::map<size_t, float> of_b;
  for (const PointMember& m : b.members) of_b[m.index] = m.similarity;
  ASSERT_EQ(a.members.size(), b.members.size());
  for (const PointMember& m : a.members) {
    const auto at = of_b.find(m.index);
    ASSERT_NE(at, of_b.end()) << "sentence " << m.index << " is a member of the sparse point only";
    EXPECT_NEAR(m.similarity, at->second, 1e-4f) << "sentence " << m.index;
  }
}

// The points of `sparse` and of its dense turn (DenseTurnOf) from the same input, every sentence
// its own review with the same weight: {sparse, dense}.
std::pair<std::vector<Point>, std::vector<Point>> PointsOfSparseAndDenseTurn(
    const Matrix& sparse, const std::vector<std::string>& texts, PointsInput in,
    const PointsOptions& o) {
  const Matrix dense = DenseTurnOf(sparse);
  Weights w;
  w.final = Eigen::VectorXf::Constant(kTopicRows, 1.0f / static_cast<float>(kTopicRows));
  in.texts = &texts;
  in.review_count = static_cast<size_t>(kTopicRows);
  in.weights = &w;
  in.embeddings = &sparse;
  std::vector<Point> a = ComputePoints(in, TestLexicon(), o);
  in.embeddings = &dense;
  return {std::move(a), ComputePoints(in, TestLexicon(), o)};
}

// A sparse embedding (hashed word features, as the lexical embedder's) is clustered from its sparse
// rows; the same rows turned by an orthonormal map are dense and take the dense product. Both
// must give the same points (240 sentences: too many for the row space).
TEST(ComputePoints, SparseRowsGiveThePointsOfTheirDenseTurn) {
  std::vector<std::string> texts;
  PointsInput in;
  const Matrix sparse = SparseTopicRows(&texts, &in);
  const auto [a, b] = PointsOfSparseAndDenseTurn(sparse, texts, in, PointsOptions{});
  ASSERT_GE(a.size(), 3u);
  EXPECT_EQ(a[0].support, 120u);
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].text, b[k].text);
    EXPECT_EQ(a[k].support, b[k].support);
    ExpectSameMembersOfSparseAndDense(a[k], b[k]);
  }
}

// Sentences without features (all-zero rows, as the lexical embedder gives emoji) join no point,
// in the sparse space as in the dense one.
TEST(ComputePoints, ZeroSparseRowsJoinNoPointAsInTheirDenseTurn) {
  std::vector<std::string> texts;
  PointsInput in;
  Matrix sparse = SparseTopicRows(&texts, &in);
  for (const Eigen::Index zero : {7, 130, 201}) sparse.row(zero).setZero();
  const auto [a, b] = PointsOfSparseAndDenseTurn(sparse, texts, in, PointsOptions{});
  ASSERT_GE(a.size(), 3u);
  EXPECT_EQ(a[0].support, 119u);
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    ExpectSameMembersOfSparseAndDense(a[k], b[k]);
    for (const PointMember& m : a[k].members) {
      EXPECT_TRUE(m.index != 7 && m.index != 130 && m.index != 201) << m.index;
    }
  }
}

// The same with sides and a sample: the sparse rows' linkages between groups (an unsigned group
// folded into the praise of its topic, step 5) and of the rows outside the sample (step 7) are
// those of the dense rows. Topic 1 is half praise, half unsigned; topic 2 complaint.
TEST(ComputePoints, SparseRowsLinkGroupsAsTheirDenseTurn) {
  std::vector<std::string> texts;
  PointsInput in;
  const Matrix sparse = SparseTopicRows(&texts, &in);
  for (Eigen::Index i = 0; i < kTopicRows; ++i) {
    const bool praise = i >= 120 && i < 180 && i % 2 == 0;
    in.opinions.push_back(praise ? 1.0f : i >= 180 && i < 220 ? -1.0f : 0.0f);
  }
  PointsOptions o;
  o.max_cluster_sentences = 50;  // the unsigned side's 170 sentences: 120 join after the sample
  const auto [a, b] = PointsOfSparseAndDenseTurn(sparse, texts, in, o);
  auto praise_of_topic_1 = [](const std::vector<Point>& points) {
    for (const Point& p : points) {
      if (p.polarity == Polarity::kPraise) return p.support;
    }
    return size_t{0};
  };
  // The 30 praise and the unsigned sentences of topic 1 in the sample (folded into them); topic 0
  // has 35 sentences in the sample, the others joined after it.
  EXPECT_GT(praise_of_topic_1(b), 30u);
  EXPECT_EQ(b[0].support, 120u);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GE(a.size(), 3u);
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].text, b[k].text);
    EXPECT_EQ(a[k].polarity, b[k].polarity);
    EXPECT_EQ(a[k].support, b[k].support);
    ExpectSameMembersOfSparseAndDense(a[k], b[k]);
  }
}

}  // namespace
}  // namespace revsum
