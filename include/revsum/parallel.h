// Thread start-up shared by the stages that run threads (embed's USE-lite encoder, pipeline's
// ingest and summarize): a refused thread is an error the CLI prints, never std::terminate on a
// joinable std::thread. Header-only.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "revsum/error.h"

namespace revsum {

// Starts `count` threads into *pool, thread t running body(t). When the system refuses one
// (std::system_error: too many threads), calls stop(started) (started = how many run) so that
// those end, joins them, and throws revsum::Error "cannot start WHAT: WHY; use fewer --threads",
// e.g. WHAT = "8 ingest threads".
template <typename Body, typename Stop>
void StartThreads(std::vector<std::thread>* pool, int count, const std::string& what, Body body,
                  Stop stop) {
  try {
    for (int t = 0; t < count; ++t) pool->emplace_back([body, t] { body(t); });
  } catch (const std::system_error& e) {
    stop(pool->size());
    for (std::thread& thread : *pool) thread.join();
    throw Error("cannot start " + what + ": " + e.what() + "; use fewer --threads");
  }
}

// Runs fn(i) for every i in [0, count) on up to `threads` threads, the caller being one of them:
// each takes the next index of a shared counter until none is left, so the order in which the
// indices run is not fixed (fn writes its result at i). The first exception that fn throws stops
// the other threads at their next index and is rethrown once all are joined; a thread the system
// refuses is an Error naming `what` ("cannot start 8 WHAT threads: ...").
template <typename Fn>
void ParallelFor(int64_t count, int threads, const std::string& what, Fn&& fn) {
  const int workers = static_cast<int>(std::min<int64_t>(threads, count));
  if (workers <= 1) {
    for (int64_t i = 0; i < count; ++i) fn(i);
    return;
  }
  std::atomic<int64_t> next{0};
  std::exception_ptr error;
  std::mutex error_mu;
  auto run = [&] {
    try {
      for (int64_t i; (i = next.fetch_add(1)) < count;) fn(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mu);
      if (!error) error = std::current_exception();
      next = count;
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  StartThreads(
      &pool, workers - 1, std::to_string(workers) + " " + what + " threads", [&](int) { run(); },
      [&](size_t) { next = count; });
  run();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace revsum
