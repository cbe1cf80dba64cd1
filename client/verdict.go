package client

import (
	"fmt"
	"strconv"
)

// Category is a harm category.
type Category int

// The four harm categories, in the service's order.
const (
	Hate Category = iota + 1
	Sexual
	Violence
	SelfHarm
)

// String returns the category's Azure OpenAI key: "hate", "sexual",
// "violence" or "self_harm".
func (c Category) String() string {
	switch c {
	case Hate:
		return "hate"
	case Sexual:
		return "sexual"
	case Violence:
		return "violence"
	case SelfHarm:
		return "self_harm"
	}
	return "Category(" + strconv.Itoa(int(c)) + ")"
}

// SeverityLabel returns Azure OpenAI's label of a severity (SPEC §4): 0 is
// "safe", 1 "low", 2 "medium", 3 to 5 "high".
func SeverityLabel(severity int) string {
	switch {
	case severity <= 0:
		return "safe"
	case severity == 1:
		return "low"
	case severity == 2:
		return "medium"
	}
	return "high"
}

// CategoryResult is the outcome of one category.
type CategoryResult struct {
	// Severity is the worst severity found, 0 (nothing) to 5.
	Severity int
	// Blocking says a result of this category was blocking: its risk level
	// reached the category's threshold, which the service's policy sets
	// (default MEDIUM, severity 2).
	Blocking bool
}

// Categories holds one CategoryResult per harm category.
type Categories struct {
	Hate, Sexual, Violence, SelfHarm CategoryResult
}

// Get returns the result of c (the zero CategoryResult for an unknown c).
func (cs Categories) Get(c Category) CategoryResult {
	if p := cs.ptr(c); p != nil {
		return *p
	}
	return CategoryResult{}
}

func (cs *Categories) ptr(c Category) *CategoryResult {
	switch c {
	case Hate:
		return &cs.Hate
	case Sexual:
		return &cs.Sexual
	case Violence:
		return &cs.Violence
	case SelfHarm:
		return &cs.SelfHarm
	}
	return nil
}

// merge keeps the worst of cs and o per category.
func (cs *Categories) merge(o *Categories) {
	for c := Hate; c <= SelfHarm; c++ {
		p, q := cs.ptr(c), o.ptr(c)
		p.Severity = max(p.Severity, q.Severity)
		p.Blocking = p.Blocking || q.Blocking
	}
}

// worstBlocking returns the blocking category with the highest severity
// (the first in service order on a tie).
func (cs *Categories) worstBlocking() (Category, int, bool) {
	var best Category
	sev := -1
	for c := Hate; c <= SelfHarm; c++ {
		if r := cs.Get(c); r.Blocking && r.Severity > sev {
			best, sev = c, r.Severity
		}
	}
	return best, sev, sev >= 0
}

// Item identifies a text item: SPEC §2's (sourceType, messageId,
// contentIndex). For chat and completions output, MessageID is the choice
// index as a decimal string.
type Item struct {
	Source       Source
	MessageID    string
	ContentIndex int
}

func (it Item) String() string {
	return fmt.Sprintf("%s %q/%d", it.Source, it.MessageID, it.ContentIndex)
}

// Finding is one AnalysisResult: a segment of an item where harm was
// detected, or content the service cannot read (NoModel).
type Finding struct {
	// Start and End are UTF-8 byte offsets into the item's text.
	Start, End int
	Categories Categories
	// NoModel: the content has no analyzable text (an image, audio without
	// a transcript). It is never blocking: the backend decides.
	NoModel bool
}

// ItemResult is everything the service said about one item.
type ItemResult struct {
	Item Item
	// Categories is the worst per category over the item's findings.
	Categories Categories
	// Blocked says a finding of the item was blocking.
	Blocked bool
	// Watermark is the item's last watermark: text [0, Watermark) was
	// analyzed and holds nothing blocking.
	Watermark int
	// NoModel says part of the item could not be analyzed.
	NoModel bool
	// Findings in the order the service sent them.
	Findings []Finding
}

