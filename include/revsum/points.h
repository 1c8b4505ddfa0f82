// Points: what the reviewers of one product say, for and against, and how many (docs/design.md,
// "Points"). The values of the attention.
//
// Input: one product scope as the scorer saw it — sentence texts, the review each sentence comes
// from, the reviews' ratings (when the dump has them), the L2-normalised embeddings S, the
// attention Weights (score.h) and each sentence's learned opinion and salience (opinion.h).
// Output: a list of points, each a claim its members make: a representative sentence (the face)
// and the member sentences that say the same thing on the same side. A sentence that makes no
// claim shared by enough reviews joins no point; there is no catch-all point.
//
//   1. Clustering (PointFinder in points.cc, one named step each):
//      a. sides: each sentence's side under its opinion score (PointsInput::opinions: the learned
//         model with the word lists as a prior) at the band, or without scores its sign under
//         the word lists (PolarityLexicon::Score); "lexicon" below means this sign. An unsigned
//         sentence that carries at least rated_side_salience of its review's verdict takes its
//         review's rating side (PointsOptions::rated_side): in ArgKP an argument's rating is its
//         stance. Praise and complaint about one thing are near in any distributional space
//         ("battery is great" ~ "battery is awful") and never share a point;
//      b. average linkage within each side (complaint, unsigned, praise), cut at `threshold`
//         (AverageLinkage: nearest-neighbour chains, O(m^2)); a side of more than
//         max_cluster_sentences clusters an even sample of them;
//      c. a praise or complaint group made mostly of rating-sided unsigned sentences that links
//         at the cut to an unsigned group joins it (a statement made in reviews of every rating
//         is no argument of one side); then an unsigned group linked at the cut to groups of one
//         side only joins its most linked group there (the same claim in words the opinion
//         model could not sign);
//      d. support: groups said by fewer than max(min_support, min_share x reviews) reviews are
//         dropped; the sampled-out sentences of a side join its most linked kept group when the
//         linkage (their mean cosine to its members) reaches the cut;
//      e. representative (the face): the member nearest the point's centroid (with a bonus for
//         its attention weight, PointsOptions::face_weight) that can be a face
//         — no fragment (PointsOptions::is_fragment), no question (a last mark '?' or '？', or a
//         final 吗), no hashtag — and,
//         when there are at least 5 such members, no longer (in bytes) than their median (the
//         most typical wording of a typical length); for a praise or complaint point (4), the
//         same among the members whose own sign says it, when there is one. The point's text is
//         the representative without the number of a list item it opens ("2.屏幕颜色过渡柔和",
//         "3、配置"). In a small scope (PointsOptions::small_scope_*), members whose cosine to
//         the representative is below small_scope_member_min_similarity then leave the point.
//         A group none of whose members can be a face states no claim and makes no point.
//      Measured: bench/argkp.sh (human key-point groupings) and bench/points_planted.sh
//      (planted opinions); docs/points.md.
//      Cosine is taken in the "cluster space":
//        - a scope whose text is mostly CJK (CjkFraction >= learned_min_cjk): sentence vectors
//          learned from the scope's own sentences (LearnedSentenceVectors: PPMI + truncated SVD
//          over CJK characters and bigrams, SIF sums; polarity words down-weighted, since the
//          sign is checked apart), cut at learned_threshold, and each sentence's aspects
//          (the aspect terms it names, PolarityLexicon::Aspects) appended with weight
//          learned_aspect_weight. USE-lite maps Chinese to its unknown piece, character bigrams
//          do not see paraphrases, and the product's own co-occurrences cannot join wordings
//          that share no characters;
//        - a scope of few reviews (small_scope_reviews): S centred by small_scope_centre, cut at
//          small_scope_threshold;
//        - otherwise S centred by `centre`, or only its last `cluster_columns` columns (for the
//          combined embedder: the USE-lite half, which matches paraphrases — "battery dies fast"
//          ~ "doesn't hold a charge" — where the lexical half only matches shared words).
//          REQUIRES: every row has that half (a row whose cluster-space part is zero joins no
//          point; see RunOptions::summarize in run.h about dense_candidates).
//        A scope of at most 160 sentences in a space at least 8 times wider clusters on
//        coordinates with the same dot products in n dimensions (from the Gram matrix), which
//        gives the same points for less arithmetic (a 20-review product, 4,096 lexical dimensions).
//   2. support = distinct reviews among the members; share = support / the product's review count;
//      weight = the members' summed final attention weight.
//   3. aspect: what the members name (PolarityLexicon::Aspects: the aspect terms of
//      models/polarity/en-aspects.txt and zh-aspects.txt, whole words in English, substrings in
//      Chinese): the aspect named by the most members, when at least aspect_min_members of them
//      name it and at least aspect_min_lift times the scope's share of sentences that do;
//      otherwise none (""). A point whose members name no aspect has none: "I recommend the
//      product highly" is about no aspect (the attention's anchored "aspect:X" heads, which
//      match sentences by likeness to seed sentences, put such a point under "ease").
//   4. polarity (praise / complaint / neutral / unknown), from two signals over the members,
//      each averaged with the members' attention weights as the mixing coefficients:
//        lexicon  l = sum w_i lex_i / sum w_i, lex_i in {-1, 0, +1} the sentence's sign under the
//                 polarity word lists (PolarityLexicon: positive and negative words, English words
//                 and Chinese substrings, a negator shortly before a word flips it; the sign of
//                 the sum of the found terms' signs);
//                 coverage = share of the members' weight whose lex_i != 0.
//        rating   r = sum w_i v_i / sum w_i over members whose review has a rating, v_i its
//                 normalised rating in [-1, 1] (RatingScale); rated = share of weight with one.
//      Rule, in order:
//        - lexicon clear (coverage >= lexicon_min_coverage and |l| >= lexicon_min_agreement *
//          coverage, i.e. the signed members mostly agree):
//          sign(l). The sentence-level signal decides first, so a complaint inside a 4-star
//          review is still a complaint; except that when coverage is below
//          lexicon_minority_coverage and the point's members are mostly rated (rated >= 0.5), a
//          lift (below) on the side of l of at least rating_min_lift is also needed, else
//          neutral;
//        - else ratings present (rated >= 0.5): |r| >= rating_min_mean and a lift on the same
//          side of at least rating_min_lift give sign(r), else neutral; lift = the mean
//          normalised rating of the point's rated reviews minus that of the scope's rated reviews
//          outside the point, each review once (a point whose reviews rate like the rest says
//          nothing by its ratings; with no rated review on one side, neutral);
//        - else unknown (no ratings and a text that does not say): never a silent guess.
//      This approximates the design's o_i = sum_j A_ij v_j with the members' own weights (the
//      rows of the consensus matrix are not kept after scoring).
//      Measured: bench/polarity.sh (the Chinese shopping dump: praise/complaint points agreeing
//      with the majority 0/1 label of their evidence reviews, per category; on the rows the
//      Chinese list was not mined from, ROWS=odd: 97.9 % rated, 96.9 % with the labels hidden,
//      where about half the points are then neutral/unknown; docs/points.md) and
//      tests/points/points_test.cc PolarityLexicon.EnglishHandLabelledSet (the English lists on
//      140 hand-labelled sentences: 87.9 %).
//   5. Points are ordered by support, then weight; every point with enough support is kept (no
//      cap: the export chooses by budget). A scope with sentences but no supported group keeps
//      one point, its heaviest sentence that is not a fragment, so a one-review product still
//      says something.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <Eigen/Dense>

