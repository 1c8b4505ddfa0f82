#include "revsum/ingest.h"

#include <sys/stat.h>

#include "bounded_queue.h"
#include "revsum/hash.h"
#include "revsum/parallel.h"

#include <unicode/uchar.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace revsum {

using pipeline_internal::BoundedQueue;

IngestCounts& IngestCounts::operator+=(const IngestCounts& o) {
  read += o.read;
  ingested += o.ingested;
  duplicates += o.duplicates;
  rejected += o.rejected;
  other_shard += o.other_shard;
  sentences += o.sentences;
  return *this;
}

namespace {

// A batch of records in reading order, with the sentences of each review once segmented.
struct Batch {
  uint64_t seq = 0;
  std::vector<Record> records;
  std::vector<std::vector<Sentence>> sentences;  // parallel to records
  // Parallel to records: the store's hash and index forms, computed off the writer thread.
  std::vector<PreparedReview> prepared;
  std::vector<char> other_shard;  // parallel to records: left to another shard
  uint64_t bytes_after = 0;       // reader position after the batch
  Format format = Format::kAuto;  // the reader's format once it has started
};

// Segments one review into *sentences (with token counts), or says why it cannot be stored: a text
// over the per-review bound, or one with nothing visible after cleaning.
std::optional<Reject> SegmentReview(const Review& review, const IngestOptions& options,
                                    SentenceSegmenter& segmenter,
                                    std::vector<Sentence>* sentences) {
  auto reject = [&](std::string reason) {
    Reject r;
    r.source = review.source;
    r.line = review.line;
    r.reason = std::move(reason);
    r.raw = review.text.substr(0, options.read.max_raw_bytes);
    return r;
  };
  if (review.text.size() > options.max_text_bytes) {
    return reject("review text too long: " + std::to_string(review.text.size()) +
                  " bytes (the bound is " + std::to_string(options.max_text_bytes) +
                  " bytes per review, --max-text-bytes)");
  }
  const MappedText cleaned = CleanWithOffsets(review.text);
  *sentences = segmenter.Split(cleaned);
  if (sentences->empty()) {
    // Nothing visible is left (markup, spaces, zero-width characters): it would be stored with no
    // sentence, invisible to search and summaries.
    if (std::none_of(cleaned.text.begin(), cleaned.text.end(),
                     [](char32_t c) { return u_isgraph(static_cast<UChar32>(c)); })) {
      return reject("no text after cleaning (only markup, spaces or invisible characters)");
    }
    // Only symbols, punctuation or emoji ("？？？", "👍👍"): the reviewer did say something, so the
    // review is kept with its whole cleaned text as its one sentence, findable in `sentences`.
    sentences->push_back(
        Sentence{0, cleaned.begin.front(), cleaned.end.back(), CleanText(review.text)});
  }
  if (options.tokens) {
    for (Sentence& sentence : *sentences) {
      sentence.tokens = static_cast<int32_t>(options.tokens->Count(sentence.text));
    }
  }
  return std::nullopt;
}

// Whether `record` is left to another shard (see IngestShard for where rejects go).
bool InOtherShard(const Record& record, const IngestShard& shard) {
  if (shard.count <= 1) return false;
  if (!record.review) return shard.index != 1;
  return ProductShard(record.review->product, shard.count) != shard.index;
}

}  // namespace

uint32_t ProductShard(std::string_view product, uint32_t count) {
  return static_cast<uint32_t>(Fnv1a64(product) % count) + 1;
}

IngestShard ParseShard(std::string_view text) {
  auto bad = [&](const std::string& why) {
    return std::invalid_argument("--shard '" + std::string(text) + "': " + why +
                                 "; write K/N with 1 <= K <= N <= " + std::to_string(kMaxShards) +
                                 ", e.g. --shard 2/3");
  };
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) throw bad("no '/' between K and N");
  auto number = [&](std::string_view digits, const char* name) {
    if (digits.empty()) throw bad(std::string(name) + " is missing");
    uint64_t v = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') throw bad(std::string(name) + " is not a whole number");
      v = v * 10 + static_cast<uint64_t>(c - '0');
      if (v > kMaxShards) throw bad(std::string(name) + " is above " + std::to_string(kMaxShards));
    }
    return static_cast<uint32_t>(v);
  };
  IngestShard shard;
  shard.index = number(text.substr(0, slash), "K");
  shard.count = number(text.substr(slash + 1), "N");
  if (shard.count < 1) throw bad("N must be at least 1");
  if (shard.index < 1) throw bad("K counts from 1");
  if (shard.index > shard.count) throw bad("K is above N");
  return shard;
}

DetectedInput DetectInput(const std::string& path, const ReadOptions& options, size_t max_records) {
  DetectedInput out;
  out.path = path;
  ReadOptions read = options;
  read.on_notice = [&](const std::string& notice) { out.notices.push_back(notice); };
  auto reader = ReviewReader::Open(path, read);
  Record record;
  while (out.records.size() < max_records && reader->Next(&record)) {
    out.records.push_back(std::move(record));
    record = Record{};
  }
  out.format = reader->format();
  out.gzip = reader->gzip();
  return out;
}

