// Segments real Chinese e-commerce reviews from ../shared and checks the segmenter's invariants.

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "revsum/text.h"
#include "support/shared_data.h"
#include "text_test_util.h"

namespace revsum {
namespace {

using ::revsum::testing::CountCodePoints;
using ::revsum::testing::SubstrCodePoints;

// The `review` column of rows "cat,label,review" (one record per line in this file; a quoted field
// has its quotes removed and "" unescaped).
std::vector<std::string> ReadReviewColumn(const std::filesystem::path& path, size_t max_rows) {
  std::ifstream in(path);
  std::vector<std::string> reviews;
  std::string line;
  std::getline(in, line);  // header
  while (reviews.size() < max_rows && std::getline(in, line)) {
    const size_t first = line.find(',');
    const size_t second = first == std::string::npos ? first : line.find(',', first + 1);
    if (second == std::string::npos) continue;
    std::string review = line.substr(second + 1);
    if (review.size() >= 2 && review.front() == '"' && review.back() == '"') {
      std::string unquoted;
      for (size_t i = 1; i + 1 < review.size(); ++i) {
        unquoted.push_back(review[i]);
        if (review[i] == '"' && review[i + 1] == '"') ++i;
      }
      review = unquoted;
    }
    reviews.push_back(review);
  }
  return reviews;
}

TEST(SharedChineseReviews, First2000RowsSegmentWithValidOffsets) {
  REVSUM_REQUIRE_SHARED(path, "data/zh/online_shopping_10_cats.csv");
  const std::vector<std::string> reviews = ReadReviewColumn(path, 2000);
  ASSERT_EQ(reviews.size(), 2000u);

  SegmentOptions options;
  options.max_chars = 120;  // small enough that some real reviews need the long-sentence split
  SentenceSegmenter segmenter(options);
  size_t total = 0, empty = 0, printed = 0;
  for (size_t r = 0; r < reviews.size(); ++r) {
    const std::string& review = reviews[r];
    const auto sentences = segmenter.Split(review);
    if (sentences.empty()) {  // only reviews without letters, digits or ideographs
      ++empty;
      EXPECT_EQ(CjkFraction(review), 0.0) << "row " << r + 2 << ": " << review;
      continue;
    }
    const int32_t length = CountCodePoints(review);
    int32_t previous_end = 0;
    for (const Sentence& s : sentences) {
      ASSERT_FALSE(s.text.empty()) << "row " << r + 2;
      ASSERT_LE(previous_end, s.begin) << "row " << r + 2 << ": " << s.text;
      ASSERT_LT(s.begin, s.end) << "row " << r + 2;
      ASSERT_LE(s.end, length) << "row " << r + 2;
      ASSERT_LE(static_cast<size_t>(CountCodePoints(s.text)), options.max_chars)
          << "row " << r + 2 << ": " << s.text;
      ASSERT_EQ(CleanText(SubstrCodePoints(review, s.begin, s.end)), s.text) << "row " << r + 2;
      previous_end = s.end;
    }
    total += sentences.size();
    if (sentences.size() >= 3 && printed < 4 && r % 97 == 0) {
      ++printed;
      std::cout << "row " << r + 2 << ":";
      for (const Sentence& s : sentences)
        std::cout << "\n  [" << s.begin << "," << s.end << ") " << s.text;
      std::cout << "\n";
    }
  }
  std::cout << reviews.size() << " reviews -> " << total << " sentences (" << empty
            << " reviews without sentences)\n";
  EXPECT_GT(total, reviews.size());
}

}  // namespace
}  // namespace revsum
