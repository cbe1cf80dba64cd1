package train

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Dataset is the training policy of one data set of ../shared/data: whether
// its licence lets it train the shipped model, and the weight its rows get
// in the loss relative to a hand-labelled row (weak, per-user or
// model-written labels get less). docs/classifiers-model.md says why each
// is what it is.
type Dataset struct {
	Name string
	// Trainable: the licence allows training a shipped model. Other sets are
	// for development and evaluation only: they are never training rows of
	// the committed model, only held-out measurement and calibration.
	Trainable bool
	// Weight scales every row of the set in the loss.
	Weight float32
	// Hate marks the hate-speech sets the F1 target is about.
	Hate bool
	// Probe marks the small probe sets (XSTest, SimpleSafetyTests) that are
	// reported whole and never trained on.
	Probe bool
	// PerUser marks a set labelled per author, not per row (Reddit
	// C-SSRS: one label per user over all their posts). Its rows train
	// and are scored as usual, but they do not bound Medium and Low as a
	// benign set (Calibration.BenignFPR, LowBenignFPR): a "supportive"
	// user's posts can tell of their own self-harm, so the set's top
	// percentile is partly mislabelled rows.
	PerUser bool
	// CalibrationOnly marks hand-written harmless rows that only bound
	// the calibration (Corpus.AddCalibration): every row is a
	// development row, none is ever trained on.
	CalibrationOnly bool
}

// Datasets is every set the corpus reads, in load order.
var Datasets = []Dataset{
	{Name: "davidson", Trainable: true, Weight: 1, Hate: true},
	{Name: "toxigen", Trainable: true, Weight: 1, Hate: true},
	{Name: "xstest", Probe: true},
	{Name: "sst", Probe: true},
	{Name: "hatexplain", Trainable: true, Weight: 1, Hate: true},
	{Name: "sbic", Trainable: true, Weight: 1, Hate: true},
	{Name: "implicit_hate", Trainable: true, Weight: 1, Hate: true},
	{Name: "toxic_spans", Trainable: true, Weight: 0.5},
	{Name: "i2p", Trainable: true, Weight: 0.3},
	{Name: "reddit_cssrs", Trainable: true, Weight: 0.3, PerUser: true},
	{Name: "dolly", Trainable: true, Weight: 0.5},
	{Name: "squad2", Trainable: true, Weight: 0.5},
	{Name: "forbidden_questions", Trainable: true, Weight: 0.5},
	{Name: "catqa", Trainable: true, Weight: 0.5},
	{Name: "aart", Trainable: true, Weight: 0.3},
	{Name: "coconot", Trainable: true, Weight: 0.7},
	{Name: "safetext", Trainable: true, Weight: 0.5},
	{Name: "salad", Trainable: true, Weight: 0.5},
	{Name: "surge_profanity", Trainable: true, Weight: 0.3},
	{Name: "dynahate", Hate: true},
	{Name: "gab_hate", Hate: true},
	{Name: "olid", Hate: true},
	{Name: "sdcnl"},
	{Name: "safecity"},
	{Name: "counsel_chat"},
	{Name: "synthetic", Trainable: true, Weight: 2},
	{Name: "calibration", CalibrationOnly: true},
}

// DatasetByName returns the policy of a data set.
func DatasetByName(name string) (Dataset, bool) {
	for _, d := range Datasets {
		if d.Name == name {
			return d, true
		}
	}
	return Dataset{}, false
}

// Trainable reports whether e may be a training row of the shipped model.
func (e *Example) Trainable() bool {
	d, ok := DatasetByName(e.Dataset)
	return ok && d.Trainable
}

// ex starts an example of dataset ds with the row key id.
func ex(ds, id, kind, text string) Example {
	return Example{Dataset: ds, ID: ds + ":" + id, Kind: kind, Text: text}
}

// pos marks e positive for the categories cs with weight w each.
func (e *Example) pos(w float32, cs ...int) {
	for _, c := range cs {
		e.Target[c], e.Weight[c] = 1, w
	}
}

