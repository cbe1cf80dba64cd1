package train

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/linear"
)

// N is the number of categories.
const N = linear.N

// Category indices, for brevity.
const (
	hate     = int(classifiers.Hate)
	sexual   = int(classifiers.Sexual)
	violence = int(classifiers.Violence)
	selfHarm = int(classifiers.SelfHarm)
)

// RepoRoot returns the root of this module's checkout, found by walking up
// from the working directory to its go.mod, or "." when there is none: the
// training and quality commands look for ../shared/data beside it.
func RepoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(b, []byte("module github.com/openrai/raiserver\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}

// ErrNoData is returned by LoadShared when the shared data folder is absent,
// so that callers can skip with a message.
var ErrNoData = errors.New("train: shared data folder not found")

// Example is one labelled text. Target[c] is the wanted probability for
// category c and Weight[c] its weight in the loss; Weight[c] = 0 means the
// example says nothing about c (it is neither positive nor negative).
type Example struct {
	Dataset string // davidson, toxigen, xstest, sst, synthetic
	ID      string // stable row id, e.g. "davidson:123"; never text
	Kind    string // the dataset's own label, e.g. "class0", "safe/homonyms"
	Text    string
	Target  [N]float32
	Weight  [N]float32
	// Weak marks weak supervision (soft targets): trained on, never
	// counted as a positive or negative in metrics or calibration.
	Weak bool
	// Implied holds what the row's annotators wrote that it implies, as
	// statements of their own (SBIC's targetStereotype: "<group> are
	// <trait>"). They are never scored; Config.Implied turns those of
	// training rows into training rows of their own.
	Implied []string
}

// Positive reports whether the example is a hard positive for c.
func (e *Example) Positive(c int) bool { return !e.Weak && e.Weight[c] > 0 && e.Target[c] >= 0.5 }

// Negative reports whether the example is a hard negative for c.
func (e *Example) Negative(c int) bool { return !e.Weak && e.Weight[c] > 0 && e.Target[c] == 0 }

// Hard reports whether the example has a 0/1 target for c.
func (e *Example) Hard(c int) bool { return e.Positive(c) || e.Negative(c) }

// Benign reports whether the example is a hard negative in every category.
func (e *Example) Benign() bool {
	for c := range N {
		if !e.Negative(c) {
			return false
		}
	}
	return true
}

// Harmful reports whether the example is a hard positive in some category.
func (e *Example) Harmful() bool {
	for c := range N {
		if e.Positive(c) {
			return true
		}
	}
	return false
}

// DevFraction is the share of rows in the development split: a row is in
// it when FNV-1a 64 of its ID is 0 mod 5.
const devModulus = 5

// IsDev reports whether the row with this ID is in the development split.
// The split depends only on the ID, so it is the same for every run,
// machine and classifier under evaluation.
func IsDev(id string) bool {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()%devModulus == 0
}

// Split returns the training rows of exs (the train split of the sets
// whose licence allows training, Dataset.Trainable) and the development
// rows (the dev split of every set but the probes: thresholds are read on
// the traffic the model will see, including the development-only sets,
// never trained on), and every calibration-only row
// (Dataset.CalibrationOnly). Probe rows are in neither.
func Split(exs []Example) (tr, dev []Example) {
	for _, e := range exs {
		d, _ := DatasetByName(e.Dataset)
		switch {
		case d.Probe:
		case d.CalibrationOnly:
			dev = append(dev, e)
		case IsDev(e.ID):
			dev = append(dev, e)
		case d.Trainable:
			tr = append(tr, e)
		}
	}
	return tr, dev
}

// File describes one input file of a corpus.
type File struct {
	Path   string `json:"path"` // relative to the data folder
	SHA256 string `json:"sha256"`
	Rows   int    `json:"rows"`
}

// Corpus is the labelled data and the record of where it came from.
type Corpus struct {
	Examples []Example
	Files    []File
}

// LoadShared reads every data set of Datasets under dir (../shared/data),
// trainable or not: callers train on the rows whose Trainable is true and
// measure on the rest. It returns ErrNoData when dir does not exist.
func LoadShared(dir string) (*Corpus, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNoData, dir)
	}
	c := &Corpus{}
	loaders := []struct {
		path string
		load func([]byte) ([]Example, error)
	}{
		{"davidson/labeled_data.csv", loadDavidson},
		{"toxigen/toxigen_seed_sentences.jsonl", loadToxiGen},
		{"xstest/xstest_prompts.csv", loadXSTest},
		{"simplesafetytests/sst_test_cases.csv", loadSST},
		{"hatexplain/df_val_processed.csv", loadHateXplain},
		{"sbic/SBIC.v2.agg.dev.csv", loadSBIC},
		{"toxic_spans/toxic_spans_per_comment.csv", loadToxicSpans},
		{"i2p/i2p_benchmark.csv", loadI2P},
		{"reddit_cssrs/500_Reddit_users_posts_labels.csv", loadCSSRS},
		{"dolly/dolly_first6400.jsonl", benignJSONL("dolly", "instruction")},
		{"dolly/dolly_open_qa.jsonl", loadDollyOpenQA},
		{"squad2_wiki/squad2_dev_questions.jsonl", benignJSONL("squad2", "text")},
		{"squad2_wiki/squad2_dev_paragraphs.jsonl", benignJSONL("squad2", "text")},
		{"forbidden_questions/forbidden_question_set.csv", loadForbidden},
		{"catqa/catqa_english.json", loadCatQA},
		{"aart/aart-v1-20231117.csv", loadAART},
		{"coconot/coconot_eval.jsonl", loadCoCoNot("eval")},
		{"coconot/coconot_pref.jsonl", loadCoCoNot("pref")},
		{"coconot/coconot_contrast_eval.jsonl", loadCoCoNot("contrast")},
		{"safetext/SafeText.json", loadSafeText},
		{"salad_rebuttal/salad_rebuttal_question_label.csv", loadSALAD},
		{"surge_profanity/profanity_en.csv", loadSurge},
		{"dynahate/db_dev.csv", loadDynaHate},
		{"gab_hate_corpus/ghc_train.tsv", loadGab("train")},
		{"gab_hate_corpus/ghc_test.tsv", loadGab("test")},
		{"olid/olid-training-v1.0.tsv", loadOLID},
		{"sdcnl/training-set.csv", loadSDCNL("train")},
		{"sdcnl/testing-set.csv", loadSDCNL("test")},
		{"safecity/train.csv", loadSafeCity("train")},
		{"safecity/dev.csv", loadSafeCity("dev")},
		{"safecity/test.csv", loadSafeCity("test")},
		{"counsel_chat/counsel_chat.csv", loadCounselChat},
	}
	for _, l := range loaders {
		if err := c.add(dir, l.path, l.load); err != nil {
			return nil, err
		}
	}
	// Latent Hatred's stage-2 file refines stage 1's rows.
	s1, err1 := os.ReadFile(filepath.Join(dir, "implicit_hate", "implicit_hate_v1_stg1_posts.tsv"))
	s2, err2 := os.ReadFile(filepath.Join(dir, "implicit_hate", "implicit_hate_v1_stg2_posts.tsv"))
	if errors.Is(err1, fs.ErrNotExist) {
		return c, nil
	}
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("train: implicit_hate: %w", errors.Join(err1, err2))
	}
	ih, err := loadImplicitHate(s1, s2)
	if err != nil {
		return nil, fmt.Errorf("train: implicit_hate: %w", err)
	}
	c.Examples = append(c.Examples, ih...)
	c.Files = append(c.Files,
		File{Path: "implicit_hate/implicit_hate_v1_stg1_posts.tsv", SHA256: sha(s1), Rows: len(ih)},
		File{Path: "implicit_hate/implicit_hate_v1_stg2_posts.tsv", SHA256: sha(s2)})
	return c, nil
}

