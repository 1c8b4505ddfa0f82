// UseLiteEmbedder: the model, the tokenizer and the forward pass behind the Embedder interface,
// with length-bucketed batches, worker threads and an LRU cache of sentence embeddings.

#include "revsum/use_lite.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <list>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "revsum/hash.h"
#include "revsum/models.h"
#include "revsum/parallel.h"
#include "use_lite_internal.h"

namespace revsum {

namespace {

// A bounded LRU map from sentence text to its embedding row. Thread-safe.
class EmbeddingCache {
 public:
  explicit EmbeddingCache(size_t capacity) : capacity_(capacity) {}

  bool Get(uint64_t key, const std::string& text, float* row) {
    if (capacity_ == 0) return false;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it == index_.end() || it->second->text != text) {
      ++misses_;
      return false;
    }
    lru_.splice(lru_.begin(), lru_, it->second);
    std::copy(it->second->row.begin(), it->second->row.end(), row);
    ++hits_;
    return true;
  }

  void Put(uint64_t key, const std::string& text, const float* row) {
    if (capacity_ == 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it != index_.end()) {  // same text recomputed, or a hash collision: replace
      lru_.erase(it->second);
      index_.erase(it);
    }
    lru_.push_front(Entry{key, text, std::vector<float>(row, row + kUseLiteDim)});
    index_[key] = lru_.begin();
    while (index_.size() > capacity_) {
      index_.erase(lru_.back().key);
      lru_.pop_back();
    }
  }

  UseLiteCacheStats Stats() const {
    std::lock_guard<std::mutex> lock(mu_);
    return {hits_, misses_, index_.size()};
  }

 private:
  struct Entry {
    uint64_t key;
    std::string text;
    std::vector<float> row;
  };
  const size_t capacity_;
  mutable std::mutex mu_;
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<uint64_t, std::list<Entry>::iterator> index_;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace

std::string DefaultUseLiteModelDir() { return (ModelsDir() / "use-lite").string(); }

struct UseLiteEmbedder::Impl {
  UseLiteOptions options;
  use_lite::ModelFiles model;
  std::unique_ptr<use_lite::Tokenizer> tokenizer;
  std::unique_ptr<use_lite::Encoder> encoder;
  std::atomic<int> threads{1};  // set_threads may change it while others embed
  EmbeddingCache cache;

  std::mutex workspace_mu;
  std::vector<use_lite::WorkspacePtr> workspaces;  // idle workspaces, reused across calls

  // The batches of a Run call, open to other threads (HelpOnce) while it runs.
  struct Job {
    const std::function<void(int64_t)>* batch = nullptr;  // runs batch k
    int64_t count = 0;
    std::atomic<int64_t> next{0};  // the next batch to take; >= count: none left
    int helpers = 0;               // threads of other callers running one of its batches
    std::exception_ptr error;      // the first a helper's batch threw
  };
  std::mutex jobs_mu;
  std::condition_variable helper_done;
  std::vector<Job*> jobs;  // Run calls in progress with batches to share
  std::atomic<uint64_t> batches_helped{0};
  // Helpers running a batch now, at most one fewer than the machine's cores: each holds a
  // workspace that no caller's memory budget counted (64 summarize workers waiting for the budget
  // on 2 cores took 64 of them, 1.1 GB), and more helpers than cores add no speed.
  int helping = 0;
  const int max_helpers = std::max(0, static_cast<int>(std::thread::hardware_concurrency()) - 1);

  // Takes the batches of `job` until none is left; the first that throws ends the job.
  static void Drain(Job& job) {
    for (int64_t k; (k = job.next.fetch_add(1)) < job.count;) {
      try {
        (*job.batch)(k);
      } catch (...) {
        job.next = job.count;
        throw;
      }
    }
  }

  // Runs one batch of a job in progress, if any (UseLiteEmbedder::HelpOnce).
  bool HelpOnce() {
    Job* job = nullptr;
    int64_t k = 0;
    {
      std::lock_guard<std::mutex> lock(jobs_mu);
      if (helping >= max_helpers) return false;
      for (Job* j : jobs) {
        if ((k = j->next.fetch_add(1)) < j->count) {
          job = j;
          ++job->helpers;
          ++helping;
          break;
        }
      }
    }
    if (!job) return false;
    ++batches_helped;
    std::exception_ptr error;
    try {
      (*job->batch)(k);
    } catch (...) {
      error = std::current_exception();
      job->next = job->count;
    }
    {
      std::lock_guard<std::mutex> lock(jobs_mu);
      if (error && !job->error) job->error = error;
      --job->helpers;
      --helping;
    }
    helper_done.notify_all();
    return true;
  }

  explicit Impl(const UseLiteOptions& o) : options(o), cache(o.cache_entries) {}

