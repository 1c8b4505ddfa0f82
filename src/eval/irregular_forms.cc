// The irregular forms table (see irregular_forms.h). Only forms longer than 3 characters matter:
// ROUGE never looks shorter tokens up.

#include "irregular_forms.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace revsum::internal {
namespace {

using Entry = std::pair<std::string_view, std::string_view>;

// Sorted by form (checked at compile time below), for binary search.
constexpr Entry kForms[] = {
    {"arisen", "arise"},      {"arose", "arise"},
    {"awoke", "awake"},       {"awoken", "awake"},
    {"beaten", "beat"},       {"became", "become"},
    {"been", "be"},           {"began", "begin"},
    {"begun", "begin"},       {"bent", "bend"},
    {"best", "good"},         {"better", "good"},
    {"bigger", "big"},        {"biggest", "big"},
    {"bitten", "bite"},       {"bled", "bleed"},
    {"blew", "blow"},         {"blown", "blow"},
    {"bought", "buy"},        {"bound", "bind"},
    {"broke", "break"},       {"broken", "break"},
    {"brought", "bring"},     {"built", "build"},
    {"burnt", "burn"},        {"busier", "busy"},
    {"busiest", "busy"},      {"calves", "calf"},
    {"came", "come"},         {"caught", "catch"},
    {"children", "child"},    {"chose", "choose"},
    {"chosen", "choose"},     {"clung", "cling"},
    {"crept", "creep"},       {"dealt", "deal"},
    {"done", "do"},           {"drank", "drink"},
    {"drawn", "draw"},        {"dreamt", "dream"},
    {"drew", "draw"},         {"driven", "drive"},
    {"drove", "drive"},       {"drunk", "drink"},
    {"earlier", "early"},     {"earliest", "early"},
    {"easier", "easy"},       {"easiest", "easy"},
    {"eaten", "eat"},         {"fallen", "fall"},
    {"fatter", "fat"},        {"fattest", "fat"},
    {"feet", "foot"},         {"fell", "fall"},
    {"felt", "feel"},         {"fled", "flee"},
    {"flew", "fly"},          {"flown", "fly"},
    {"forgave", "forgive"},   {"forgiven", "forgive"},
    {"forgot", "forget"},     {"forgotten", "forget"},
    {"fought", "fight"},      {"found", "find"},
    {"froze", "freeze"},      {"frozen", "freeze"},
    {"funnier", "funny"},     {"funniest", "funny"},
    {"gave", "give"},         {"geese", "goose"},
    {"given", "give"},        {"gone", "go"},
    {"grew", "grow"},         {"ground", "grind"},
    {"grown", "grow"},        {"halves", "half"},
    {"happier", "happy"},     {"happiest", "happy"},
    {"heard", "hear"},        {"heavier", "heavy"},
    {"heaviest", "heavy"},    {"held", "hold"},
    {"hidden", "hide"},       {"hotter", "hot"},
    {"hottest", "hot"},       {"hung", "hang"},
    {"kept", "keep"},         {"knew", "know"},
    {"knives", "knife"},      {"known", "know"},
    {"leapt", "leap"},        {"learnt", "learn"},
    {"leaves", "leaf"},       {"left", "leave"},
    {"lives", "life"},        {"lost", "lose"},
    {"made", "make"},         {"meant", "mean"},
    {"mice", "mouse"},        {"misled", "mislead"},
    {"mistaken", "mistake"},  {"mistook", "mistake"},
    {"overcame", "overcome"}, {"paid", "pay"},
    {"prettier", "pretty"},   {"prettiest", "pretty"},
    {"rang", "ring"},         {"ridden", "ride"},
    {"risen", "rise"},        {"rode", "ride"},
    {"said", "say"},          {"sang", "sing"},
    {"sank", "sink"},         {"seen", "see"},
    {"sent", "send"},         {"sewn", "sew"},
    {"shaken", "shake"},      {"shelves", "shelf"},
    {"shone", "shine"},       {"shook", "shake"},
    {"shot", "shoot"},        {"shown", "show"},
    {"shrank", "shrink"},     {"slept", "sleep"},
    {"slid", "slide"},        {"slimmer", "slim"},
    {"slimmest", "slim"},     {"sold", "sell"},
    {"sought", "seek"},       {"spent", "spend"},
    {"spilt", "spill"},       {"spoke", "speak"},
    {"spoken", "speak"},      {"spun", "spin"},
    {"stole", "steal"},       {"stolen", "steal"},
    {"stood", "stand"},       {"struck", "strike"},
    {"stuck", "stick"},       {"stung", "sting"},
    {"swam", "swim"},         {"swept", "sweep"},
    {"swore", "swear"},       {"sworn", "swear"},
    {"swung", "swing"},       {"taken", "take"},
    {"taught", "teach"},      {"teeth", "tooth"},
    {"thinner", "thin"},      {"thinnest", "thin"},
    {"thought", "think"},     {"threw", "throw"},
    {"thrown", "throw"},      {"told", "tell"},
    {"took", "take"},         {"tore", "tear"},
    {"torn", "tear"},         {"understood", "understand"},
    {"went", "go"},           {"wept", "weep"},
    {"were", "be"},           {"wetter", "wet"},
    {"wives", "wife"},        {"woke", "wake"},
    {"woken", "wake"},        {"wolves", "wolf"},
    {"women", "woman"},       {"wore", "wear"},
    {"worn", "wear"},         {"worse", "bad"},
    {"worst", "bad"},         {"wound", "wind"},
    {"written", "write"},     {"wrote", "write"},
};

static_assert(std::is_sorted(std::begin(kForms), std::end(kForms),
                             [](const Entry& a, const Entry& b) { return a.first < b.first; }));

}  // namespace

std::string_view IrregularBase(std::string_view word) {
  const auto* end = std::end(kForms);
  const auto* it = std::lower_bound(std::begin(kForms), end, word,
                                    [](const Entry& e, std::string_view w) { return e.first < w; });
  if (it != end && it->first == word) return it->second;
  return {};
}

}  // namespace revsum::internal