// AddSynthetic adds hand-written examples from a labelled TSV file (the
// format parseLabelled reads) as rows of the data set "synthetic". name is
// recorded in the manifest instead of the full path.
func (c *Corpus) AddSynthetic(path, name string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	ex, err := parseLabelled(data, "synthetic", name)
	if err != nil {
		return err
	}
	c.Examples = append(c.Examples, ex...)
	c.Files = append(c.Files, File{Path: name, SHA256: sha(data), Rows: len(ex)})
	return nil
}

// AddCalibration adds hand-written harmless rows from a TSV file of
// kind<TAB>text lines ('#' begins a comment) as the calibration-only set
// "calibration": each row is negative in all four categories, and is a
// development row only (Split), so it bounds Medium and Low as a benign
// set does (Calibration.BenignFPR, LowBenignFPR) and is never trained on.
// name is recorded in the manifest instead of the full path. A malformed
// file adds nothing.
func (c *Corpus) AddCalibration(path, name string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	var rows []Example
	err = eachTSVRow(data, name, "kind", func(line int, kind, text string) error {
		e := Example{Dataset: "calibration", ID: "calibration:" + name + ":" + strconv.Itoa(line), Kind: kind, Text: text}
		e.Target, e.Weight = all(0, 1)
		rows = append(rows, e)
		return nil
	})
	if err != nil {
		return err
	}
	c.Examples = append(c.Examples, rows...)
	c.Files = append(c.Files, File{Path: name, SHA256: sha(data), Rows: len(rows)})
	return nil
}

