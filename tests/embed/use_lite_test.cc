// UseLiteEmbedder against the project's own TF.js fixtures
// (tests/data/embed/use_lite_fixtures.jsonl, made by
// scripts/make-use-lite-fixtures/make-fixtures.mjs), plus the embedder's own promises: batch/thread
// independence, the cache, empty input, clipping, and clear loading errors. The model files must be
// present (scripts/fetch-use-lite); without them these tests fail.

#include "revsum/use_lite.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "use_lite_test_support.h"

namespace revsum {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::MaxAbsError;
using testing::ReadUseLiteRecords;
using testing::UseLiteRecord;

const std::string kFixtures = std::string(REVSUM_TEST_DATA) + "/embed/use_lite_fixtures.jsonl";

std::vector<UseLiteRecord> EmbeddingFixtures() {
  std::vector<UseLiteRecord> out;
  for (auto& r : ReadUseLiteRecords(kFixtures)) {
    if (!r.embedding.empty()) out.push_back(std::move(r));
  }
  return out;
}

bool SameBits(const Matrix& a, int64_t ra, const Matrix& b, int64_t rb) {
  return std::memcmp(a.row(ra).data(), b.row(rb).data(), sizeof(float) * a.cols()) == 0;
}

TEST(UseLite, NamesItselfAndTheTarball) {
  REVSUM_REQUIRE_USE_LITE(model);
  EXPECT_EQ(model->name(), "use-lite");
  EXPECT_EQ(model->model_hash(),
            "3855ea6772d2f1537abb3c1095ff03f081f740bbc293f7e9aacb465d50b677ed");
}

TEST(UseLite, FixturesCoverEmbeddingsAndTokenizerCases) {
  const auto records = ReadUseLiteRecords(kFixtures);
  size_t embeddings = 0;
  for (const auto& r : records) embeddings += !r.embedding.empty();
  EXPECT_GE(embeddings, 30u);
  EXPECT_GE(records.size() - embeddings, 200u);
}

TEST(UseLite, TokenIdsEqualTheOfficialTokenizer) {
  REVSUM_REQUIRE_USE_LITE(model);
  const auto records = ReadUseLiteRecords(kFixtures);
  ASSERT_FALSE(records.empty());
  for (const auto& r : records) EXPECT_EQ(model->TokenizeOne(r.text), r.token_ids) << r.text;
}

TEST(UseLite, TokenizerKeepsTheJsQuirks) {
  REVSUM_REQUIRE_USE_LITE(model);
  EXPECT_EQ(model->TokenizeOne(""), std::vector<int>{});
  EXPECT_EQ(model->TokenizeOne(" "), (std::vector<int>{30, 30}));  // leading ▁ + the space
  // Emoji (two UTF-16 surrogates) and CJK have no pieces: one merged unknown after ▁.
  EXPECT_EQ(model->TokenizeOne("\xF0\x9F\x99\x82"), (std::vector<int>{30, 0}));
  EXPECT_EQ(model->TokenizeOne("这个产品非常好用。"), (std::vector<int>{30, 0}));
  // Cased vocabulary: no lowercasing.
  EXPECT_NE(model->TokenizeOne("HELLO"), model->TokenizeOne("hello"));
  // NFKC: the fi ligature and fullwidth letters tokenize as their plain forms.
  EXPECT_EQ(model->TokenizeOne("\xEF\xAC\x81ne"), model->TokenizeOne("fine"));
  EXPECT_EQ(model->TokenizeOne("\xEF\xBC\xA1"), model->TokenizeOne("A"));
}

TEST(UseLite, EmbeddingsMatchTfjsOneSentenceAtATime) {
  REVSUM_REQUIRE_USE_LITE(model);
  const auto records = EmbeddingFixtures();
  ASSERT_GE(records.size(), 30u);
  double worst = 0;
  for (const auto& r : records) {
    const Matrix e = model->Embed({r.text});
    ASSERT_EQ(e.rows(), 1);
    ASSERT_EQ(e.cols(), kUseLiteDim);
    worst = std::max(worst, MaxAbsError(e, 0, r.embedding));
    EXPECT_LT(MaxAbsError(e, 0, r.embedding), 1e-5) << r.text;
  }
  std::printf("fixtures batch-of-1 max abs error: %.3e\n", worst);
}

TEST(UseLite, EmbeddingsMatchTfjsInOneMixedLengthBatch) {
  REVSUM_REQUIRE_USE_LITE(model);
  const auto records = EmbeddingFixtures();
  std::vector<std::string> texts;
  for (const auto& r : records) texts.push_back(r.text);
  const Matrix e = model->Embed(texts);
  ASSERT_EQ(e.rows(), static_cast<int64_t>(records.size()));
  double worst = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    worst = std::max(worst, MaxAbsError(e, i, records[i].embedding));
    EXPECT_LT(MaxAbsError(e, i, records[i].embedding), 1e-5) << records[i].text;
  }
  std::printf("fixtures mixed batch max abs error: %.3e\n", worst);
}