// neg marks e negative for the categories cs with weight w each.
func (e *Example) neg(w float32, cs ...int) {
	for _, c := range cs {
		e.Target[c], e.Weight[c] = 0, w
	}
}

var allCats = []int{hate, sexual, violence, selfHarm}

func jsonLines(data []byte, each func(line int, raw []byte) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := each(line, sc.Bytes()); err != nil {
			return err
		}
	}
	return sc.Err()
}

// readTSV reads tab-separated data with a header row (quoted fields allowed).
func readTSV(data []byte, names ...string) ([]int, [][]string, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = '\t'
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	recs, err := r.ReadAll()
	if err != nil {
		return nil, nil, err
	}
	if len(recs) == 0 {
		return nil, nil, fmt.Errorf("empty file")
	}
	col := make([]int, len(names))
	for i, n := range names {
		col[i] = -1
		for j, h := range recs[0] {
			if h == n {
				col[i] = j
			}
		}
		if col[i] < 0 {
			return nil, nil, fmt.Errorf("missing column %q", n)
		}
	}
	var rows [][]string
	for _, r := range recs[1:] {
		if len(r) >= len(recs[0]) {
			rows = append(rows, r)
		}
	}
	return col, rows, nil
}

func atof(s string) float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return -1
	}
	return f
}

// HateXplain: majority of three annotators. hate → HATE positive;
// normal → negative for all four; offensive → HATE soft target (share of
// annotators who said hate), weak: HateXplain's "offensive" is not hate.
var reLabels = regexp.MustCompile(`'label': \[([0-9, ]+)\]`)

func loadHateXplain(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "id", "annotators", "unmasked_sentence")
	if err != nil {
		return nil, err
	}
	var out []Example
	for i, r := range rows {
		m := reLabels.FindStringSubmatch(r[col[1]])
		if m == nil {
			return nil, fmt.Errorf("row %d: no annotator labels", i+1)
		}
		var votes [3]int
		n := 0
		for _, f := range strings.Split(m[1], ",") {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || v < 0 || v > 2 {
				return nil, fmt.Errorf("row %d: bad annotator label", i+1)
			}
			votes[v]++
			n++
		}
		e := ex("hatexplain", r[col[0]], "", r[col[2]])
		switch {
		case votes[0]*2 > n:
			e.Kind = "hate"
			e.pos(1, hate)
		case votes[1]*2 > n:
			e.Kind = "normal"
			e.neg(1, allCats...)
		default:
			e.Kind = "offensive"
			e.Target[hate], e.Weight[hate] = float32(votes[0])/float32(n), 0.5
			e.Weak = true
		}
		out = append(out, e)
	}
	return out, nil
}

// SBIC (aggregated dev split): offensive (offensiveYN ≥ 0.5) posts that
// imply bias against a group (hasBiasedImplication == 0, the inverted
// column) → HATE positive; offensive posts without a group implication →
// HATE unknown (insults, profanity); not offensive → HATE negative. sexYN
// ≥ 0.5 → SEXUAL positive, else SEXUAL negative. Posts that are not
// offensive are negatives for VIOLENCE and SELF_HARM too. A group-implying
// post keeps its annotators' implied statements (targetStereotype) in
// Example.Implied, those that state something of a group (see
// impliedStatements).
func loadSBIC(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "", "post", "offensiveYN", "sexYN", "hasBiasedImplication", "targetStereotype")
	if err != nil {
		return nil, err
	}
	var out []Example
	for _, r := range rows {
		off, sx, bias := atof(r[col[2]]), atof(r[col[3]]), atof(r[col[4]])
		if off < 0 || sx < 0 || bias < 0 {
			continue
		}
		e := ex("sbic", r[col[0]], "", r[col[1]])
		switch {
		case off >= 0.5 && bias < 0.5:
			e.Kind = "offensive-group"
			e.pos(1, hate)
			e.Implied = impliedStatements(r[col[5]])
		case off >= 0.5:
			e.Kind = "offensive"
		default:
			e.Kind = "not-offensive"
			e.neg(1, hate, violence, selfHarm)
		}
		if sx >= 0.5 {
			e.pos(1, sexual)
		} else {
			e.neg(1, sexual)
		}
		out = append(out, e)
	}
	return out, nil
}

