// A budget of bytes shared by the summarize workers, so that the products being embedded at once
// hold at most about that much, whatever the thread count; private to the pipeline stage.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>

namespace revsum::pipeline_internal {

// Thread-safe. A holder larger than the whole budget waits until it is alone, then runs: nothing
// waits forever as long as every holder finishes.
class MemoryBudget {
 public:
  // How often a holder that waits with nothing to help looks for help again.
  static constexpr std::chrono::milliseconds kHelpPoll{5};

  explicit MemoryBudget(size_t bytes) : capacity_(bytes) {}

  // Holds `bytes` of the budget for its lifetime.
  class Hold {
   public:
    // While it waits, `help` (may be empty) is called outside the lock again and again: it does
    // a piece of someone else's work and returns whether there was one; when there was none, the
    // wait rechecks every kHelpPoll.
    Hold(MemoryBudget& budget, size_t bytes, const std::function<bool()>& help = nullptr)
        : budget_(budget), bytes_(bytes) {
      std::unique_lock lock(budget_.mu_);
      auto fits = [&] { return budget_.used_ == 0 || budget_.used_ + bytes_ <= budget_.capacity_; };
      while (!fits()) {
        if (!help) {
          budget_.freed_.wait(lock, fits);
          break;
        }
        lock.unlock();
        const bool helped = help();
        lock.lock();
        if (!helped) budget_.freed_.wait_for(lock, kHelpPoll, fits);
      }
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