TEST(UseLite, RowsAreUnitLength) {
  REVSUM_REQUIRE_USE_LITE(model);
  const Matrix e = model->Embed({"Great product!", "", " ", "Battery died in a week.", "!!!"});
  for (int64_t i = 0; i < e.rows(); ++i) EXPECT_NEAR(e.row(i).norm(), 1.0f, 1e-6) << i;
}

TEST(UseLite, EmptyStringIsNormalizedTanhOfTheBias) {
  REVSUM_REQUIRE_USE_LITE(model);
  // TF.js drops a trailing empty input; we return one row per input, the row TF.js gives [""].
  const Matrix e = model->Embed({"ok", ""});
  ASSERT_EQ(e.rows(), 2);
  for (const auto& r : EmbeddingFixtures()) {
    if (r.text.empty()) {
      EXPECT_LT(MaxAbsError(e, 1, r.embedding), 1e-5);
    }
  }
  EXPECT_TRUE(SameBits(e, 1, model->Embed({""}), 0));
}

TEST(UseLite, ResultsDoNotDependOnBatchThreadsOrOrder) {
  REVSUM_REQUIRE_USE_LITE(model);
  std::vector<std::string> texts;
  for (const auto& r : EmbeddingFixtures()) texts.push_back(r.text);
  const Matrix together = model->Embed(texts);

  UseLiteOptions options;
  options.threads = 3;        // more threads than cores on purpose
  options.batch_tokens = 40;  // many small batches with other neighbours
  options.batch_sentences = 3;
  options.cache_entries = 0;
  auto small_batches = UseLiteEmbedder::Load(options);
  std::vector<std::string> reversed(texts.rbegin(), texts.rend());
  const Matrix shuffled = small_batches->Embed(reversed);

  for (size_t i = 0; i < texts.size(); ++i) {
    const Matrix alone = model->Embed({texts[i]});
    EXPECT_TRUE(SameBits(together, i, alone, 0)) << "batch vs alone: " << texts[i];
    EXPECT_TRUE(SameBits(together, i, shuffled, texts.size() - 1 - i))
        << "threads/batches/order: " << texts[i];
  }
}

