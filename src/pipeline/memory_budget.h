// A budget of bytes shared by the summarize workers, so that the products being embedded at once
// hold at most about that much, whatever the thread count; private to the pipeline stage.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace revsum::pipeline_internal {

// Thread-safe. A holder larger than the whole budget waits until it is alone, then runs: nothing
// waits forever as long as every holder finishes.
class MemoryBudget {
 public:
  explicit MemoryBudget(size_t bytes) : capacity_(bytes) {}

  // Holds `bytes` of the budget for its lifetime.
  class Hold {
   public:
    Hold(MemoryBudget& budget, size_t bytes) : budget_(budget), bytes_(bytes) {
      std::unique_lock lock(budget_.mu_);
      budget_.freed_.wait(
          lock, [&] { return budget_.used_ == 0 || budget_.used_ + bytes_ <= budget_.capacity_; });
      budget_.used_ += bytes_;
    }
    ~Hold() {
      {
        std::lock_guard lock(budget_.mu_);
        budget_.used_ -= bytes_;
      }
      budget_.freed_.notify_all();
    }
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

    // True when this holder runs alone for its lifetime: it holds more than the whole budget, so
    // it waited until nothing else was held, and every other holder waits until it is gone.
    bool alone() const { return bytes_ > budget_.capacity_; }

   private:
    MemoryBudget& budget_;
    size_t bytes_;
  };

 private:
  const size_t capacity_;
  std::mutex mu_;
  std::condition_variable freed_;
  size_t used_ = 0;
};

}  // namespace revsum::pipeline_internal
