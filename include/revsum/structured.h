// The structured summary's choice of points: the one rule shared by `revsum export` (export.h,
// which renders and measures the points' lines) and `revsum eval --structured` (eval.h, which
// measures the points' texts joined as the flat summary is).
//
// Sections: Praise (polarity "praise"), Complaints ("complaint"), Other ("neutral", "unknown"),
// each holding its points in order (by support, then rank). The rule:
//   1. each of Praise and Complaints takes its first point that fits (so each section present
//      gets at least one point when one fits);
//   2. then, repeatedly, of Praise and Complaints the section whose cost per unit of support
//      (the summed cost of its taken lines / the summed support of all its points) is lowest
//      takes its next point if the body still fits, else passes over it (a later, shorter point
//      may still fit: on the ROUGE dev sets the budget is filled better, Copycat +0.47 R1). So the
//      budget is shared in proportion to support;
//   3. then Other takes, in order, each of its points that still fits.
//   4. then "Also said": the budget the points leave goes to the flat summary's sentences (the
//      scorer's choice, in its order) that no chosen point holds as face or member, each taken
//      while the body still fits (SelectAlsoSaid). They stand for one review each and carry no
//      share. On the ROUGE dev sets (eval --structured) this section is where a product of few
//      reviews, whose points cannot fill the budget, gets the rest of its summary.
// "Fits" is decided by the caller on the whole body holding the chosen points (the caller knows
// what its budget measures: rendered lines and headers, or plain joined texts).
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace revsum {

enum StructuredSection { kSectionPraise = 0, kSectionComplaints = 1, kSectionOther = 2 };

// The header of step 4's section (see above) in every format.
inline constexpr const char* kAlsoSaidName = "Also said (single reviews)";

// The section of a polarity name ("praise", "complaint"; anything else is Other).
StructuredSection SectionOfPolarity(std::string_view polarity);

// Per section, indexes into that section's points (in the order taken).
using StructuredChoice = std::array<std::vector<size_t>, 3>;

// Chooses points under a budget by the rule above. `support[s][i]`: the support of point i of
// section s. `fits(chosen, points)`: whether the body holding `chosen` (`points` points in all)
// fits the budget. `line_cost(s, i)`: the budget cost of point i of section s alone. Returns
// false (and chooses nothing) when not even the empty body fits. Deterministic.
bool SelectStructuredPoints(const std::array<std::vector<double>, 3>& support,
                            const std::function<bool(const StructuredChoice&, size_t)>& fits,
                            const std::function<double(int, size_t)>& line_cost,
                            StructuredChoice& chosen);

// Step 4 of the rule: of `candidates` sentences (already in the flat summary's order and without
// those a chosen point holds), the indexes taken in order while `fits(taken)` holds for the body
// holding the points and `taken`; a sentence that does not fit is passed over for the next.
std::vector<size_t> SelectAlsoSaid(size_t candidates,
                                   const std::function<bool(const std::vector<size_t>&)>& fits);

}  // namespace revsum
