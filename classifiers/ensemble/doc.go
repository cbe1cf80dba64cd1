// Package ensemble combines the rule classifier (classifiers/lexicon:
// span-level findings with severities) and the learned model
// (classifiers/linear: one probability per category for the whole window)
// into the findings the server reports.
//
// The model's probability p for a category is read against the thresholds
// calibrated with it (linear.Thresholds) as a level:
//
//	absent     p < Veto            (the model is confident it is absent)
//	unsure     Veto ≤ p < Low
//	weak       Low ≤ p < Medium
//	confident  Medium ≤ p < High
//	sure       p ≥ High (and the steps High4, High5 of the HIGH band)
//
// When the text spells words evasively (Evasive: "k i l l", "k.i.l.l",
// "k1ll"; read from the report of what classifiers/internal/normalize
// folded, normalize.Spelled and normalize.Leet) the model's log-odds are
// raised by 1 before its level is read (spelling a word out dilutes the
// model's features). Each rule finding's severity s then becomes:
//
//	s = 1 (LOW, including hits the rules lowered for context):
//	    dropped when the model is absent (veto); raised to 2 when the
//	    model is sure, and in HATE also when it is weak or confident
//	    (WithLowRuleHolds); otherwise 1. So in SEXUAL, VIOLENCE and
//	    SELF_HARM, hits a context lowered (a game, fiction) stay low unless
//	    the model is very confident; in HATE an ambiguous, reclaimed or
//	    quoted slur does not keep the model below its own verdict.
//	s ≥ 2: raised by one level (at most 5) when the model is confident or
//	    sure; otherwise unchanged (WithLowerMedium: a MEDIUM hit is
//	    lowered to LOW when the model is absent); then raised to what the
//	    model alone would report, when that is higher.
//	a hold (Rule starts with classifiers.HoldPrefix: the rules read the
//	    text as counter-speech or a negated claim about a group, "saying
//	    X are Y is racist", "X are not Y"): at most LOW whatever the model
//	    says, and the model alone reports nothing more for its category
//	    in the hold's sentence. The rest of the text (the next sentence,
//	    or the context before the segment) is scored by the model without
//	    that sentence, and reported from there when it is harmful, so a
//	    held sentence does not shield a hateful one beside it. Other rule
//	    findings of the category keep the rules above.
//
// A category the rules did not find gets one finding over the whole text
// from the model alone at its calibrated points: LOW when it is weak (not
// blocking by default; WithModelAloneLow(false) turns it off), MEDIUM
// (blocking by default) when it is confident, HIGH when it is sure: 3 at
// High, 4 at High4, 5 at High5, each step reached by four times fewer
// development negatives than the one below, so that a client ranking by
// severity sees the model's confidence (WithModelAloneMax(3): HIGH is
// always 3; WithModelAloneMax(1): the model alone gives at most LOW, and
// only the rules block clean text; WithModelAlone(false): nothing). So the rules
// decide what they do best (explicit threats, slurs, self-harm intent,
// minors) and the model carries the rest at operating points calibrated per
// category on development data (docs/classifiers-model.md).
//
// When the rules and the model both take normalized text (NormalizedRules,
// NormalizedModel: the lexicon and the linear model do), Classify
// normalizes once and hands the same bytes to both; the findings are those
// of the separate path. Before that, a rule classifier that can (Respeller:
// the lexicon) reads back words spelled to evade: hidden behind asterisks
// ("k*ll"), broken by inner punctuation ("ki.ll") or misspelled ("klil"),
// so the model reads the word too. A misspelled word is one the
// dictionary does not know; when the rules' dictionary is the model's
// word-vector table (MarkedRespeller, VocabularyModel: the default), the
// ensemble looks for misspelled words only after the model reports a word
// it does not hold, and then scores the respelled text again, which saves
// that pass for most texts and changes no result.
//
// The model's phrase term is its dearest part, and on ordinary text it
// mostly lowers the scores. A model that scores in two stages
// (StagedModel, linear.Staged: the linear model) is therefore run as a
// cascade (WithCascade, on by default): its first stage (hashed n-grams,
// pooled word vectors) before the rules, the phrase term after them, and
// only when the text is still open: a rule finding in a category the term
// moves, evasive spelling, or a first-stage score (the term read as
// absent) within cascadeMargin (1.5 in log-odds) of the category's Low
// threshold or above it. Otherwise the model alone reports nothing in
// those categories either way. On about seven in ten windows of everyday
// chat the term is left out; over every row of ../shared/data, 8 of
// 164,298 rows classified whole lose a model finding (7 LOW, 1 MEDIUM),
// and nothing else changes (TestCascadeOnlyDropsModelFindings).
//
// Dependencies: classifiers, classifiers/lexicon, classifiers/linear,
// classifiers/vectors and classifiers/internal/normalize ← ensemble ←
// analyzer.
package ensemble
