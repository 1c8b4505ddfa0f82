// Points: what the reviewers of one product say, for and against, and how many (DESIGN.md,
// "Points"). The values of the attention.
//
// Input: one product scope as the scorer saw it — sentence texts, the review each sentence comes
// from, the reviews' ratings (when the dump has them), the L2-normalised embeddings S and the
// attention Weights (score.h). Output: a list of points, each a representative sentence and its
// evidence (the member sentences that say the same thing).
//
//   1. Clustering (leader clustering by cosine, then average-linkage merges and centroid
//      re-assignment; O(n K d + K^2 d) per round):
//      sign: each sentence's side under its opinion score (PointsInput::opinions: the learned
//         model with the word lists as a prior, opinion.h), or without scores its sign under the
//         word lists (PolarityLexicon::Score, below); "lexicon" below means this sign. A sentence
//         never joins a point whose leader has the opposite sign: "battery is great" and
//         "battery is awful" are near in any distributional space but are two opinions.
//      a. leaders: sentences in decreasing final attention weight (all of them, or the first
//         max_scan when it is set); one
//         that is not a fragment (PointsOptions::is_fragment) and whose cosine to every
//         sign-compatible leader so far is below `threshold` becomes a new leader, up to
//         max_leaders;
//      b. members: every sentence joins its most similar compatible leader when that cosine is
//         at least `threshold` (a sentence belongs to one point at most; a leader to its own);
//      c. refine_rounds times: two points merge while their average linkage (mean cosine over
//         pairs of members) is at least merge_threshold and their leaders' signs do not oppose;
//         then every sentence joins its most similar compatible centroid (normalised mean of the
//         members) at cosine centroid_threshold or more. Leader clustering alone splits a
//         paraphrase group whose leader is far from some wordings (planted "battery" 33-36 % for
//         40 % before); then the sentences that joined a leader in b but no centroid now (a small
//         group merged into a big one whose centroid is far from it) lead and join points of
//         their own among themselves, as in a and b (rescue_orphans: the planted Chinese 5 %
//         "service" complaint had merged into the 40 % "battery" one and kept 1 of 10 reviews);
//      d. polar split: a point whose leader is unsigned (so members of both signs could join)
//         and that holds both praise and complaints, each from at least min_support reviews and
//         the smaller side at least polar_split_share of its signed members, splits into a
//         praise point, a complaint point and what is left (the members that say neither, with
//         the old leader): 酒店's "service" point was a 25 % neutral mix of "服务很不错" and
//         "服务态度很差";
//      e. representative: the member nearest the point's centroid that is not a fragment and,
//         when there are at least 5 such members, no longer (in bytes) than their median (the
//         most typical wording of a typical length; the highest-weight member was often a
//         generic or off-topic one: "It boils water.", a filler sentence as the face of the
//         planted Chinese "service"; and the nearest alone was often a long sentence listing
//         many things, which took a summary's budget by itself); for a praise or complaint point
//         (4), the same among the members whose own sign says it, when there is one. The point's
//         text is the representative without the number of a list item it opens
//         ("2.屏幕颜色过渡柔和", "3、配置"). In a small scope (PointsOptions::small_scope_*),
//         members whose cosine to the representative is below small_scope_member_min_similarity
//         then leave the point.
//      Cosine is taken in the "cluster space":
//        - a scope whose text is mostly CJK (CjkFraction >= learned_min_cjk): sentence vectors
//          learned from the scope's own sentences (LearnedSentenceVectors: PPMI + truncated SVD
//          over CJK characters and bigrams, SIF sums; polarity words down-weighted, since the
//          sign is checked apart), with the learned_* thresholds, and each sentence's aspects
//          (the aspect terms it names, PolarityLexicon::Aspects) appended with weight
//          learned_aspect_weight. USE-lite maps Chinese to its unknown piece, character bigrams
//          do not see paraphrases, and the product's own co-occurrences cannot join wordings
//          that share no characters;
//        - a scope of few reviews (small_scope_reviews): S centred (PointsOptions::centre) with
//          the small_scope_* thresholds;
//        - otherwise S itself, or only its last `cluster_columns` columns renormalised (for the
//          combined embedder: the USE-lite half, which matches paraphrases — "battery dies fast"
//          ~ "doesn't hold a charge" — where the lexical half only matches shared words).
//          REQUIRES: every row has that half (a row whose cluster-space part is zero joins no
//          point; see RunOptions::summarize in run.h about dense_candidates).
//        A scope of at most 160 sentences in a space at least 8 times wider clusters on
//        coordinates with the same dot products in n dimensions (from the Gram matrix), which
//        gives the same points for less arithmetic (a 20-review product, 4,096 lexical dimensions).
//   2. support = distinct reviews among the members; share = support / the product's review count;
//      weight = the members' summed final attention weight.
//   3. aspect: over the members, the mean weight of each anchored head "aspect:X" divided by that
//      head's mean over the scope (its lift). The head with the highest lift is the aspect when
//      its lift is at least aspect_min_lift and at least aspect_margin times the second's;
//      otherwise none ("").
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
//      where about half the points are then neutral/unknown; README "Points") and
//      tests/points/points_test.cc PolarityLexicon.EnglishHandLabelledSet (the English lists on
//      140 hand-labelled sentences: 87.9 %).
//   5. Points are ordered by support, then weight. Points with support below min_support are
//      dropped, except that a scope with any sentence keeps at least one point (the best one).
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