// The int8 encoder (UseLitePrecision::kInt8): close to the float vectors, keyed apart, and just as
// independent of batches and threads.
TEST(UseLite, Int8EmbeddingsAreCloseToFloatAndIndependentOfBatches) {
  REVSUM_REQUIRE_USE_LITE(model);
  UseLiteOptions options;
  options.precision = UseLitePrecision::kInt8;
  options.cache_entries = 0;
  auto int8 = UseLiteEmbedder::Load(options);
  EXPECT_EQ(int8->model_hash(), model->model_hash() + "+int8");
  std::vector<std::string> texts;
  for (const auto& r : EmbeddingFixtures()) texts.push_back(r.text);
  const Matrix exact = model->Embed(texts);
  const Matrix together = int8->Embed(texts);
  options.threads = 3;
  options.batch_tokens = 40;
  options.batch_sentences = 3;
  auto small_batches = UseLiteEmbedder::Load(options);
  const Matrix split = small_batches->Embed(texts);
  double worst = 1;
  for (size_t i = 0; i < texts.size(); ++i) {
    const double cosine = exact.row(i).dot(together.row(i));  // both unit length
    worst = std::min(worst, cosine);
    EXPECT_GT(cosine, 0.995) << texts[i];
    EXPECT_FALSE(SameBits(exact, i, together, i) && !texts[i].empty()) << texts[i];
    EXPECT_TRUE(SameBits(together, i, split, i)) << texts[i];
    EXPECT_TRUE(SameBits(together, i, int8->Embed({texts[i]}), 0)) << texts[i];
  }
  std::printf("fixtures int8 vs float32: lowest cosine %.5f\n", worst);
}

TEST(UseLite, CacheServesRepeatsWithIdenticalBits) {
  UseLiteOptions options;
  options.cache_entries = 3;
  std::unique_ptr<UseLiteEmbedder> model;
  try {
    model = UseLiteEmbedder::Load(options);
  } catch (const UseLiteError& e) {
    FAIL() << e.what();
  }
  const std::vector<std::string> texts = {"Great product!", "Great product!", "Too small.",
                                          "Great product!"};
  const Matrix first = model->Embed(texts);
  EXPECT_EQ(model->cache_stats().entries, 2u);  // repeats within a call are computed once
  const Matrix second = model->Embed(texts);
  EXPECT_GE(model->cache_stats().hits, 2u);
  for (int64_t i = 0; i < 4; ++i) EXPECT_TRUE(SameBits(first, i, second, i)) << i;
  EXPECT_TRUE(SameBits(first, 0, first, 3));
  UseLiteEmbedder* uncached = testing::SharedUseLite();
  ASSERT_NE(uncached, nullptr);
  EXPECT_TRUE(SameBits(first, 0, uncached->Embed({"Great product!"}), 0));

  model->Embed({"one", "two", "three", "four", "five"});
  EXPECT_EQ(model->cache_stats().entries, 3u);  // bounded: least recently used evicted
}

TEST(UseLite, InvalidUtf8BecomesReplacementCharacters) {
  REVSUM_REQUIRE_USE_LITE(model);
  // A truncated sequence decodes to U+FFFD, which has no piece: one unknown id after "caf".
  EXPECT_EQ(model->TokenizeOne("caf\xC3"), model->TokenizeOne("caf\xEF\xBF\xBD"));
  const Matrix e = model->Embed({"caf\xC3", "\xFF\xFE"});
  EXPECT_NEAR(e.row(0).norm(), 1.0f, 1e-6);
  EXPECT_NEAR(e.row(1).norm(), 1.0f, 1e-6);
}

TEST(UseLite, ConcurrentCallsGetTheSameBits) {
  UseLiteOptions options;
  options.threads = 2;
  options.cache_entries = 16;  // small, so that the threads also evict each other's entries
  std::unique_ptr<UseLiteEmbedder> model;
  try {
    model = UseLiteEmbedder::Load(options);
  } catch (const UseLiteError& e) {
    FAIL() << e.what();
  }
  std::vector<std::string> texts;
  for (const auto& r : EmbeddingFixtures()) texts.push_back(r.text);
  const Matrix expected = model->Embed(texts);
  std::vector<Matrix> got(3);
  std::vector<std::thread> callers;
  for (int k = 0; k < 3; ++k) {
    callers.emplace_back([&, k] {
      for (int round = 0; round < 3; ++round) got[k] = model->Embed(texts);
    });
  }
  for (auto& t : callers) t.join();
  for (int k = 0; k < 3; ++k) {
    for (size_t i = 0; i < texts.size(); ++i) EXPECT_TRUE(SameBits(expected, i, got[k], i)) << k;
  }
}

