// Reads one review dump with the installed library and prints "<reviews> reviews, <rejects>
// rejects". Exit 1 with the reader's message on a read error.

#include <cstdio>
#include <memory>
#include <string>

#include "revsum/read.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DUMP\n", argv[0]);
    return 2;
  }
  try {
    std::unique_ptr<revsum::ReviewReader> reader =
        revsum::ReviewReader::Open(argv[1], revsum::ReadOptions{});
    size_t reviews = 0, rejects = 0;
    for (revsum::Record record; reader->Next(&record);) {
      if (record.review) ++reviews;
      if (record.reject) ++rejects;
    }
    std::printf("%zu reviews, %zu rejects\n", reviews, rejects);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