enum class Polarity { kPraise, kComplaint, kNeutral, kUnknown };
// "praise", "complaint", "neutral", "unknown".
std::string_view PolarityName(Polarity p);

// How ratings map to [-1, 1]. Detected from the range of the ratings of a store (or a product):
//   all ratings in {0, 1}           -> labels:   v = 2 r - 1 (0 = negative, 1 = positive)
//   within [1, 5]                   -> stars:    v = (r - 3) / 2
//   within [0, 10]                  -> tenths:   v = (r - 5.5) / 4.5, clamped
//   anything else (e.g. 0-100)      -> [min, max] mapped linearly onto [-1, 1]
struct RatingScale {
  double min = 1, max = 5;
  enum class Kind { kLabels, kStars, kTen, kLinear } kind = Kind::kStars;
  double Normalise(double rating) const;  // clamped to [-1, 1]
  std::string Describe() const;           // "labels 0/1", "stars 1-5", "1-10", "linear a-b"
};
// The scale of ratings observed in [lo, hi]; `labels_only` when every rating was 0 or 1.
RatingScale DetectRatingScale(double lo, double hi, bool labels_only);

// Polarity word lists (models/polarity/<lang>.txt), and aspect terms (zh-aspects.txt). Format:
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
  // The default lists: <models>/polarity/en.txt, zh.txt and zh-aspects.txt.
  static std::vector<std::string> DefaultPaths();
  // sum of +1 / -1 over the terms found (after negation).
  int Score(std::string_view sentence) const;
  bool empty() const { return positive_.empty() && negative_.empty(); }
  // Aspect terms (sections "[aspect:<name>]", models/polarity/zh-aspects.txt): what a sentence
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
  // Cosine (in the cluster space) at or above which two sentences say the same thing.
  // 0.4: cosine distance 0.6, as DESIGN measured for USE-lite; tests/pipeline/points_quality_test
  // prints the planted-share error for other values.
  float threshold = 0.4f;
  // 0 = cluster on all columns of S; k > 0 = only the last k columns, renormalised.
  int cluster_columns = 0;
  // The cluster space loses `centre` times the mean of its rows (then rows are renormalised):
  // the reviews of one product all talk about that product, and a sentence embedder puts them
  // close ("The fabric is thinner than it looks" and "Perfect fit!!!" at cosine 0.7 on a t-shirt),
  // so cosine is taken relative to what the product's sentences share (the common-component
  // removal of Arora et al. 2017, as a mean). 0 = off. Off because the thresholds below were
  // chosen uncentred: at 1 (or 0.5) samples/ B0TSH30910's top point fell from 9 to 2 (5) of 10
  // reviews, but the planted English "battery" (40 %) fell to 17-34 % and "screen" (20 %) to 9-11
  // %.
  float centre = 0.0f;
  // Small scopes (at most small_scope_reviews reviews, clustered in S, not the learned space):
  // centred by small_scope_centre (at least `centre`), with small_scope_threshold as the leader,
  // centroid and merge threshold, and every member of a point at cosine
  // small_scope_member_min_similarity or more to its representative (the others leave the point).
  // Uncentred, the ~10 reviews of one product are all near each other: samples/ B0KTL55200 had
  // "It boils water." as the face of an 80 % complaint point holding the lid, the cord, the taste
  // and "I drink tea all day"; tests/data/points/kettle_small.jsonl put lid, cord and filler in
  // one 70 % point. Chosen on that fixture (PointsQuality.SmallProductPointsSayOneThing): centre
  // 1 with 0.4 splits "boils fast" into pairs, 0.7 with 0.3 keeps it but lets filler and "the
  // handle stays cool" into points, which the member check at 0.4 removes (0.5 splits "boils fast"
  // to 2 of 6 reviews). The planted dumps (200 reviews a product) are not small: the member check
  // at 0.4 on them cost 1 of 72 English opinions (bench/points_planted.sh), the centring more
  // (`centre` above). 50: between the largest samples/ product (10 reviews) and the planted ones
  // (200); the range in between is not measured.
  size_t small_scope_reviews = 50;
  float small_scope_centre = 0.7f;
  float small_scope_threshold = 0.3f;
  float small_scope_member_min_similarity = 0.4f;
  // A scope whose text is at least this CJK (CjkFraction) clusters in the learned space
  // (LearnedSentenceVectors) with learned_threshold instead of S; > 1 = never.
  double learned_min_cjk = 0.5;
  float learned_threshold = 0.5f;
  LearnedSpaceOptions learned;
  // Weight g of the aspect block appended to the learned space (PolarityLexicon::Aspects; the
  // sentence's aspects as a unit vector times g, then the row renormalised; a sentence with no
  // learned vector stays zero): two sentences naming the same one aspect have cosine
  // (x + g^2) / (1 + g^2) for learned cosine x, so they come together even when they share no
  // other unit (电池容量太小 and 续航能力很弱: the product's own co-occurrences cannot join
  // wordings they never saw together); a sentence naming an aspect and one naming none keep
  // x / sqrt(1 + g^2). 0 = off.
  float learned_aspect_weight = 0.5f;
  // Refinement rounds: each point's members are re-chosen by cosine to the normalised mean of
  // its members (its centroid) at or above centroid_threshold (in the learned space:
  // learned_centroid_threshold); a centroid is closer to every paraphrase than one leader is.
  // Before each round, two points whose average linkage (mean cosine over pairs of their members)
  // is merge_threshold or more (in the learned space: learned_merge_threshold) and whose leaders'
  // signs do not oppose merge.
  int refine_rounds = 2;
  // Chosen by bench/points_planted.sh (seeds 7, 3, 11; rated and unrated): English 0.4 / 0.4 /
  // 0.4 puts every planted opinion within 1 point (merge at 0.45 by centroid cosine instead of
  // average linkage collapsed whole products into one point; 0.3 merged filler into "screen");
  // Chinese 0.5 / 0.3 / 0.15 (0.2 left "battery" split in two, 28-34 % for 40 %). Over seeds
  // 7, 3, 11 x rated/unrated x own/held-out wordings (72 planted opinions): 49 within 5 points
  // with the right polarity; learned merge 0.12 gives 47, 0.2 gives 39; 48 dimensions 49;
  // polar_weight 0 gives 48.
  float centroid_threshold = 0.4f;
  float learned_centroid_threshold = 0.3f;
  float merge_threshold = 0.4f;
  float learned_merge_threshold = 0.15f;
  // Step 1c, at its end: sentences that joined a leader in 1b but no centroid after the refinement rounds
  // form points of their own (leaders and members as in 1a/1b, among them only).
  bool rescue_orphans = true;
  size_t max_leaders = 64;
  // 0 = every sentence may become a leader. A bound is no saving (each round of 1b/1c already
  // compares every sentence with every leader) and it lost opinions on big products: with 2000,
  // a 5,000-review planted product (bench/points_planted.sh with REVIEWS=5000 PRODUCTS=1) whose
  // wordings all ranked below the 2000th sentence by weight reported battery 22.7 % neutral for
  // 40 % and no point for screen (20 %) and service (5 %) in Chinese, battery 78.6 % and no
  // service in English; every sentence: all six exact.
  size_t max_scan = 0;
  size_t min_support = 2;
  // Step 1d: a point led by an unsigned sentence whose members both praise and complain (each
  // side from at least min_support reviews, the smaller at least this share of the signed
  // members) splits into praise, complaints and the rest. 0 turns it off.
  double polar_split_share = 0.2;
  size_t max_points = 12;
  // A sentence that cannot stand alone is never a leader or a representative. Null: none is.
  std::function<bool(std::string_view)> is_fragment;
  // Aspect rule (see header comment, 3).
  float aspect_min_lift = 1.2f;
  float aspect_margin = 1.1f;
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
inline constexpr int kPointsVersion = 9;

// The points of one product scope (see header comment). Throws std::invalid_argument on
// mismatched sizes. Deterministic. Thread-safe (const inputs).
std::vector<Point> ComputePoints(const PointsInput& input, const PolarityLexicon& lexicon,
                                 const PointsOptions& options);

}  // namespace revsum