// A thread with nothing to do runs batches of another thread's Embed call (HelpOnce): the rows
// it writes are the bits that call's own thread computes.
TEST(UseLite, AHelperThreadRunsBatchesOfAnotherCallWithTheSameBits) {
  UseLiteOptions options;
  options.threads = 1;
  options.cache_entries = 0;  // every call computes every row
  std::unique_ptr<UseLiteEmbedder> model;
  try {
    model = UseLiteEmbedder::Load(options);
  } catch (const UseLiteError& e) {
    FAIL() << e.what();
  }
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one core: no helper runs";
  EXPECT_FALSE(model->HelpOnce());  // no call in progress
  std::vector<std::string> texts;
  for (const auto& r : EmbeddingFixtures()) texts.push_back(r.text);
  for (int i = 0; i < 600; ++i) {
    texts.push_back("Review " + std::to_string(i) + ": the lid of kettle number " +
                    std::to_string(i * 7 % 13) + " cracked after " + std::to_string(i % 9 + 2) +
                    " weeks, but the base still heats water quickly.");
  }
  const Matrix alone = model->Embed(texts);
  std::atomic<bool> done{false};
  int helped = 0;
  std::thread helper([&] {
    while (!done) helped += model->HelpOnce();
  });
  const Matrix with_help = model->Embed(texts);
  done = true;
  helper.join();
  EXPECT_GT(helped, 0);
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_TRUE(SameBits(alone, i, with_help, i)) << i;
  EXPECT_FALSE(model->HelpOnce());
}

TEST(UseLite, SentencesLongerThan128TokensKeepTheirFirst128) {
  REVSUM_REQUIRE_USE_LITE(model);
  std::string text;
  for (int i = 0; i < 40; ++i) text += "The lid cracked after a month of daily use. ";
  std::vector<int> ids = model->TokenizeOne(text);
  ASSERT_GT(ids.size(), 200u);
  const std::vector<int> first128(ids.begin(), ids.begin() + kUseLiteMaxTokens);
  const Matrix e = model->EmbedTokenIds({ids, first128});
  EXPECT_TRUE(SameBits(e, 0, e, 1));
  const std::vector<int> first127(ids.begin(), ids.begin() + kUseLiteMaxTokens - 1);
  EXPECT_FALSE(SameBits(e, 0, model->EmbedTokenIds({first127}), 0));
  EXPECT_TRUE(SameBits(model->Embed({text}), 0, e, 0));
}

TEST(UseLite, EmbedTokenIdsRejectsIdsOutsideTheTable) {
  REVSUM_REQUIRE_USE_LITE(model);
  EXPECT_THROW(model->EmbedTokenIds({{30, 8002}}), std::invalid_argument);
  EXPECT_THROW(model->EmbedTokenIds({{-1}}), std::invalid_argument);
  EXPECT_NO_THROW(model->EmbedTokenIds({{0, 30, 7999}}));
}

// A scratch models/ folder whose use-lite/ links to the real files, so that a test can remove,
// truncate or alter one of them.
class UseLiteFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    source_ = DefaultUseLiteModelDir();
    if (!fs::exists(fs::path(source_) / "model.json")) {
      GTEST_FAIL() << "USE-lite model files missing in " << source_
                   << "; fetch them with scripts/fetch-use-lite (or scripts/setup)";
    }
    root_ = fs::temp_directory_path() /
            ("revsum_use_lite_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "use-lite");
    for (const auto& entry : fs::directory_iterator(source_)) {
      fs::create_symlink(fs::absolute(entry.path()), root_ / "use-lite" / entry.path().filename());
    }
    fs::copy_file(fs::path(REVSUM_SOURCE_DIR) / "models" / "use-lite.manifest",
                  root_ / "use-lite.manifest");
  }
  void TearDown() override {
    if (!root_.empty()) fs::remove_all(root_);
  }

  // Replaces the link `name` with a real copy whose bytes pass through `edit`.
  template <typename Edit>
  void Rewrite(const std::string& name, Edit edit) {
    const fs::path path = root_ / "use-lite" / name;
    std::ifstream in(fs::path(source_) / name, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    edit(bytes);
    fs::remove(path);
    std::ofstream(path, std::ios::binary) << bytes;
  }

  std::string LoadError() {
    UseLiteOptions options;
    options.model_dir = (root_ / "use-lite").string();
    try {
      UseLiteEmbedder::Load(options);
    } catch (const UseLiteError& e) {
      return e.what();
    }
    return "";
  }

  std::string source_;
  fs::path root_;
};

