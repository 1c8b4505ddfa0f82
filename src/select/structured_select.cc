// The structured summary's choice of points (structured.h): in the select stage, which both the
// export (pipeline) and `revsum eval --structured` (eval) link, so the two share this one rule.
#include <algorithm>

#include "revsum/structured.h"

namespace revsum {

StructuredSection SectionOfPolarity(std::string_view polarity) {
  if (polarity == "praise") return kSectionPraise;
  if (polarity == "complaint") return kSectionComplaints;
  return kSectionOther;
}

bool SelectStructuredPoints(const std::array<std::vector<double>, 3>& support_of,
                            const std::function<bool(const StructuredChoice&, size_t)>& fits,
                            const std::function<double(int, size_t)>& line_cost,
                            StructuredChoice& chosen) {
  for (std::vector<size_t>& c : chosen) c.clear();
  size_t count = 0;
  auto fits_with = [&](int s, size_t i) {
    chosen[s].push_back(i);
    const bool ok = fits(chosen, count + 1);
    chosen[s].pop_back();
    return ok;
  };
  if (!fits(chosen, 0)) return false;
  size_t next[3] = {0, 0, 0};
  bool stopped[3] = {false, false, false};
  double used[3] = {0, 0, 0}, support[3] = {0, 0, 0};
  for (int s = 0; s < 3; ++s) {
    for (double x : support_of[s]) support[s] += x;
  }
  auto take = [&](int s, size_t i) {
    chosen[s].push_back(i);
    ++count;
    used[s] += line_cost(s, i);
    next[s] = i + 1;
  };
  // 1. Each of Praise and Complaints: its first point that fits.
  for (int s : {kSectionPraise, kSectionComplaints}) {
    for (size_t i = 0; i < support_of[s].size(); ++i) {
      if (fits_with(s, i)) {
        take(s, i);
        break;
      }
    }
    if (chosen[s].empty()) stopped[s] = true;
  }
  // 2. The section with the lowest cost per unit of support gets its next point.
  while (true) {
    int best = -1;
    for (int s : {kSectionPraise, kSectionComplaints}) {
      if (stopped[s] || next[s] >= support_of[s].size()) continue;
      const double load = used[s] / std::max(support[s], 1.0);
      if (best < 0 || load < used[best] / std::max(support[best], 1.0)) best = s;
    }
    if (best < 0) break;
    if (fits_with(best, next[best])) {
      take(best, next[best]);
    } else {
      ++next[best];  // passed over: a later, shorter point may still fit
    }
  }
  // 3. Other, with what is left; its best fitting point when nothing else was taken.
  const std::vector<double>& other = support_of[kSectionOther];
  size_t i = 0;
  if (count == 0) {
    while (i < other.size() && !fits_with(kSectionOther, i)) ++i;
  }
  for (; i < other.size(); ++i) {
    if (fits_with(kSectionOther, i)) take(kSectionOther, i);
  }
  return true;
}

std::vector<size_t> SelectAlsoSaid(size_t candidates,
                                   const std::function<bool(const std::vector<size_t>&)>& fits) {
  std::vector<size_t> taken;
  for (size_t i = 0; i < candidates; ++i) {
    taken.push_back(i);
    if (!fits(taken)) taken.pop_back();
  }
  return taken;
}

}  // namespace revsum