// Block says why content was blocked: the item's first blocking segment and
// its worst blocking category.
type Block struct {
	Item Item
	// Start and End are the segment's UTF-8 byte offsets in the item's text.
	Start, End int
	Category   Category
	Severity   int
}

func (b Block) String() string {
	return fmt.Sprintf("%s severity %d in %v bytes [%d, %d)", b.Category, b.Severity, b.Item, b.Start, b.End)
}

// BlockedError is the error a Gate returns once a blocking result has
// stopped it.
type BlockedError struct{ Block Block }

func (e *BlockedError) Error() string { return "client: content blocked: " + e.Block.String() }

// Verdict is the service's answer on a set of payloads.
type Verdict struct {
	// Blocked says the content must not pass: a finding was blocking, or
	// (Unavailable under FailClosed) the service gave no answer.
	Blocked bool
	// Categories is the worst per category over every item.
	Categories Categories
	// Block is the first blocking segment the service reported; nil when
	// nothing was blocking (also when Blocked comes from the fail mode).
	Block *Block
	// Items in the order the service first mentioned them.
	Items []ItemResult
	// Unavailable says the service gave no complete answer in time; Cause
	// says why (it wraps ErrUnavailable) and Blocked is the fail mode's
	// decision. Results that did arrive are still in Items and Categories.
	Unavailable bool
	Cause       error

	// failClosed: Unavailable under FailClosed, so every part of the
	// verdict (see Choice) stays blocked.
	failClosed bool
}

// unavailable marks v as unanswered, with the fail mode's decision.
func (v *Verdict) unavailable(cause error, mode FailMode) {
	v.Unavailable = true
	v.Cause = cause
	v.failClosed = mode == FailClosed
	v.Blocked = v.Blocked || v.failClosed
}

// NoModel says some content could not be analyzed (images, audio without a
// transcript). The service does not block it; the backend decides.
func (v *Verdict) NoModel() bool {
	for i := range v.Items {
		if v.Items[i].NoModel {
			return true
		}
	}
	return false
}

// Choice returns the verdict on the model output of choice index (chat and
// completions: the COMPLETION items whose messageId is the index). Blocked,
// Categories and Block are recomputed over those items; Unavailable and
// Cause are kept, and under FailClosed an unavailable verdict stays blocked.
func (v *Verdict) Choice(index int) *Verdict {
	id := strconv.Itoa(index)
	return v.filter(func(it Item) bool { return it.Source == Completion && it.MessageID == id })
}

// Prompt returns the verdict on the PROMPT items only, like Choice.
func (v *Verdict) Prompt() *Verdict {
	return v.filter(func(it Item) bool { return it.Source == Prompt })
}

func (v *Verdict) filter(keep func(Item) bool) *Verdict {
	out := &Verdict{Unavailable: v.Unavailable, Cause: v.Cause, failClosed: v.failClosed}
	for i := range v.Items {
		if keep(v.Items[i].Item) {
			out.Items = append(out.Items, v.Items[i])
		}
	}
	out.summarize()
	out.Blocked = out.Blocked || out.failClosed // the fail mode's decision
	return out
}

// summarize computes Blocked, Categories and (when unset) Block from Items.
func (v *Verdict) summarize() {
	v.Categories = Categories{}
	for i := range v.Items {
		it := &v.Items[i]
		v.Categories.merge(&it.Categories)
		v.Blocked = v.Blocked || it.Blocked
		if v.Block == nil && it.Blocked {
			v.Block = firstBlock(it)
		}
	}
}

func firstBlock(it *ItemResult) *Block {
	for _, f := range it.Findings {
		if c, sev, ok := f.Categories.worstBlocking(); ok {
			return &Block{Item: it.Item, Start: f.Start, End: f.End, Category: c, Severity: sev}
		}
	}
	return nil
}

// FinishReason returns "content_filter" (FinishReasonContentFilter) when the
// verdict is blocked, and upstream otherwise: the finish_reason of a choice
// whose verdict this is.
func (v *Verdict) FinishReason(upstream string) string {
	if v.Blocked {
		return FinishReasonContentFilter
	}
	return upstream
}
