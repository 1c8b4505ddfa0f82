// A small bounded, closable FIFO joining the pipeline's threads (ingest and summarize); private
// to the pipeline stage.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace revsum::pipeline_internal {

// Thread-safe. Push blocks while full, Pop while empty.
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
  // The first item if one is queued, without waiting.
  std::optional<T> TryPop() {
    std::lock_guard lock(mu_);
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return item;
  }
  // Like Pop, but gives up at `deadline`: nullopt when closed and drained, or when nothing came.
  template <typename Clock, typename Duration>
  std::optional<T> PopUntil(const std::chrono::time_point<Clock, Duration>& deadline) {
    std::unique_lock lock(mu_);
    if (!not_empty_.wait_until(lock, deadline, [&] { return !items_.empty() || closed_; }) ||
        items_.empty()) {
      return std::nullopt;
    }
    T item = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return item;
  }
  // Whether the queue is closed and empty: Pop would return nullopt at once.
  bool Drained() {
    std::lock_guard lock(mu_);
    return closed_ && items_.empty();
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

}  // namespace revsum::pipeline_internal
