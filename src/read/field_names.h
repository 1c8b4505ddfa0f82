// The field (JSON key) and column (CSV/TSV header) names tried, in order, for a FieldMap member
// left empty. read.h's FieldMap comment is the documentation; keep the two in step.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace revsum::read_internal {

inline constexpr std::string_view kTextFields[] = {"reviewText", "text",    "review",
                                                   "content",    "comment", "body"};
// CSV headers say "review" more often than "reviewText" (e.g. the Chinese shopping dump).
inline constexpr std::string_view kCsvTextColumns[] = {"review",  "text",    "reviewText",
                                                       "content", "comment", "body"};
inline constexpr std::string_view kProductFields[] = {
    "parent_asin", "asin", "product", "product_id", "business_id", "cat", "category"};
inline constexpr std::string_view kCsvProductColumns[] = {
    "product", "parent_asin", "asin", "product_id", "business_id", "cat", "category"};
inline constexpr std::string_view kIdFields[] = {"review_id", "reviewId", "id"};
inline constexpr std::string_view kRatingFields[] = {"rating", "overall", "stars", "score",
                                                     "label"};
inline constexpr std::string_view kCsvRatingColumns[] = {"rating", "overall", "label", "stars",
                                                         "score"};
inline constexpr std::string_view kTitleFields[] = {"title", "summary"};
inline constexpr std::string_view kTimeFields[] = {"timestamp", "unixReviewTime", "unix_time",
                                                   "date"};
// The author, which identifies a review (with its time, when there is one) in dumps without a
// review id: user_id (Amazon 2023, Yelp), reviewerID (Amazon 2018).
inline constexpr std::string_view kUserFields[] = {"user_id", "reviewerID"};

// "a, b, c" for messages.
inline std::string JoinNames(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace revsum::read_internal