void CheckInputs(const std::vector<std::string>& paths, const ReadOptions& options) {
  for (const std::string& path : paths) {
    if (path == "-") continue;
    // A pipe, FIFO or device can be read only once: opening it here would consume (or, for a
    // FIFO, wait for) the input IngestFile is to read. IngestFile reports its errors.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) continue;
    ReadOptions quiet = options;
    quiet.on_notice = nullptr;                      // IngestFile gives the notices
    auto reader = ReviewReader::Open(path, quiet);  // throws ReadError
    // The first record: JSON's look-ahead and a CSV header check the named fields (a misspelt
    // --product-field or --text-field is a ReadError) before any store file exists.
    Record first;
    reader->Next(&first);
  }
}

namespace {

// IngestFile's steps: a reader thread → (todo_) → worker threads (segment, prepare) → (done_,
// reordered by seq) → the writer, this thread, which stores the batches in reading order.
// In-flight batches are bounded by the two queue capacities plus one per worker.
class FileIngester {
 public:
  using Clock = std::chrono::steady_clock;

  FileIngester(ReviewStore& store, const std::string& path, const IngestOptions& options)
      : store_(store), path_(path), options_(options), start_(Clock::now()) {}

  IngestCounts Run() {
    CheckShard();
    OpenReader();
    StartWorkersAndReader();
    try {
      WriteInOrder();
    } catch (...) {
      Fail(std::current_exception());
    }
    for (auto& thread : threads_started_) thread.join();
    if (failure_) {
      store_.Rollback();  // the open batch may hold half a review; committed batches stay
      std::rethrow_exception(failure_);
    }
    FinishSource();
    return counts_;
  }

 private:
  // Step 1: the shard must be K/N with 1 <= K <= N <= kMaxShards.
  void CheckShard() const {
    const IngestShard shard = options_.shard;
    if (shard.count < 1 || shard.count > kMaxShards || shard.index < 1 ||
        shard.index > shard.count) {
      throw std::invalid_argument("shard " + std::to_string(shard.index) + "/" +
                                  std::to_string(shard.count) +
                                  ": need 1 <= K <= N <= " + std::to_string(kMaxShards));
    }
  }

  // Step 2: the reader, the number of worker threads and the queues between the threads.
  void OpenReader() {
    reader_ = ReviewReader::Open(path_, options_.read);
    // At most kMaxIngestThreads: more could only exhaust the system's thread limit.
    threads_ = std::min(kMaxIngestThreads,
                        options_.threads > 0
                            ? options_.threads
                            : std::max(1, static_cast<int>(std::thread::hardware_concurrency())));
    todo_.emplace(static_cast<size_t>(threads_) * 2);
    done_.emplace(static_cast<size_t>(threads_) * 2);
    // Known at open; everything else about the reader is touched only by the read thread.
    total_bytes_ = reader_->total_bytes();
    workers_left_ = threads_;
  }

  // Step 3: the workers (threads 0..threads_ - 1), then the reader (the last thread). A failure
  // to start one (too many for the system) stops those already started and is reported as an
  // error, never std::terminate (StartThreads, parallel.h).
  void StartWorkersAndReader() {
    StartThreads(
        &threads_started_, threads_ + 1, std::to_string(threads_) + " ingest threads",
        [this](int t) {
          if (t < threads_) {
            WorkLoop();
          } else {
            ReadLoop();
          }
        },
        [this](size_t started) {
          {
            std::lock_guard lock(workers_mu_);
            workers_left_ -= threads_ - static_cast<int>(started);
          }
          todo_->Cancel();
          done_->Cancel();
        });
  }

  // The first failure of any thread; it cancels both queues so every other thread stops, and is
  // rethrown once all threads are joined.
  void Fail(std::exception_ptr e) {
    {
      std::lock_guard lock(failure_mu_);
      if (!failure_) failure_ = e;
    }
    todo_->Cancel();
    done_->Cancel();
  }

  // The read thread: records into batches (closed at batch_records or batch_bytes) onto todo_.
  void ReadLoop() {
    try {
      uint64_t seq = 0;
      Batch batch;
      size_t batch_bytes = 0;
      Record record;
      while (reader_->Next(&record)) {
        batch_bytes += record.review ? record.review->text.size() + record.review->title.size()
                                     : record.reject->raw.size();
        batch.records.push_back(std::move(record));
        record = Record{};
        if (batch.records.size() >= options_.batch_records || batch_bytes >= options_.batch_bytes) {
          batch_bytes = 0;
          batch.seq = seq++;
          batch.bytes_after = reader_->bytes_read();
          batch.format = reader_->format();
          if (!todo_->Push(std::move(batch))) return;  // cancelled
          batch = Batch{};
        }
      }
      batch.seq = seq++;
      batch.bytes_after = reader_->bytes_read();
      batch.format = reader_->format();
      todo_->Push(std::move(batch));
      todo_->Close();
    } catch (...) {
      Fail(std::current_exception());
    }
  }