TEST_F(UseLiteFiles, ScratchCopyLoads) { EXPECT_EQ(LoadError(), ""); }

TEST_F(UseLiteFiles, MissingFolderSaysHowToFetch) {
  UseLiteOptions options;
  options.model_dir = (root_ / "nowhere").string();
  try {
    UseLiteEmbedder::Load(options);
    FAIL() << "loaded a model from a missing folder";
  } catch (const UseLiteError& e) {
    EXPECT_THAT(e.what(), HasSubstr("does not exist"));
    EXPECT_THAT(e.what(), HasSubstr("scripts/fetch-use-lite"));
  }
}

TEST_F(UseLiteFiles, MissingShardIsNamed) {
  fs::remove(root_ / "use-lite" / "group1-shard4of7");
  const std::string error = LoadError();
  EXPECT_THAT(error, HasSubstr("group1-shard4of7 is missing"));
  EXPECT_THAT(error, HasSubstr("scripts/fetch-use-lite"));
}

TEST_F(UseLiteFiles, TruncatedShardIsRejected) {
  Rewrite("group1-shard7of7", [](std::string& b) { b.resize(b.size() - 4); });
  EXPECT_THAT(LoadError(), HasSubstr("group1-shard7of7 is corrupt or was modified"));
}

TEST_F(UseLiteFiles, OneFlippedBitInTheWeightsIsRejected) {
  Rewrite("group1-shard3of7", [](std::string& b) { b[1000000] ^= 1; });
  const std::string error = LoadError();
  EXPECT_THAT(error, HasSubstr("group1-shard3of7 is corrupt or was modified"));
  EXPECT_THAT(error, HasSubstr("expected 50ee49b0"));
}

TEST_F(UseLiteFiles, TamperedVocabularyIsRejected) {
  Rewrite("vocab.json", [](std::string& b) { b[100] = b[100] == 'a' ? 'b' : 'a'; });
  EXPECT_THAT(LoadError(), HasSubstr("vocab.json is corrupt or was modified"));
}

TEST_F(UseLiteFiles, ManifestWithoutAnEntryForAFileIsAnError) {
  std::ofstream(root_ / "use-lite.manifest") << "name=x\ntarball_sha256=00\n";
  EXPECT_THAT(LoadError(), HasSubstr("has no \"file.model.json\" entry"));
}

TEST_F(UseLiteFiles, ModelsDirEnvironmentVariableMovesTheDefault) {
  const char* old = std::getenv("REVSUM_MODELS_DIR");
  const std::string saved = old ? old : "";
  ::setenv("REVSUM_MODELS_DIR", root_.c_str(), 1);
  EXPECT_EQ(fs::path(DefaultUseLiteModelDir()), root_ / "use-lite");
  fs::remove(root_ / "use-lite" / "vocab.json");
  try {
    UseLiteEmbedder::Load();
    ADD_FAILURE() << "loaded without vocab.json";
  } catch (const UseLiteError& e) {
    EXPECT_THAT(e.what(), HasSubstr((root_ / "use-lite" / "vocab.json").string()));
  }
  if (old) {
    ::setenv("REVSUM_MODELS_DIR", saved.c_str(), 1);
  } else {
    ::unsetenv("REVSUM_MODELS_DIR");
  }
}

}  // namespace
}  // namespace revsum