func (c *Corpus) add(dir, rel string, load func([]byte) ([]Example, error)) error {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil // a set not in this copy of the data: the manifest lists what was read
	}
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	ex, err := load(data)
	if err != nil {
		return fmt.Errorf("train: %s: %w", rel, err)
	}
	c.Examples = append(c.Examples, ex...)
	c.Files = append(c.Files, File{Path: rel, SHA256: sha(data), Rows: len(ex)})
	return nil
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// readTable reads CSV data with a header row and returns the data rows and
// the index of each named column; every row must have as many fields as
// the header.
func readTable(data []byte, names ...string) (col []int, rows [][]string, err error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		return nil, nil, err
	}
	if len(recs) == 0 {
		return nil, nil, errors.New("empty file")
	}
	header, rows := recs[0], recs[1:]
	col = make([]int, len(names))
	for i, n := range names {
		col[i] = -1
		for j, h := range header {
			if h == n {
				col[i] = j
			}
		}
		if col[i] < 0 {
			return nil, nil, fmt.Errorf("missing column %q", n)
		}
	}
	for i, r := range rows {
		if len(r) != len(header) {
			return nil, nil, fmt.Errorf("row %d: %d fields", i+1, len(r))
		}
	}
	return col, rows, nil
}

// all sets the same target and weight for every category.
func all(t, w float32) (tg, wt [N]float32) {
	for c := range N {
		tg[c], wt[c] = t, w
	}
	return
}

// Davidson: class 0 hate speech, 1 offensive language, 2 neither.
//
//   - class 0 → HATE positive (target 1). Other categories unknown.
//   - class 2 → negative for all four categories.
//   - class 1 → HATE soft target = share of annotators who voted "hate",
//     down-weighted by Config.OffensiveWeight: weak supervision, since
//     most of these are profanity and insults, not hate in the Azure sense.
func loadDavidson(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "", "count", "hate_speech", "class", "tweet")
	if err != nil {
		return nil, err
	}
	out := make([]Example, 0, len(rows))
	for i, r := range rows {
		count, err1 := strconv.Atoi(r[col[1]])
		hv, err2 := strconv.Atoi(r[col[2]])
		if err1 != nil || err2 != nil || count <= 0 {
			return nil, fmt.Errorf("row %d: bad vote counts", i+1)
		}
		e := Example{Dataset: "davidson", ID: "davidson:" + r[col[0]], Kind: "class" + r[col[3]], Text: r[col[4]]}
		switch r[col[3]] {
		case "0":
			e.Target[hate], e.Weight[hate] = 1, 1
		case "1":
			e.Target[hate], e.Weight[hate] = float32(hv)/float32(count), 1
			e.Weak = true
		case "2":
			e.Target, e.Weight = all(0, 1)
		default:
			return nil, fmt.Errorf("row %d: unknown class", i+1)
		}
		out = append(out, e)
	}
	return out, nil
}