#include "revsum/embed.h"
#include "revsum/score.h"

namespace revsum {

// A polarity word list (PolarityLexicon) is malformed; what() is "ORIGIN:LINE: problem".
class PointsError : public Error {
 public:
  using Error::Error;
};

enum class Polarity { kPraise, kComplaint, kNeutral, kUnknown };
// "praise", "complaint", "neutral", "unknown".
std::string_view PolarityName(Polarity p);

// How ratings map to [-1, 1]. Detected from the range of the ratings of a store (or a product):
//   all ratings in {0, 1}           -> labels:   v = 2 r - 1 (0 = negative, 1 = positive)
//   within [1, 5]                   -> stars:    v = (r - 3) / 2
//   within [0, 10]                  -> tenths:   v = (r - 5.5) / 4.5, clamped
//   anything else (e.g. 0-100)      -> [min, max] mapped linearly onto [-1, 1]
// With RatingCounts (a dump's, recorded at ingest), a few ratings outside a scale do not stretch
// it: stars or tenths hold the dump when all but 1 % of its ratings (at least one) lie in them,
// and the outliers are clamped onto the scale by Normalise. One record rated 100 in a 1-5 dump
// no longer makes every other rating read as a complaint.
struct RatingScale {
  double min = 1, max = 5;
  enum class Kind { kLabels, kStars, kTen, kLinear } kind = Kind::kStars;
  double Normalise(double rating) const;  // clamped to [-1, 1]
  std::string Describe() const;           // "labels 0/1", "stars 1-5", "1-10", "linear a-b"
};
// How many of a dump's ratings lie in each standard scale; count 0 when not known.
struct RatingCounts {
  uint64_t count = 0;   // ratings read
  uint64_t stars = 0;   // in [1, 5]
  uint64_t tenths = 0;  // in [0, 10]
};
// The scale of ratings observed in [lo, hi]; `labels_only` when every rating was 0 or 1.
RatingScale DetectRatingScale(double lo, double hi, bool labels_only,
                              const RatingCounts& counts = {});

// Polarity word lists (models/polarity/<lang>.txt), and aspect terms (<lang>-aspects.txt). Format:
// UTF-8; '#' starts a comment line; sections "[positive]", "[negative]", "[negator]",
// "[neutral]" and "[aspect:<name>]" (Aspects, below); one term per line. Terms made of
// ASCII are matched as lowercase word sequences ("stopped working"); other terms (Chinese) as
// substrings. Longest match first; a matched term's text is consumed. A negator within 3 words
// (ASCII) or ending at most 2 characters (CJK) before a term flips its sign. A neutral term
// scores nothing: it is there so that a shorter term does not match inside it (好 in 好多
// "many", 好像 "seems").
class PolarityLexicon {
 public:
  // Adds the terms of one list; `origin` names it in errors. Throws std::runtime_error
  // ("<origin>:<line>: <problem>") on a term outside a section or an unknown section.
  void Add(std::string_view text, std::string_view origin);
  // Loads every file of `paths` (throws naming a file that cannot be read).
  static PolarityLexicon Load(const std::vector<std::string>& paths);
  // The default lists: <models>/polarity/en.txt, zh.txt, zh-aspects.txt and en-aspects.txt.
  static std::vector<std::string> DefaultPaths();
  // sum of +1 / -1 over the terms found (after negation).
  int Score(std::string_view sentence) const;
  bool empty() const { return positive_.empty() && negative_.empty(); }
  // Aspect terms (sections "[aspect:<name>]", models/polarity/*-aspects.txt): what a sentence
  // is about, not how it judges it. The aspects whose terms occur in `sentence` (indexes into
  // aspect_names(), ascending, each once); matched like the polarity terms, apart from them:
  // longest term first at each position and its text consumed, so 卫生间 ("bathroom": room) is
  // not 卫生 ("hygiene": cleanliness).
  std::vector<int> Aspects(std::string_view sentence) const;
  const std::vector<std::string>& aspect_names() const { return aspect_names_; }

