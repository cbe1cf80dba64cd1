package classifiers

// Category is a harm category. The zero value is Hate; use the constants.
type Category uint8

// The four harm categories of SPEC §4, in wire order.
const (
	Hate Category = iota
	Sexual
	Violence
	SelfHarm
	// NumCategories is the number of categories; valid categories are < NumCategories.
	NumCategories
)

var categoryNames = [NumCategories]string{"HATE", "SEXUAL", "VIOLENCE", "SELF_HARM"}

// String returns the wire name of c ("HATE", "SEXUAL", "VIOLENCE", "SELF_HARM").
func (c Category) String() string {
	if c < NumCategories {
		return categoryNames[c]
	}
	return "UNKNOWN"
}

// ParseCategory maps a wire name (any letter case; "self-harm" and "selfharm"
// accepted) to a Category.
func ParseCategory(s string) (Category, bool) {
	switch normalizeName(s) {
	case "HATE":
		return Hate, true
	case "SEXUAL":
		return Sexual, true
	case "VIOLENCE":
		return Violence, true
	case "SELF_HARM", "SELFHARM":
		return SelfHarm, true
	}
	return 0, false
}

func normalizeName(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		case c == '-' || c == ' ':
			c = '_'
		}
		b = append(b, c)
	}
	return string(b)
}

// HoldPrefix begins the Rule of a hold finding: a LOW finding that says the
// text is about the harm without doing it (counter-speech that quotes a
// hateful claim to reject it, a negated claim). A classifier that combines
// several sources of evidence must not raise the category of a hold
// finding above LOW on other evidence; a finding of the same category from
// another rule still counts.
const HoldPrefix = "hold:"

// MaxSeverity is the highest severity a classifier reports (SPEC §4: 3 to 5 is HIGH).
const MaxSeverity = 5

// Finding is one detection: a category, a severity in [1, MaxSeverity] and the
// byte range [Start, End) of the classified text that caused it. Rule names the
// rule or feature that fired, for debug explanations; it never holds analyzed text.
type Finding struct {
	Category Category
	Severity uint8
	Start    int
	End      int
	Rule     string
}

// Classifier finds harm in text.
//
// Classify appends its findings for text to dst and returns the extended
// slice, the way strconv.AppendInt does, so a caller that reuses dst pays no
// allocation per call. Offsets are UTF-8 byte offsets into text. Implementations
// must be safe for concurrent use by many goroutines and must not retain text
// or dst after returning.
type Classifier interface {
	Classify(dst []Finding, text []byte) []Finding
}

// Closer is an optional ability of a Classifier that holds resources.
type Closer interface {
	Close() error
}

// Readier is an optional ability of a Classifier that loads lazily; Ready
// reports whether it can serve.
type Readier interface {
	Ready() bool
}