  // A worker thread: batches from todo_, segmented and prepared, onto done_. The last worker to
  // end closes done_.
  void WorkLoop() {
    try {
      SentenceSegmenter segmenter(options_.segment);
      while (auto batch = todo_->Pop()) {
        PrepareBatch(segmenter, *batch);
        if (!done_->Push(std::move(*batch))) break;  // cancelled
      }
    } catch (...) {
      Fail(std::current_exception());
    }
    std::lock_guard lock(workers_mu_);
    if (--workers_left_ == 0) done_->Close();
  }

  // Marks the other shards' records, segments the others' reviews (or rejects them) and computes
  // the store's hash and index forms, off the writer thread.
  void PrepareBatch(SentenceSegmenter& segmenter, Batch& batch) const {
    batch.sentences.resize(batch.records.size());
    batch.prepared.resize(batch.records.size());
    batch.other_shard.assign(batch.records.size(), 0);
    for (size_t i = 0; i < batch.records.size(); ++i) {
      Record& record = batch.records[i];
      // Decided before segmenting: the other shards' reviews cost no ICU work here.
      if (InOtherShard(record, options_.shard)) {
        batch.other_shard[i] = 1;
        continue;
      }
      if (!record.review) continue;
      if (auto reject = SegmentReview(*record.review, options_, segmenter, &batch.sentences[i])) {
        record.review.reset();
        record.reject = std::move(reject);
      } else {
        batch.prepared[i] = ReviewWriter::Prepare(*record.review, batch.sentences[i]);
      }
    }
  }

  // Step 4, the writer (this thread): batches arrive out of order; store them in reading order.
  void WriteInOrder() {
    std::map<uint64_t, Batch> pending;
    uint64_t next_seq = 0;
    auto last_report = Clock::now();
    while (auto batch = done_->Pop()) {
      pending.emplace(batch->seq, std::move(*batch));
      for (auto it = pending.find(next_seq); it != pending.end(); it = pending.find(next_seq)) {
        WriteBatch(it->second);
        pending.erase(it);
        ++next_seq;
        if (Clock::now() - last_report > std::chrono::milliseconds(250)) {
          last_report = Clock::now();
          Report(last_bytes_);
        }
      }
    }
  }

  // Stores one batch's reviews and rejects, counting them.
  void WriteBatch(const Batch& b) {
    if (source_id_ < 0) {
      source_id_ =
          store_.ingest().AddSource(path_, std::string(FormatName(b.format)), total_bytes_);
    }
    for (size_t i = 0; i < b.records.size(); ++i) {
      ++counts_.read;
      // The dump's rating scale is a property of the whole dump: every shard sees it alike.
      if (b.records[i].review && b.records[i].review->rating) {
        RatingRange::Widen(ratings_, *b.records[i].review->rating);
      }
      if (b.other_shard[i]) {
        ++counts_.other_shard;
      } else if (b.records[i].review) {
        if (store_.ingest().AddReview(source_id_, *b.records[i].review, b.sentences[i],
                                      b.prepared[i])) {
          ++counts_.ingested;
          counts_.sentences += b.sentences[i].size();
        } else {
          ++counts_.duplicates;
        }
      } else {
        ++counts_.rejected;
        store_.ingest().AddReject(source_id_, *b.records[i].reject);
        if (options_.on_reject) options_.on_reject(*b.records[i].reject);
      }
    }
    last_bytes_ = b.bytes_after;
    format_ = b.format;
  }

  void Report(uint64_t bytes) const {
    if (!options_.progress) return;
    IngestProgress p;
    p.path = path_;
    p.records = counts_.read;
    p.bytes = bytes;
    p.total_bytes = total_bytes_;
    p.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    options_.progress(p);
  }

  // Step 5: the source's row (also for an empty dump) with its counts and rating range.
  void FinishSource() {
    if (source_id_ < 0)
      source_id_ = store_.ingest().AddSource(path_, std::string(FormatName(format_)), total_bytes_);
    store_.ingest().FinishSource(source_id_, counts_.read - counts_.other_shard, counts_.ingested,
                                 counts_.duplicates, counts_.rejected, ratings_,
                                 options_.shard.index, options_.shard.count);
    Report(last_bytes_);
  }

  ReviewStore& store_;
  const std::string& path_;
  const IngestOptions& options_;
  const Clock::time_point start_;

  std::unique_ptr<ReviewReader> reader_;
  int threads_ = 1;
  std::optional<BoundedQueue<Batch>> todo_, done_;
  uint64_t total_bytes_ = 0;

  std::vector<std::thread> threads_started_;  // the workers, then the reader
  std::mutex workers_mu_;
  int workers_left_ = 0;
  std::mutex failure_mu_;
  std::exception_ptr failure_;

  // The writer's (this thread's) state.
  IngestCounts counts_;
  int64_t source_id_ = -1;
  uint64_t last_bytes_ = 0;
  Format format_ = Format::kAuto;
  std::optional<RatingRange> ratings_;
};

}  // namespace

IngestCounts IngestFile(ReviewStore& store, const std::string& path, const IngestOptions& options) {
  return FileIngester(store, path, options).Run();
}

}  // namespace revsum
