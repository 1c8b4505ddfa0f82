// The 200 ordinary review sentences written for revsum's benchmarks
// (bench/data/use_lite_sentences.txt), one per line.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace revsum::bench {

inline std::vector<std::string> ReviewSentences() {
  const std::string path = std::string(REVSUM_SOURCE_DIR) + "/bench/data/use_lite_sentences.txt";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

}  // namespace revsum::bench