  use_lite::WorkspacePtr TakeWorkspace() {
    std::lock_guard<std::mutex> lock(workspace_mu);
    if (workspaces.empty()) return use_lite::NewWorkspace();
    use_lite::WorkspacePtr w = std::move(workspaces.back());
    workspaces.pop_back();
    return w;
  }
  void ReturnWorkspace(use_lite::WorkspacePtr w) {
    std::lock_guard<std::mutex> lock(workspace_mu);
    workspaces.push_back(std::move(w));
  }

  // Embeds ids[i] into out.row(rows[i]): sorted by length, cut into batches of similar length,
  // batches spread over the threads.
  void Run(const std::vector<const std::vector<int>*>& ids, const std::vector<int64_t>& rows,
           Matrix& out) {
    const int max_len = model.weights.max_len;
    auto clipped = [&](size_t i) { return std::min<size_t>(ids[i]->size(), max_len); };
    std::vector<size_t> order(ids.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return clipped(a) < clipped(b); });
    std::vector<std::pair<size_t, size_t>> batches;  // [begin, end) into order
    // Enough batches to keep every thread busy, none above batch_tokens.
    size_t total_tokens = 0;
    for (size_t i = 0; i < ids.size(); ++i) total_tokens += clipped(i);
    const int workers = threads.load();
    const size_t per_thread = (total_tokens + workers - 1) / workers;
    const size_t max_tokens =
        std::max<size_t>(std::min<size_t>(std::max(options.batch_tokens, 1), per_thread), 1);
    const size_t max_sentences =
        options.batch_sentences > 0 ? static_cast<size_t>(options.batch_sentences) : SIZE_MAX;
    for (size_t begin = 0; begin < order.size();) {
      size_t end = begin, tokens = 0;
      while (end < order.size() && end - begin < max_sentences &&
             (end == begin || tokens + clipped(order[end]) <= max_tokens)) {
        tokens += clipped(order[end++]);
      }
      batches.emplace_back(begin, end);
      begin = end;
    }
    const std::function<void(int64_t)> batch = [&](int64_t k) {
      std::vector<const std::vector<int>*> batch_ids;
      std::vector<int64_t> batch_rows;
      for (size_t j = batches[k].first; j < batches[k].second; ++j) {
        batch_ids.push_back(ids[order[j]]);
        batch_rows.push_back(rows[order[j]]);
      }
      use_lite::WorkspacePtr ws = TakeWorkspace();
      encoder->Forward(batch_ids, *ws, out, batch_rows);
      ReturnWorkspace(std::move(ws));
    };
    // The batches go to this call's threads and to any thread that helps (HelpOnce); a batch
    // gives the same rows wherever it runs.
    Job job;
    job.batch = &batch;
    job.count = static_cast<int64_t>(batches.size());
    const bool shared = job.count > 1;
    if (shared) {
      std::lock_guard<std::mutex> lock(jobs_mu);
      jobs.push_back(&job);
    }
    std::exception_ptr error;
    try {
      ParallelFor(std::min<int64_t>(workers, job.count), workers, "embedding",
                  [&](int64_t) { Drain(job); });
    } catch (...) {
      error = std::current_exception();
      job.next = job.count;
    }
    if (shared) {
      // The job leaves the list, then its helpers finish the batches they took (they write `out`).
      std::unique_lock<std::mutex> lock(jobs_mu);
      jobs.erase(std::find(jobs.begin(), jobs.end(), &job));
      helper_done.wait(lock, [&] { return job.helpers == 0; });
      if (!error) error = job.error;
    }
    if (error) std::rethrow_exception(error);
  }
};

UseLiteEmbedder::UseLiteEmbedder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
UseLiteEmbedder::~UseLiteEmbedder() = default;

std::unique_ptr<UseLiteEmbedder> UseLiteEmbedder::Load(const UseLiteOptions& options) {
  auto impl = std::make_unique<Impl>(options);
  std::string dir = options.model_dir;
  if (dir.empty()) {
    try {
      dir = DefaultUseLiteModelDir();
    } catch (const ModelsError& e) {
      throw UseLiteError(e.what());
    }
  }
  std::string manifest = options.manifest_path;
  if (manifest.empty()) {
    std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
    if (!p.has_filename()) p = p.parent_path();  // "models/use-lite/" -> "models/use-lite"
    manifest = (p.parent_path() / "use-lite.manifest").string();
    if (!std::filesystem::exists(manifest)) {  // a model folder outside any models folder
      try {
        manifest = (ModelsDir() / "use-lite.manifest").string();
      } catch (const ModelsError&) {
        // keep the path beside the model: the loader's error names it
      }
    }
  }
  impl->model = use_lite::LoadModelFiles(dir, manifest);
  impl->tokenizer = std::make_unique<use_lite::Tokenizer>(impl->model.vocab);
  impl->encoder = std::make_unique<use_lite::Encoder>(impl->model.weights,
                                                      options.precision == UseLitePrecision::kInt8);
  std::unique_ptr<UseLiteEmbedder> loaded(new UseLiteEmbedder(std::move(impl)));
  loaded->set_threads(options.threads);
  return loaded;
}

std::string UseLiteEmbedder::name() const { return "use-lite"; }

std::string UseLiteEmbedder::model_hash() const {
  return impl_->model.tarball_sha256 +
         (impl_->options.precision == UseLitePrecision::kInt8 ? "+int8" : "");
}

int UseLiteEmbedder::threads() const { return impl_->threads.load(); }

void UseLiteEmbedder::set_threads(int threads) {
  impl_->threads = threads > 0 ? std::min(threads, kMaxUseLiteThreads)
                               : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

UseLiteCacheStats UseLiteEmbedder::cache_stats() const { return impl_->cache.Stats(); }

bool UseLiteEmbedder::HelpOnce() { return impl_->HelpOnce(); }

uint64_t UseLiteEmbedder::batches_helped() const { return impl_->batches_helped.load(); }

std::vector<int> UseLiteEmbedder::TokenizeOne(const std::string& sentence) const {
  return impl_->tokenizer->Encode(sentence);
}

std::vector<std::vector<int>> UseLiteEmbedder::Tokenize(
    const std::vector<std::string>& sentences) const {
  std::vector<std::vector<int>> ids(sentences.size());
  ParallelFor(static_cast<int64_t>(sentences.size()),
              sentences.size() >= 64 ? impl_->threads.load() : 1, "embedding",
              [&](int64_t i) { ids[i] = impl_->tokenizer->Encode(sentences[i]); });
  return ids;
}

Matrix UseLiteEmbedder::EmbedTokenIds(const std::vector<std::vector<int>>& token_ids) const {
  const int64_t vocab_rows = impl_->model.weights.embeddings.rows();
  const int max_len = impl_->model.weights.max_len;
  std::vector<const std::vector<int>*> ids;
  std::vector<int64_t> rows;
  for (size_t i = 0; i < token_ids.size(); ++i) {
    const std::vector<int>& seq = token_ids[i];
    for (size_t t = 0; t < seq.size() && t < static_cast<size_t>(max_len); ++t) {
      if (seq[t] < 0 || seq[t] >= vocab_rows) {
        throw std::invalid_argument("use-lite: token id " + std::to_string(seq[t]) +
                                    " at position " + std::to_string(t) + " of sequence " +
                                    std::to_string(i) + " is outside [0, " +
                                    std::to_string(vocab_rows) + ")");
      }
    }
    ids.push_back(&seq);
    rows.push_back(static_cast<int64_t>(i));
  }
  Matrix out(static_cast<int64_t>(token_ids.size()), kUseLiteDim);
  impl_->Run(ids, rows, out);
  return out;
}

Matrix UseLiteEmbedder::Embed(const std::vector<std::string>& sentences) {
  const int64_t n = static_cast<int64_t>(sentences.size());
  Matrix out(n, kUseLiteDim);
  // Cache lookups; identical sentences within the call are computed once.
  std::vector<uint64_t> keys(n);
  std::vector<int64_t> todo;                        // first occurrence of each sentence to compute
  std::vector<std::pair<int64_t, int64_t>> copies;  // (row, row it copies)
  std::unordered_map<std::string_view, int64_t> first;
  for (int64_t i = 0; i < n; ++i) {
    keys[i] = Fnv1a64(sentences[i]);  // entries keep the text: a collision is a miss
    auto [it, inserted] = first.emplace(sentences[i], i);
    if (!inserted) {
      copies.emplace_back(i, it->second);
    } else if (!impl_->cache.Get(keys[i], sentences[i], out.row(i).data())) {
      todo.push_back(i);
    }
  }
  std::vector<std::vector<int>> ids(todo.size());
  ParallelFor(static_cast<int64_t>(todo.size()), todo.size() >= 64 ? impl_->threads.load() : 1,
              "embedding",
              [&](int64_t k) { ids[k] = impl_->tokenizer->Encode(sentences[todo[k]]); });
  std::vector<const std::vector<int>*> id_ptrs;
  id_ptrs.reserve(ids.size());
  for (const auto& v : ids) id_ptrs.push_back(&v);
  impl_->Run(id_ptrs, todo, out);
  for (int64_t i : todo) impl_->cache.Put(keys[i], sentences[i], out.row(i).data());
  for (auto [row, source] : copies) out.row(row) = out.row(source);
  return out;
}

}  // namespace revsum