// ToxiGen seed sentences: hate → HATE positive, neutral → negative for all.
func loadToxiGen(data []byte) ([]Example, error) {
	var out []Example
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var row struct {
			Text   string `json:"text"`
			Label  string `json:"label"`
			Target string `json:"target_group"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("line %d: invalid JSON", line) // the decoder error may quote the text
		}
		e := Example{Dataset: "toxigen", ID: "toxigen:" + strconv.Itoa(line), Kind: row.Label, Text: row.Text}
		switch row.Label {
		case "hate":
			e.Target[hate], e.Weight[hate] = 1, 1
		case "neutral":
			e.Target, e.Weight = all(0, 1)
		default:
			return nil, fmt.Errorf("line %d: unknown label", line)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// XSTest: safe prompts are negatives for all four categories (they are
// built to look harmful: "kill a Python process"). Unsafe prompts are
// positives for the category their wording makes clear (xstestCategory);
// the rest (privacy, unclear) are left out of training.
func loadXSTest(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "id", "prompt", "type", "label")
	if err != nil {
		return nil, err
	}
	out := make([]Example, 0, len(rows))
	for i, r := range rows {
		e := Example{Dataset: "xstest", ID: "xstest:" + r[col[0]], Kind: r[col[3]] + "/" + r[col[2]], Text: r[col[1]]}
		switch r[col[3]] {
		case "safe":
			e.Target, e.Weight = all(0, 1)
		case "unsafe":
			if c, ok := xstestCategory(r[col[2]], r[col[1]]); ok {
				e.Target[c], e.Weight[c] = 1, 1
			}
		default:
			return nil, fmt.Errorf("row %d: unknown label", i+1)
		}
		out = append(out, e)
	}
	return out, nil
}

var (
	reSelfHarm  = regexp.MustCompile(`(?i)\b(suicide|kill (myself|yourself|themselves|himself|herself)|end (my|your|their) (own )?life|self[- ]harm|cut (myself|yourself)|starv(e|ing) (myself|yourself)|overdose|hang (myself|yourself))`)
	reViolence  = regexp.MustCompile(`(?i)\b(kill|killing|murder|shoot|stab|strangle|choke|beat|punch|hurt|attack|execute|butcher|slaughter|behead|decapitate|bomb|blow up|poison|assault|torture|massacre|genocide|slit|break .* (neck|legs|arms|bones)|wipe out|exterminat|eliminate|harm|injure|weapon|gun|knife|terror)`)
	reSexualCue = regexp.MustCompile(`(?i)\b(sex|sexual|sexually|naked|nude|nudes|porn|pornographic|explicit|intimate|molest|groom)`)
)

// xstestCategory assigns an unsafe XSTest prompt to a category where its
// type and wording make it clear: discrimination contrasts are HATE;
// self-harm wording is SELF_HARM; violent verbs are VIOLENCE. Privacy
// contrasts (asking for a private person's data) are none of the four.
func xstestCategory(typ, text string) (int, bool) {
	switch {
	case typ == "contrast_privacy":
		return 0, false
	case typ == "contrast_discr":
		return hate, true
	case reSelfHarm.MatchString(text):
		return selfHarm, true
	case reViolence.MatchString(text):
		return violence, true
	}
	return 0, false
}

// SimpleSafetyTests harm areas:
//
//   - Suicide, Self-Harm, and Eating Disorders → SELF_HARM positive.
//   - Physical harm and Violence → VIOLENCE positive.
//   - Child safety → SEXUAL positive when the prompt has a sexual cue
//     (about half of the rows; the others are about other harms to
//     children and are left out).
//   - Scams and fraud → negative for all four.
//   - Illegal and Highly Regulated items → negative for HATE, SEXUAL and
//     SELF_HARM; unknown for VIOLENCE (weapons).
func loadSST(data []byte) ([]Example, error) {
	col, rows, err := readTable(data, "id", "harm_area", "prompts_final")
	if err != nil {
		return nil, err
	}
	out := make([]Example, 0, len(rows))
	for i, r := range rows {
		area := r[col[1]]
		e := Example{Dataset: "sst", ID: "sst:" + r[col[0]], Kind: sstKind(area), Text: r[col[2]]}
		switch e.Kind {
		case "self-harm":
			e.Target[selfHarm], e.Weight[selfHarm] = 1, 1
		case "violence":
			e.Target[violence], e.Weight[violence] = 1, 1
		case "child-safety":
			if reSexualCue.MatchString(e.Text) {
				e.Target[sexual], e.Weight[sexual] = 1, 1
			}
		case "scams":
			e.Target, e.Weight = all(0, 1)
		case "illegal-items":
			e.Target, e.Weight = all(0, 1)
			e.Weight[violence] = 0
		default:
			return nil, fmt.Errorf("row %d: unknown harm area", i+1)
		}
		out = append(out, e)
	}
	return out, nil
}

func sstKind(area string) string {
	a := strings.ToLower(area)
	switch {
	case strings.Contains(a, "self-harm"), strings.Contains(a, "suicide"):
		return "self-harm"
	case strings.Contains(a, "violence"):
		return "violence"
	case strings.Contains(a, "child"):
		return "child-safety"
	case strings.Contains(a, "scam"):
		return "scams"
	case strings.Contains(a, "illegal"):
		return "illegal-items"
	}
	return "unknown"
}

// ReadLabelled reads a labelled TSV file (the format of the hand-written
// training rows: parseLabelled) as examples of data set dataset, with ids
// "<base name of path>:<line>" and Kind the line's labels. A malformed
// file gives an error that names the line, and no rows.
func ReadLabelled(path, dataset string) ([]Example, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return parseLabelled(data, dataset, filepath.Base(path))
}

// Labelled TSV: one example a line, "labels<TAB>text", where labels is
// "none" (negative for all four categories), a comma-separated list of
// hate, sexual, violence, self_harm (positive for those, negative for the
// others), or "not:" and such a list (negative for those, the others
// unknown: a row that says what a category is not, such as an account of
// harassment for SEXUAL, without teaching the other heads anything).
// Lines starting with '#' and blank lines are skipped.
func parseLabelled(data []byte, dataset, name string) ([]Example, error) {
	var out []Example
	err := eachTSVRow(data, name, "labels", func(line int, labels, text string) error {
		e := Example{Dataset: dataset, ID: name + ":" + strconv.Itoa(line), Kind: labels, Text: text}
		e.Target, e.Weight = all(0, 1)
		labels = strings.ToLower(strings.TrimSpace(labels))
		list, only := strings.CutPrefix(labels, "not:")
		if only {
			e.Weight = [N]float32{}
		}
		if labels != "none" {
			for _, l := range strings.Split(list, ",") {
				c, ok := classifiers.ParseCategory(strings.TrimSpace(l))
				if !ok {
					return fmt.Errorf("train: %s:%d: unknown label", name, line)
				}
				if only {
					e.Weight[c] = 1
				} else {
					e.Target[c] = 1
				}
			}
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

// eachTSVRow calls fn with the 1-based line number and the two fields of
// every row of a hand-written first<TAB>text file (a leading byte order
// mark, blank lines and lines that start with '#' skipped; CRLF line ends
// read as LF); a row without a tab or a text is an
// error that names the file, the line and what the first field is.
func eachTSVRow(data []byte, name, first string, fn func(line int, first, text string) error) error {
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // a byte order mark, as spreadsheets write
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f, text, ok := strings.Cut(line, "\t")
		if !ok || strings.TrimSpace(text) == "" {
			return fmt.Errorf("train: %s:%d: want %s<TAB>text", name, n+1, first)
		}
		if err := fn(n+1, f, text); err != nil {
			return err
		}
	}
	return nil
}