// describing begins an annotator's note on what a post does ("makes light
// of …", "trivializes …") rather than a statement of what it implies.
var describing = map[string]bool{
	"makes": true, "make": true, "trivializes": true, "trivialize": true,
	"implies": true, "imply": true, "jokes": true, "joking": true,
	"mocks": true, "mocking": true, "minimizes": true, "minimizing": true,
	"uses": true, "using": true, "says": true, "calls": true,
	"compares": true, "comparing": true, "references": true, "refers": true,
	"belittles": true, "degrades": true, "demeans": true, "insults": true,
	"laughs": true, "laughing": true, "promotes": true, "encourages": true,
	"glorifies": true, "celebrates": true,
}

// impliedStatements reads SBIC's targetStereotype (a JSON list of strings)
// and returns its statements, each once (letter case ignored), without the
// annotators' notes on what the post does (describing).
func impliedStatements(s string) []string {
	var all []string
	if json.Unmarshal([]byte(s), &all) != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range all {
		t = strings.TrimSpace(t)
		words := strings.Fields(strings.ToLower(t))
		key := strings.Join(words, " ")
		if len(words) < 2 || describing[words[0]] || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, t)
	}
	return out
}

// Latent Hatred (implicit_hate): implicit_hate and explicit_hate → HATE
// positive; the stage-2 "threatening" rows (a speaker's commitment to a
// target's pain, injury or loss) also VIOLENCE positive at half weight;
// not_hate → HATE negative, and negative for the other three at half
// weight (on-topic political posts). Stage-2 "incitement" (in the
// authors' words, flaunting in-group power or elevating hate groups) is
// hate, not violence, and says nothing of VIOLENCE: counted as VIOLENCE
// until 2026-11-26, it taught the model to read hateful posts that
// threaten nothing as violence (docs/classifiers-model.md).
func loadImplicitHate(stage1, stage2 []byte) ([]Example, error) {
	col, rows, err := readTSV(stage1, "post", "class")
	if err != nil {
		return nil, err
	}
	threat := map[string]bool{}
	if col2, rows2, err := readTSV(stage2, "post", "implicit_class"); err == nil {
		for _, r := range rows2 {
			if c := r[col2[1]]; c == "threatening" {
				threat[r[col2[0]]] = true
			}
		}
	}
	var out []Example
	for i, r := range rows {
		e := ex("implicit_hate", strconv.Itoa(i+1), r[col[1]], r[col[0]])
		switch r[col[1]] {
		case "implicit_hate", "explicit_hate":
			e.pos(1, hate)
			if threat[r[col[0]]] {
				e.Kind += "/threat"
				e.pos(0.5, violence)
			}
		case "not_hate":
			e.neg(1, hate)
			e.neg(0.5, sexual, violence, selfHarm)
		default:
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// Toxic Spans (every post rated toxic in Civil Comments): a majority
// "threat" span → VIOLENCE positive, a majority "identity_attack" span →
// HATE positive. A post where no rater marked a threat is a VIOLENCE
// negative and one where no rater marked an identity attack a HATE
// negative (insults are not hate). SEXUAL and SELF_HARM are left unknown:
// "profane_obscene" is mostly profanity, not sexual content.
func loadToxicSpans(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "comment_id", "comment_text", "n_threat", "n_identity_attack", "maj_threat", "maj_identity_attack")
	if err != nil {
		return nil, err
	}
	var out []Example
	for _, r := range rows {
		e := ex("toxic_spans", r[col[0]], "toxic", r[col[1]])
		switch {
		case r[col[4]] == "True" || r[col[4]] == "1":
			e.Kind = "threat"
			e.pos(1, violence)
		case atof(r[col[2]]) == 0:
			e.neg(1, violence)
		}
		switch {
		case r[col[5]] == "True" || r[col[5]] == "1":
			e.Kind += "+identity"
			e.pos(1, hate)
		case atof(r[col[3]]) == 0:
			e.neg(1, hate)
		}
		out = append(out, e)
	}
	return out, nil
}

// I2P (real text-to-image prompts, weak labels): a prompt found by the
// search concept sexual, violence, self-harm or hate is a weak positive
// for that category when at least half of the images made from it were
// inappropriate; the other prompts are left out. The label is how the
// prompt was found, not a reading of its text, hence the set's low weight.
func loadI2P(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "prompt", "categories", "inappropriate_percentage")
	if err != nil {
		return nil, err
	}
	var out []Example
	for i, r := range rows {
		if atof(r[col[2]]) < 50 {
			continue
		}
		e := ex("i2p", strconv.Itoa(i+1), r[col[1]], r[col[0]])
		for _, c := range strings.Split(r[col[1]], ",") {
			switch strings.TrimSpace(c) {
			case "sexual":
				e.pos(1, sexual)
			case "violence":
				e.pos(1, violence)
			case "self-harm":
				e.pos(1, selfHarm)
			case "hate":
				e.pos(1, hate)
			}
		}
		if e.Weight == [N]float32{} {
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// Reddit C-SSRS: one label per user from psychiatrists, over a list of
// that user's posts. Every post of an Ideation, Behavior or Attempt user is
// a soft SELF_HARM positive (target 0.8: not every post of such a user
// states intent); every post of a Supportive user is a SELF_HARM negative
// (support written to people at risk: the contrast a self-harm head needs);
// Indicator users (at risk, no ideation) are left out. The set's low
// weight reflects the per-user label.
func loadCSSRS(data []byte) ([]Example, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		return nil, err
	}
	var out []Example
	for _, rec := range recs[1:] {
		if len(rec) < 3 {
			continue
		}
		posts := pyStrings(rec[1])
		for j, p := range posts {
			e := ex("reddit_cssrs", rec[0]+"/"+strconv.Itoa(j), rec[2], p)
			switch rec[2] {
			case "Ideation", "Behavior", "Attempt":
				e.Target[selfHarm], e.Weight[selfHarm] = 0.8, 1
				e.Weak = true
			case "Supportive":
				e.neg(1, selfHarm)
			default:
				continue
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// pyStrings reads a Python list literal of strings ("['a', "b's"]"); an
// unparsable list gives what was read before the error.
func pyStrings(s string) []string {
	var out []string
	i := strings.IndexByte(s, '[')
	if i < 0 {
		return nil
	}
	for i++; i < len(s); i++ {
		q := s[i]
		if q != '\'' && q != '"' {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(s) && s[j] != q; j++ {
			if s[j] == '\\' && j+1 < len(s) {
				j++
				switch s[j] {
				case 'n':
					b.WriteByte('\n')
					continue
				case 't':
					b.WriteByte('\t')
					continue
				}
			}
			b.WriteByte(s[j])
		}
		if j >= len(s) {
			break
		}
		if t := strings.TrimSpace(b.String()); t != "" {
			out = append(out, t)
		}
		i = j
	}
	return out
}

// benignJSONL reads benign rows (negative for all four categories) from
// JSON lines, taking the text from the first of fields that is a string.
func benignJSONL(ds string, fields ...string) func([]byte) ([]Example, error) {
	return func(data []byte) ([]Example, error) {
		var out []Example
		err := jsonLines(data, func(line int, raw []byte) error {
			var row map[string]any
			if err := json.Unmarshal(raw, &row); err != nil {
				return fmt.Errorf("line %d: invalid JSON", line)
			}
			for _, f := range fields {
				if t, ok := row[f].(string); ok && strings.TrimSpace(t) != "" {
					e := ex(ds, strconv.Itoa(line)+"/"+f, "benign", t)
					e.neg(1, allCats...)
					out = append(out, e)
				}
			}
			return nil
		})
		return out, err
	}
}

// loadDolly: benign assistant instructions; the open_qa file's rows that
// are already in the first file are skipped.
func loadDollyOpenQA(data []byte) ([]Example, error) {
	var out []Example
	err := jsonLines(data, func(line int, raw []byte) error {
		var row struct {
			Instruction string `json:"instruction"`
			In          bool   `json:"in_dolly_first_6400"`
		}
		if err := json.Unmarshal(raw, &row); err != nil {
			return fmt.Errorf("line %d: invalid JSON", line)
		}
		if row.In || strings.TrimSpace(row.Instruction) == "" {
			return nil
		}
		e := ex("dolly", "openqa/"+strconv.Itoa(line), "benign", row.Instruction)
		e.neg(1, allCats...)
		out = append(out, e)
		return nil
	})
	return out, err
}

// Forbidden questions (model-written, one policy scenario each): Hate
// Speech → HATE; Pornography → SEXUAL; Physical Harm → SELF_HARM when the
// wording is about harming oneself, else VIOLENCE at half weight (the
// scenario mixes weapons, self-harm and risky acts); the ten scenarios
// outside the four categories (malware, fraud, legal advice, …) are
// negatives for all four at half weight: harmful requests of other kinds
// are not what these categories flag.
func loadForbidden(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "content_policy_name", "q_id", "question")
	if err != nil {
		return nil, err
	}
	var out []Example
	for i, r := range rows {
		e := ex("forbidden_questions", strconv.Itoa(i+1), r[col[0]], r[col[2]])
		mapPolicy(&e, r[col[0]], r[col[2]])
		out = append(out, e)
	}
	return out, nil
}

func mapPolicy(e *Example, policy, text string) {
	switch policy {
	case "Hate Speech":
		e.pos(1, hate)
	case "Pornography":
		e.pos(1, sexual)
	case "Physical Harm":
		if reSelfHarm.MatchString(text) {
			e.pos(1, selfHarm)
		} else {
			e.Target[violence], e.Weight[violence] = 1, 0.5
		}
	default:
		e.neg(0.5, allCats...)
	}
}

// CategoricalHarmfulQA: category → subcategory → questions.
//
//   - Hate/Harass/Violence: racial or ethnic hate and religious intolerance
//     → HATE; gender-based violence → HATE and VIOLENCE; terrorism and
//     extremism → VIOLENCE; cyberbullying → HATE at half weight.
//   - Adult Content (pornography, erotic text, nude imagery, explicit
//     dialogue) → SEXUAL; adult-themed humor → SEXUAL at half weight.
//   - Physical Harm: self-harm → SELF_HARM; assault and battery, weapon
//     making → VIOLENCE; hazardous materials and unsafe practices → none.
//   - Child Abuse: sexual exploitation and online predation → SEXUAL;
//     physical abuse → VIOLENCE; emotional abuse and neglect → none.
//   - Illegal Activity: weapons → VIOLENCE at half weight; the rest none.
//   - Malware, economic harm, fraud, political campaigning, privacy,
//     financial advice → negative for all four at half weight.
func loadCatQA(data []byte) ([]Example, error) {
	var tree map[string]map[string][]string
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, fmt.Errorf("invalid JSON")
	}
	cats := make([]string, 0, len(tree))
	for c := range tree {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	var out []Example
	for _, c := range cats {
		subs := make([]string, 0, len(tree[c]))
		for s := range tree[c] {
			subs = append(subs, s)
		}
		sort.Strings(subs)
		for _, s := range subs {
			for j, q := range tree[c][s] {
				e := ex("catqa", c+"/"+s+"/"+strconv.Itoa(j), c+"/"+s, q)
				mapCatQA(&e, c, strings.TrimSuffix(s, ":"))
				out = append(out, e)
			}
		}
	}
	return out, nil
}

func mapCatQA(e *Example, cat, sub string) {
	switch cat + "/" + sub {
	case "Hate/Harass/Violence/Racial or ethnic hate", "Hate/Harass/Violence/Religious intolerance":
		e.pos(1, hate)
	case "Hate/Harass/Violence/Gender-based violence":
		e.pos(1, hate, violence)
	case "Hate/Harass/Violence/Terrorism and extremism":
		e.pos(1, violence)
	case "Hate/Harass/Violence/Cyberbullying":
		e.pos(0.5, hate)
	case "Adult Content/Adult-themed humor":
		e.pos(0.5, sexual)
	case "Physical Harm/Self-harm":
		e.pos(1, selfHarm)
	case "Physical Harm/Assault and battery", "Physical Harm/Weapon making", "Child Abuse/Physical abuse":
		e.pos(1, violence)
	case "Child Abuse/Content Sexual exploitation", "Child Abuse/Online predation":
		e.pos(1, sexual)
	case "Illegal Activity/Weapon":
		e.pos(0.5, violence)
	case "Physical Harm/Hazardous material handling", "Physical Harm/Unsafe practices",
		"Child Abuse/Emotional and psychological abuse", "Child Abuse/Neglect":
		// Harmful, but none of the four categories: no label.
	default:
		if cat == "Adult Content" {
			e.pos(1, sexual)
			return
		}
		if cat == "Illegal Activity" {
			e.neg(0.5, hate, sexual, selfHarm)
			return
		}
		e.neg(0.5, allCats...)
	}
}

// AART (adversarial requests for help with a crime): the crime concept
// decides. Hate crimes and crimes motivated by race, religion, disability,
// orientation or gender → HATE and VIOLENCE; rape, sex trafficking,
// prostitution, pornography → SEXUAL; terrorism, assassinations,
// violence, domestic violence, kidnapping, murder, assault, bombing →
// VIOLENCE; every other crime (fraud, pollution, gambling, drugs, …) →
// negative for all four. The requests are model-written and
// region-templated, hence the low weight.
func loadAART(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "prompt", "crime")
	if err != nil {
		return nil, err
	}
	var out []Example
	for i, r := range rows {
		crime := strings.ToLower(strings.TrimSpace(r[col[1]]))
		e := ex("aart", strconv.Itoa(i+1), crime, r[col[0]])
		switch {
		case strings.Contains(crime, "hate crime") || strings.HasPrefix(crime, "crimes motivated by"):
			e.pos(1, hate, violence)
		case containsAny(crime, "rape", "sex trafficking", "prostitution", "pornograph", "sexual"):
			e.pos(1, sexual)
		case containsAny(crime, "terror", "assassination", "violence", "kidnap", "murder", "assault", "bomb", "homicide", "shooting", "arson"):
			if crime == "cyberterrorism" {
				e.neg(1, allCats...)
				break
			}
			e.pos(1, violence)
		default:
			e.neg(1, allCats...)
		}
		out = append(out, e)
	}
	return out, nil
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// CoCoNot: the contrast set's benign look-alikes of requests a chatbot
// should not simply comply with are negatives for all four categories at
// full weight (the false-positive lesson the model-written harmful sets
// need). The harmful sets are not labelled by harm category: only their
// "triggers for offensive language" rows are used, as weak HATE positives
// (target 0.7), and their non-safety kinds (incomplete, unsupported,
// indeterminate, humanizing requests) as negatives for all four.
func loadCoCoNot(name string) func([]byte) ([]Example, error) {
	contrast := strings.Contains(name, "contrast")
	return func(data []byte) ([]Example, error) {
		var out []Example
		err := jsonLines(data, func(line int, raw []byte) error {
			var row struct {
				ID       string `json:"id"`
				Category string `json:"category"`
				Sub      string `json:"subcategory"`
				Prompt   string `json:"prompt"`
			}
			if err := json.Unmarshal(raw, &row); err != nil {
				return fmt.Errorf("line %d: invalid JSON", line)
			}
			e := ex("coconot", name+"/"+strconv.Itoa(line), row.Sub, row.Prompt)
			switch {
			case contrast:
				e.neg(1, allCats...)
			case row.Sub == "triggers for offensive language":
				e.Target[hate], e.Weight[hate] = 0.7, 0.5
				e.Weak = true
			case row.Category != "Requests with safety concerns":
				e.neg(1, allCats...)
			default:
				return nil
			}
			out = append(out, e)
			return nil
		})
		return out, err
	}
}

// SafeText: the safe advice of every scenario is a negative for all four
// (everyday text about hazards); the unsafe advice is harmful physically but
// is none of the four categories' content (no violence against anyone, no
// self-harm intent), so it is a negative for HATE and SEXUAL only.
func loadSafeText(data []byte) ([]Example, error) {
	var m map[string]struct {
		Safe   []string `json:"safe"`
		Unsafe []string `json:"unsafe"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("invalid JSON")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []Example
	for i, k := range keys {
		for j, s := range m[k].Safe {
			e := ex("safetext", fmt.Sprintf("%d/safe/%d", i, j), "safe", k+" "+s)
			e.neg(1, allCats...)
			out = append(out, e)
		}
		for j, s := range m[k].Unsafe {
			e := ex("safetext", fmt.Sprintf("%d/unsafe/%d", i, j), "unsafe", k+" "+s)
			e.neg(1, hate, sexual)
			out = append(out, e)
		}
	}
	return out, nil
}

// SALAD rebuttal questions: the third-level category decides. Hate speech,
// stereotyping (religious, location, age, …) → HATE; harassment and threats
// → VIOLENCE at half weight and HATE at half weight; violent content,
// terrorism, enjoying someone else's pain → VIOLENCE; self-harm →
// SELF_HARM; pornography, erotic chat, sexual activity, sexual offenses →
// SEXUAL; child abuse → SEXUAL and VIOLENCE at half weight; the rest
// (theft, scams, malware, plagiarism, …) → negative for all four at half
// weight.
func loadSALAD(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "qid", "question", "3-category")
	if err != nil {
		return nil, err
	}
	var out []Example
	for _, r := range rows {
		c3 := r[col[2]]
		name := strings.ToLower(c3)
		if _, after, ok := strings.Cut(name, ": "); ok {
			name = after
		}
		e := ex("salad", r[col[0]], c3, r[col[1]])
		switch {
		case strings.Contains(name, "hate speech") || strings.Contains(name, "stereotyping"):
			e.pos(1, hate)
		case strings.Contains(name, "harass"):
			e.pos(0.5, hate, violence)
		case containsAny(name, "violent", "terrorism", "pain"):
			e.pos(1, violence)
		case strings.Contains(name, "self-harm"):
			e.pos(1, selfHarm)
		case containsAny(name, "pornograph", "erotic", "sexual"):
			e.pos(1, sexual)
		case strings.Contains(name, "child abuse"):
			e.pos(0.5, sexual, violence)
		default:
			e.neg(0.5, allCats...)
		}
		out = append(out, e)
	}
	return out, nil
}

// Surge profanity list: single terms as rows. Racial and ethnic slurs and
// sexual orientation / gender slurs → HATE; sexual anatomy and acts →
// SEXUAL; others (excrement, general insults) → no label. A lone term says
// little about the text around it, hence the low weight; the rule lexicon
// holds the terms with their severities.
func loadSurge(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "text", "category_1", "severity_rating")
	if err != nil {
		return nil, err
	}
	var out []Example
	for i, r := range rows {
		e := ex("surge_profanity", strconv.Itoa(i+1), r[col[1]], r[col[0]])
		switch r[col[1]] {
		case "racial / ethnic slurs", "sexual orientation / gender":
			e.pos(1, hate)
		case "sexual anatomy / sexual acts":
			e.pos(1, sexual)
		default:
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// ---- development and evaluation only (never training rows) ----

// DynaHate (dev split): hate → HATE positive; nothate → HATE negative.
func loadDynaHate(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "acl.id", "text", "label", "type")
	if err != nil {
		return nil, err
	}
	var out []Example
	for _, r := range rows {
		e := ex("dynahate", r[col[0]], r[col[2]]+"/"+r[col[3]], r[col[1]])
		switch r[col[2]] {
		case "hate":
			e.pos(1, hate)
			if r[col[3]] == "threatening" {
				e.pos(1, violence)
			}
		case "nothate":
			e.neg(1, hate)
		default:
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// Gab Hate Corpus: hd (assault on human dignity) → HATE positive, cv
// (call for violence) → VIOLENCE positive; posts with neither are
// negatives for both. vo (vulgar) is not one of the four.
func loadGab(name string) func([]byte) ([]Example, error) {
	return func(data []byte) ([]Example, error) {
		col, rows, err := readTSV(data, "text", "hd", "cv")
		if err != nil {
			return nil, err
		}
		var out []Example
		for i, r := range rows {
			e := ex("gab_hate", name+"/"+strconv.Itoa(i+1), "hd"+r[col[1]]+"cv"+r[col[2]], r[col[0]])
			if r[col[1]] == "1" {
				e.pos(1, hate)
			} else {
				e.neg(1, hate)
			}
			if r[col[2]] == "1" {
				e.pos(1, violence)
			} else {
				e.neg(1, violence)
			}
			out = append(out, e)
		}
		return out, nil
	}
}

// OLID: group-targeted offensive tweets (subtask_c GRP) → HATE positive;
// not offensive (NOT) → HATE negative; other offensive tweets (insults of
// a person, untargeted profanity) → HATE unknown. Training file only (the
// test file's labels are level A alone).
func loadOLID(data []byte) ([]Example, error) {
	col, rows, err := readTSV(data, "id", "tweet", "subtask_a", "subtask_c")
	if err != nil {
		return nil, err
	}
	var out []Example
	for _, r := range rows {
		e := ex("olid", r[col[0]], r[col[2]]+"/"+r[col[3]], r[col[1]])
		switch {
		case r[col[3]] == "GRP":
			e.pos(1, hate)
		case r[col[2]] == "NOT":
			e.neg(1, hate)
		default:
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// SDCNL: the forum decides (r/SuicideWatch → SELF_HARM positive,
// r/depression → SELF_HARM negative), which is noisy; the title and body
// are joined.
func loadSDCNL(name string) func([]byte) ([]Example, error) {
	return func(data []byte) ([]Example, error) {
		col, rows, err := readTable(data, "title", "selftext", "is_suicide")
		if err != nil {
			return nil, err
		}
		var out []Example
		for i, r := range rows {
			e := ex("sdcnl", name+"/"+strconv.Itoa(i+1), "is_suicide="+r[col[2]], strings.TrimSpace(r[col[0]]+". "+r[col[1]]))
			switch r[col[2]] {
			case "1":
				e.pos(1, selfHarm)
			case "0":
				e.neg(1, selfHarm)
			default:
				continue
			}
			out = append(out, e)
		}
		return out, nil
	}
}

// SafeCity: first-person reports of harassment in public places. They are
// accounts, not explicit content, so a report is not SEXUAL content: every
// row is a SEXUAL negative (the over-firing probe), and rows marked
// Touching/Groping are left unknown for VIOLENCE while the others are
// VIOLENCE negatives.
func loadSafeCity(name string) func([]byte) ([]Example, error) {
	return func(data []byte) ([]Example, error) {
		col, rows, err := readTable(data, "Description", "Touching /Groping")
		if err != nil {
			return nil, err
		}
		var out []Example
		for i, r := range rows {
			e := ex("safecity", name+"/"+strconv.Itoa(i+1), "report", r[col[0]])
			e.neg(1, sexual, hate, selfHarm)
			if r[col[1]] != "1" {
				e.neg(1, violence)
			}
			out = append(out, e)
		}
		return out, nil
	}
}

// Counsel Chat: people's questions to therapists and the therapists'
// answers: help-seeking and support, negatives for all four (the
// self-harm head must not fire on them).
func loadCounselChat(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "questionID", "questionText", "answerText", "topic")
	if err != nil {
		return nil, err
	}
	var out []Example
	seenQ := map[string]bool{}
	for i, r := range rows {
		if !seenQ[r[col[0]]] {
			seenQ[r[col[0]]] = true
			e := ex("counsel_chat", "q/"+r[col[0]], "question/"+r[col[3]], r[col[1]])
			e.neg(1, allCats...)
			out = append(out, e)
		}
		e := ex("counsel_chat", "a/"+strconv.Itoa(i+1), "answer/"+r[col[3]], r[col[2]])
		e.neg(1, allCats...)
		out = append(out, e)
	}
	return out, nil
}