 private:
  struct Term {
    std::string text;  // lowercase
    bool ascii = false;
    int sign = 0;  // +1, -1, or 0 for a negator, a neutral or an aspect term
    bool negator = false;
    std::vector<std::string> words;  // ASCII terms: the words
    int aspect = -1;                 // aspect terms: index into aspect_names_
  };
  // The terms of one kind (polarity terms, aspect terms), longest first, indexed so that a
  // position is tried only against the terms that can match there, in that order (the first hit
  // is the same as a scan of all terms): ASCII terms by their first word; other terms by their
  // first two bytes, and the one-byte ones (last in that order) by their byte.
  struct TermIndex {
    std::vector<Term> ascii, cjk;
    std::unordered_map<std::string, std::vector<uint32_t>> ascii_by_first_word;
    std::unordered_map<uint16_t, std::vector<uint32_t>> cjk_by_first_bytes;
    std::unordered_map<unsigned char, std::vector<uint32_t>> cjk_one_byte;
    void Add(const Term& t);
    void Build();  // after Add: sorts and indexes
    // Longest term first at each position, its text consumed: on_ascii(term, first word) for
    // each match among `words` (lowercase ASCII words), then, when `s` is not all ASCII,
    // on_cjk(term, byte offset) for each substring match in `s`.
    template <typename OnAscii, typename OnCjk>
    void Scan(std::string_view s, const std::vector<std::string>& words, OnAscii&& on_ascii,
              OnCjk&& on_cjk) const;
  };

