// Fragment rate of summaries (issue 8): reads "<group>\t<text>" lines on stdin and prints, per
// group and overall, how many sentences the fragment rule (revsum/fragment.h) calls fragments, and
// why. Built and run by bench/fragments.sh; not part of the CMake build.
//
//   fragment_rate [--split] [--list] <models/fragments dir>
//     --split  <text> is a whole summary: split it into sentences with SentenceSegmenter first
//              (the English eval writes summaries as joined strings);
//     --list   also print every fragment as "<group>\t<reason>\t<sentence>".
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "revsum/fragment.h"
#include "revsum/text.h"

int main(int argc, char** argv) {
  bool split = false, list = false;
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--split") {
      split = true;
    } else if (a == "--list") {
      list = true;
    } else {
      dir = a;
    }
  }
  if (dir.empty()) {
    std::cerr << "usage: fragment_rate [--split] [--list] <models/fragments dir>\n";
    return 2;
  }
  const revsum::FragmentRule rule(revsum::LoadFragmentLexicon({dir + "/en.txt", dir + "/zh.txt"}));
  revsum::SentenceSegmenter segmenter;
  struct Counts {
    size_t sentences = 0, fragments = 0;
  };
  std::map<std::string, Counts> groups;
  std::map<std::string, size_t> reasons;
  Counts total;
  std::string line;
  while (std::getline(std::cin, line)) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    const std::string group = line.substr(0, tab);
    std::vector<std::string> sentences;
    if (split) {
      for (const revsum::Sentence& s : segmenter.Split(line.substr(tab + 1))) {
        sentences.push_back(s.text);
      }
    } else {
      sentences.push_back(line.substr(tab + 1));
    }
    for (const std::string& s : sentences) {
      const revsum::FragmentReason r = rule.Classify(s);
      Counts& g = groups[group];
      ++g.sentences;
      ++total.sentences;
      if (r != revsum::FragmentReason::kNone) {
        ++g.fragments;
        ++total.fragments;
        ++reasons[std::string(revsum::FragmentReasonName(r))];
        if (list) std::cout << group << '\t' << revsum::FragmentReasonName(r) << '\t' << s << '\n';
      }
    }
  }
  auto rate = [](const Counts& c) {
    return c.sentences ? 100.0 * static_cast<double>(c.fragments) / static_cast<double>(c.sentences)
                       : 0.0;
  };
  if (groups.size() <= 12) {
    for (const auto& [name, c] : groups) {
      std::printf("%-12s %4zu sentences %4zu fragments %5.1f%%\n", name.c_str(), c.sentences,
                  c.fragments, rate(c));
    }
  }
  std::printf("%-12s %4zu sentences %4zu fragments %5.1f%%  (", "ALL", total.sentences,
              total.fragments, rate(total));
  for (const auto& [name, n] : reasons) std::printf(" %s=%zu", name.c_str(), n);
  std::printf(" )\n");
  return 0;
}
