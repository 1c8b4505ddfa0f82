#include "revsum/ingest.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace revsum {

IngestCounts& IngestCounts::operator+=(const IngestCounts& o) {
  read += o.read;
  ingested += o.ingested;
  duplicates += o.duplicates;
  rejected += o.rejected;
  sentences += o.sentences;
  return *this;
}

namespace {

// A batch of records in reading order, with the sentences of each review once segmented.
struct Batch {
  uint64_t seq = 0;
  std::vector<Record> records;
  std::vector<std::vector<Sentence>> sentences;  // parallel to records
  uint64_t bytes_after = 0;                      // reader position after the batch
  Format format = Format::kAuto;                 // the reader's format once it has started
};

// A small bounded, closable FIFO.
template <typename T>
class BoundedQueue {
 public:
  explicit BoundedQueue(size_t capacity) : capacity_(capacity) {}
  // Returns false, dropping the item, once the queue is closed.
  bool Push(T item) {
    std::unique_lock lock(mu_);
    not_full_.wait(lock, [&] { return items_.size() < capacity_ || closed_; });
    if (closed_) return false;
    items_.push_back(std::move(item));
    not_empty_.notify_one();
    return true;
  }
  std::optional<T> Pop() {
    std::unique_lock lock(mu_);
    not_empty_.wait(lock, [&] { return !items_.empty() || closed_; });
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return item;
  }
  // No more pushes; Pop() drains what is queued, then returns nullopt.
  void Close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    not_empty_.notify_all();
    not_full_.notify_all();
  }
  // Close() and drop what is queued: every thread blocked on the queue returns at once.
  void Cancel() {
    std::lock_guard lock(mu_);
    closed_ = true;
    items_.clear();
    not_empty_.notify_all();
    not_full_.notify_all();
  }

 private:
  size_t capacity_;
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<T> items_;
  bool closed_ = false;
};

}  // namespace

IngestCounts IngestFile(ReviewStore& store, const std::string& path, const IngestOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto reader = ReviewReader::Open(path, options.read);
  const int threads = options.threads > 0
                          ? options.threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));

  // Reader → (todo) → workers → (done, reordered by seq) → writer. In-flight batches are bounded
  // by the two queue capacities plus one per worker.
  BoundedQueue<Batch> todo(static_cast<size_t>(threads) * 2);
  BoundedQueue<Batch> done(static_cast<size_t>(threads) * 2);
  // Known at open; everything else about the reader is touched only by the read thread.
  const uint64_t total_bytes = reader->total_bytes();
  Format format = Format::kAuto;

  // The first failure of any thread; it cancels both queues so every other thread stops, and is
  // rethrown once all threads are joined.
  std::mutex failure_mu;
  std::exception_ptr failure;
  auto fail = [&](std::exception_ptr e) {
    {
      std::lock_guard lock(failure_mu);
      if (!failure) failure = e;
    }
    todo.Cancel();
    done.Cancel();
  };

  std::thread read_thread([&] {
    try {
      uint64_t seq = 0;
      Batch batch;
      Record record;
      while (reader->Next(&record)) {
        batch.records.push_back(std::move(record));
        record = Record{};
        if (batch.records.size() >= options.batch_records) {
          batch.seq = seq++;
          batch.bytes_after = reader->bytes_read();
          batch.format = reader->format();
          if (!todo.Push(std::move(batch))) return;  // cancelled
          batch = Batch{};
        }
      }
      batch.seq = seq++;
      batch.bytes_after = reader->bytes_read();
      batch.format = reader->format();
      todo.Push(std::move(batch));
      todo.Close();
    } catch (...) {
      fail(std::current_exception());
    }
  });

  std::vector<std::thread> workers;
  std::mutex workers_mu;
  int workers_left = threads;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      try {
        SentenceSegmenter segmenter(options.segment);
        while (auto batch = todo.Pop()) {
          batch->sentences.resize(batch->records.size());
          for (size_t i = 0; i < batch->records.size(); ++i) {
            if (batch->records[i].review) {
              batch->sentences[i] = segmenter.Split(batch->records[i].review->text);
              if (options.tokens) {
                for (Sentence& sentence : batch->sentences[i]) {
                  sentence.tokens = static_cast<int32_t>(options.tokens->Count(sentence.text));
                }
              }
            }
          }
          if (!done.Push(std::move(*batch))) break;  // cancelled
        }
      } catch (...) {
        fail(std::current_exception());
      }
      std::lock_guard lock(workers_mu);
      if (--workers_left == 0) done.Close();
    });
  }

  // The writer: this thread. Batches arrive out of order; store them in reading order.
  IngestCounts counts;
  int64_t source_id = -1;
  std::map<uint64_t, Batch> pending;
  uint64_t next_seq = 0;
  auto last_report = Clock::now();
  auto report = [&](uint64_t bytes) {
    if (!options.progress) return;
    IngestProgress p;
    p.path = path;
    p.records = counts.read;
    p.bytes = bytes;
    p.total_bytes = total_bytes;
    p.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    options.progress(p);
  };
  uint64_t last_bytes = 0;
  try {
    while (auto batch = done.Pop()) {
      pending.emplace(batch->seq, std::move(*batch));
      for (auto it = pending.find(next_seq); it != pending.end(); it = pending.find(next_seq)) {
        Batch& b = it->second;
        if (source_id < 0) {
          source_id = store.AddSource(path, std::string(FormatName(b.format)), total_bytes);
        }
        for (size_t i = 0; i < b.records.size(); ++i) {
          ++counts.read;
          if (b.records[i].review) {
            if (store.AddReview(source_id, *b.records[i].review, b.sentences[i])) {
              ++counts.ingested;
              counts.sentences += b.sentences[i].size();
            } else {
              ++counts.duplicates;
            }
          } else {
            ++counts.rejected;
            store.AddReject(source_id, *b.records[i].reject);
            if (options.on_reject) options.on_reject(*b.records[i].reject);
          }
        }
        last_bytes = b.bytes_after;
        format = b.format;
        pending.erase(it);
        ++next_seq;
        if (Clock::now() - last_report > std::chrono::milliseconds(250)) {
          last_report = Clock::now();
          report(last_bytes);
        }
      }
    }
  } catch (...) {
    fail(std::current_exception());
  }
  read_thread.join();
  for (auto& w : workers) w.join();
  if (failure) {
    store.Rollback();  // the open batch may hold half a review; committed batches stay
    std::rethrow_exception(failure);
  }
  if (source_id < 0)
    source_id = store.AddSource(path, std::string(FormatName(format)), total_bytes);
  store.FinishSource(source_id, counts.read, counts.ingested, counts.duplicates, counts.rejected);
  report(last_bytes);
  return counts;
}

}  // namespace revsum