  std::vector<Term> positive_, negative_, negators_, neutral_;
  TermIndex polar_, aspects_;
  std::vector<std::string> aspect_names_;
};

// Sentence vectors learned from the scope's own sentences, for scopes where the sentence
// embedder cannot see paraphrases (Chinese: USE-lite maps it to its unknown piece, and character
// bigrams do not see that 电池用半天就没电了 and 待机时间很短 say the same thing). Trained per
// scope, so a product's points do not depend on the other products of the store and an
// incremental run stays consistent:
//   units: CJK character bigrams (a lone CJK character stands as itself) and lowercased ASCII
//     words; the vocabulary is the max_vocabulary most frequent units seen at least twice;
//   PPMI over units co-occurring within `window` units, context distribution smoothed by
//     `smoothing` (Levy, Goldberg & Dagan 2015); truncated SVD by random projection (fixed seed),
//     word vectors U_k sqrt(S_k), rows normalised;
//   sentence = sum of its units' vectors weighted a / (a + p(unit)), minus its projection on the
//     first principal component of the scope (SIF, Arora et al. 2017), L2-normalised.
// At most max_training_sentences sentences (every k-th) are counted, so a scope of millions of
// sentences costs a bounded training; every sentence is embedded.
struct LearnedSpaceOptions {
  size_t max_vocabulary = 4000;
  size_t max_training_sentences = 20000;
  int dimensions = 32;
  int window = 4;
  double smoothing = 0.75;
  double sif_a = 1e-2;
  // Factor on the weight of a unit that is itself a polarity word (`polar`, below): what makes
  // two sentences "the same thing" is what they are about; their sign is checked apart
  // (PointsOptions), and 很差 said of the battery and of the service is no paraphrase.
  double polar_weight = 0.1;
  bool remove_first_component = true;
};
// n x dimensions rows, L2-normalised (a sentence with no vocabulary unit is a zero row).
// Deterministic.
// `polar` (may be null) says whether a unit carries polarity.
Matrix LearnedSentenceVectors(const std::vector<std::string>& texts,
                              const LearnedSpaceOptions& options,
                              const std::function<bool(std::string_view)>& polar = nullptr);

struct PointsOptions {
  // The average-linkage cut: a group of sentences is one claim while the mean cosine (in the
  // cluster space) over its pairs of sentences is at least this. 0.2 with `centre` 0.5, chosen
  // over centre 0 / 0.25 / 0.5 and cuts 0.2-0.7 on ArgKP-2021 train (bench/argkp.sh: human
  // key-point groupings of arguments) and the planted English products (bench/points_planted.sh,
  // seeds 7 3 11): ArgKP train rated B-cubed F1 0.563 (0.25: 0.557, 0.3: 0.565), share error
  // 18.0 points (0.25: 16.9, 0.3: 14.0); planted English, own and held-out wordings, rated and
  // unrated, 66 of 72 opinions within 5 points (0.25: 63; 0.3 rated: 29 of 36, the 40 % battery
  // complaint split in two; the figures for 0.25 and 0.3 before AverageLinkage made its matrix
  // symmetric). Unrated ArgKP prefers 0.25 (dev B-cubed 0.387 against 0.358).
  float threshold = 0.2f;
  // 0 = cluster on all columns of S; k > 0 = only the last k columns, renormalised.
  int cluster_columns = 0;
  // The cluster space loses `centre` times the mean of its rows (then rows are renormalised):
  // the reviews of one product all talk about that product, and a sentence embedder puts them
  // close ("The fabric is thinner than it looks" and "Perfect fit!!!" at cosine 0.7 on a t-shirt),
  // so cosine is taken relative to what the product's sentences share (the common-component
  // removal of Arora et al. 2017, as a mean). 0 = off.
  float centre = 0.5f;
  // Small scopes (at most small_scope_reviews reviews, clustered in S, not the learned space):
  // centred by small_scope_centre (at least `centre`), cut at small_scope_threshold, and every
  // member of a point at cosine small_scope_member_min_similarity or more to its face (the
  // others leave the point). Uncentred, the ~10 reviews of one product are all near each other
  // (tests/data/points/kettle_small.jsonl put lid, cord and filler in one 70 % point).
  size_t small_scope_reviews = 50;
  float small_scope_centre = 0.7f;
  float small_scope_threshold = 0.3f;
  float small_scope_member_min_similarity = 0.4f;
  // A scope whose text is at least this CJK (CjkFraction) clusters in the learned space
  // (LearnedSentenceVectors) cut at learned_threshold instead of S; > 1 = never.
  double learned_min_cjk = 0.5;
  // 0.12: planted Chinese (own, held-out, blind wordings; rated and unrated) 90 of 108 opinions
  // within 5 points (bench/points_planted.sh, seeds 7 3 11); before step 5 (points.h) was added,
  // 77 at 0.12, 74 at 0.2, 70 at 0.3.
  float learned_threshold = 0.12f;
  LearnedSpaceOptions learned;
  // Weight g of the aspect block appended to the learned space (PolarityLexicon::Aspects; the
  // sentence's aspects as a unit vector times g, then the row renormalised; a sentence with no
  // learned vector stays zero): two sentences naming the same one aspect have cosine
  // (x + g^2) / (1 + g^2) for learned cosine x, so they come together even when they share no
  // other unit (电池容量太小 and 续航能力很弱: the product's own co-occurrences cannot join
  // wordings they never saw together); a sentence naming an aspect and one naming none keep
  // x / sqrt(1 + g^2). 0 = off.
  float learned_aspect_weight = 0.5f;
  // An unsigned sentence (its opinion within the band) that carries at least rated_side_salience
  // of its review's verdict (PointsInput::salience), in a review whose normalised rating is at
  // least rated_side from 0, clusters with the sentences of the rating's side: the rating is the
  // evidence of what such a statement argues (ArgKP, one or two sentences an argument: its
  // stance). Filler in a long review carries little of its verdict and stays unsigned.
  double rated_side = 0.5;
  float rated_side_salience = 0.5f;
  // A side's sentences are clustered in one go up to this many (an m x m similarity matrix, 16
  // MB at 2,000); a bigger side clusters an even sample of them and the rest join the groups by
  // the same average-linkage criterion.
  size_t max_cluster_sentences = 2000;
  // A point is a group said by at least min_support reviews and min_share of the scope's
  // reviews; smaller groups say no shared claim and join no point.
  size_t min_support = 2;
  double min_share = 0.02;
  // The face is the member with the highest cosine to the point's centroid plus face_weight x
  // n x its final attention weight (1 for a sentence of average weight); 0 = the nearest to the
  // centroid. 1 chosen on the four ROUGE dev sets (`revsum eval --structured`, --threads 1, R1
  // OpoSum / Copycat / Opinosis / SPACE): 0 gives 39.25 / 30.09 / 27.88 / 38.95; 0.33: 39.62 /
  // 30.05 / 31.44 / 38.93; 1: 40.06 / 29.96 / 31.54 / 39.18; 1.5: 40.06 / 29.96 / 31.54 / 39.05;
  // 4: 39.97 / 29.96 / 31.43 / 38.59. Faces the scorer weighs carry the product's common words.
  // Not in the learned space (CJK scopes), where the lexical attention favours short, generic
  // sentences: read on the Chinese shopping dump, 书籍's content praise became "美丽的人。" and
  // 手机's battery complaint "经常死机。" (0 there: "电池待机时间太短,两天就完;").
  float face_weight = 1.0f;
  // A sentence that cannot stand alone is never a representative. Null: none is.
  std::function<bool(std::string_view)> is_fragment;
  // Aspect rule (see header comment, 3): the aspect named by at least aspect_min_members of a
  // point's members, and by at least aspect_min_lift times the share of the scope's sentences
  // that name it.
  double aspect_min_members = 0.5;
  double aspect_min_lift = 1.2;
  // Polarity rule (see header comment, 4).
  // The members of a paraphrase point say their verdict in different words, and a word list
  // knows only some of them: a share of the weight with a signed word of 0.15 decides when the
  // signed members agree (|l| >= 0.6 coverage, i.e. at least 80 % of the signed weight has one
  // sign). Before (coverage 0.3, |l| 0.2): the held-out English "battery" point (40 %, 2 of its 8
  // wordings in the list) was "neutral" rated and "unknown" unrated.
  float lexicon_min_coverage = 0.15f;
  float lexicon_min_agreement = 0.6f;
  // ...but a verdict found in less than this share of the point's weight (most members silent)
  // holds in a rated scope only when the point's ratings lean its way by rating_min_lift (below;
  // neutral otherwise): the planted products' filler, five narrative templates of which one says
  // "recommended the brand" (推荐这个牌子), was a 45-76 % praise point in every rated product
  // (bench/gen_planted.py; 24 of 24), and 计算机's wish "内存和显存都要是DDR3就更好了" a praise.
  // A complaint said by most of a point's members inside 4-star reviews stays a complaint.
  float lexicon_minority_coverage = 0.5f;
  float rating_min_mean = 0.25f;
  // ...and the mean normalised rating of the point's reviews at least this far from that of the
  // scope's rated reviews outside the point (each review once), in the same direction (neutral
  // when either side has none): a
  // sentence found in reviews that rate like all the others says nothing the ratings can tell
  // (书籍's 22 % "这一套书,到了之后,我一本本翻看" was praise by its ratings alone).
  float rating_min_lift = 0.25f;
};

struct PointMember {
  size_t index = 0;  // row of the scope
  float similarity = 0;
};

struct Point {
  size_t representative = 0;         // row of the scope
  std::string text;                  // the representative's text without a list item's number
  std::vector<PointMember> members;  // includes the representative; by decreasing similarity
  size_t support = 0;                // distinct reviews among members
  double share = 0;                  // support / review count
  double weight = 0;                 // summed final attention of the members
  std::string aspect;                // "price", ... or ""
  Polarity polarity = Polarity::kUnknown;
  double lexicon = 0;  // l (see header comment)
  double lexicon_coverage = 0;
  std::optional<double> rating;  // r, when the members' reviews are rated
};

struct PointsInput {
  const std::vector<std::string>* texts = nullptr;  // n sentences
  std::vector<size_t> review_of;                    // n: index of the sentence's review
  std::vector<std::optional<double>> ratings;       // per review (may be empty: none rated)
  size_t review_count = 0;
  RatingScale scale;
  const Matrix* embeddings = nullptr;  // n x d, rows L2-normalised
  const Weights* weights = nullptr;    // the scope's attention (final and per head)
  // Each sentence's opinion score (opinion.h: the learned polarity with the word lists as a
  // prior, CombineWithWordLists), n of them, or empty. When given, a sentence's sign in step 1 and
  // rule 4 is its side (+1 at score >= opinion_band, -1 at <= -opinion_band, else 0) instead of
  // the word lists' alone.
  std::vector<float> opinions;
  float opinion_band = 0.8f;
  // Each sentence's share of its review's verdict (opinion.h, SentenceOpinion::salience: sums to
  // 1 over a review), n of them, or empty: then a review's only sentence has 1, the others 0.
  std::vector<float> salience;
};

// The version of what ComputePoints stores for the same inputs and options; part of every run's
// key (RunKey), so an incremental run never keeps points an older algorithm made. Raise it with
// any change that moves a stored point. 2: every sentence may lead (max_scan 0), faces change
// only when a member is nearer the centroid by more than 1e-4. 3: row-space coordinates from a
// pivoted Cholesky factorisation (a member's stored similarity may differ in the 4th decimal).
// 4: the polar split (step 1d); faces of a typical length, without a list item's number.
// 5: ratings decide a silent point only where they differ from the scope's (rating_min_lift).
// 6: ... from those of the scope's reviews outside the point, each review once; orphans of the
// merges form points of their own (rescue_orphans). 7: the learned space's aspect block
// (learned_aspect_weight). 8: a minority's verdict needs the ratings' agreement when rated
// (lexicon_minority_coverage). 9: sides from the learned opinion model (PointsInput::opinions).
// 10: points by average linkage within each side, cut calibrated on ArgKP; no cap on their number.
// 11: no question or hashtag as a face; a group without a possible face makes no point; faces
// weigh attention (face_weight); aspects from the aspect terms the members name.
inline constexpr int kPointsVersion = 11;

// The points of one product scope (see header comment). Throws std::invalid_argument on
// mismatched sizes. Deterministic. Thread-safe (const inputs).
std::vector<Point> ComputePoints(const PointsInput& input, const PolarityLexicon& lexicon,
                                 const PointsOptions& options);

}  // namespace revsum
