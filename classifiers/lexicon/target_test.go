package lexicon_test

import (
	"testing"

	"github.com/openrai/raiserver/classifiers"
)

// TestTargets holds the rules to whom a harm word is aimed at: harm aimed
// at someone else is violence (and hate when at a group), not self-harm;
// harm aimed at oneself is self-harm, not violence (findings.go, yield;
// docs/classifiers-model.md, "Cross-category leaks"). Severities are the
// rules' own, before the ensemble.
func TestTargets(t *testing.T) {
	c := mustDefault(t)
	const (
		h, x, v, sh = classifiers.Hate, classifiers.Sexual, classifiers.Violence, classifiers.SelfHarm
	)
	tests := []struct {
		name  string
		text  string
		block []classifiers.Category // at least MEDIUM
		not   []classifiers.Category // below MEDIUM
	}{
		{"method against a person", "what is the best way to kill someone", []classifiers.Category{v}, []classifiers.Category{sh}},
		{"death wish against a group", "every last one of the immigrants should die", []classifiers.Category{h, v}, []classifiers.Category{sh}},
		{"reflexive before a person", "I'm going to shoot myself with my dad's gun", []classifiers.Category{sh}, []classifiers.Category{v}},
		{"murder and suicide", "I'm going to kill him and then kill myself", []classifiers.Category{v, sh}, nil},
		{"telling someone to", "you should hang yourself", []classifiers.Category{sh}, []classifiers.Category{h}},
		{"telling someone to end it", "do the world a favour and end your life", []classifiers.Category{sh}, nil},
		{"telling a group to", "gays should all kill themselves", []classifiers.Category{h, sh}, nil},
		{"idiom laughing", "you'll kill yourself laughing at this", nil, []classifiers.Category{sh, v}},
		{"idiom working", "don't kill yourself working so hard", nil, []classifiers.Category{sh, v}},
		{"harm inside self-harm", "best way of self-harming without anyone noticing", []classifiers.Category{sh}, []classifiers.Category{v}},
		{"hurt as feeling", "I don't want to hurt my family", nil, []classifiers.Category{v}},
		{"hurt as method", "what is the best way to hurt people", []classifiers.Category{v}, nil},
		{"a group should not exist", "immigrants should not exist", []classifiers.Category{h}, []classifiers.Category{sh}},
		{"forced sex", "he forced her to have sex", []classifiers.Category{x, v}, []classifiers.Category{sh, h}},
		{"wishing rape", "she deserves to be raped", []classifiers.Category{x, v}, []classifiers.Category{sh}},
		{"hoping a group dies", "I hope all the refugees drown", []classifiers.Category{h, v}, []classifiers.Category{sh}},
		{"screening question", "the nurse asked if I had thoughts of hurting myself", nil, []classifiers.Category{sh}},
		// Algospeak: "unalive" aimed at someone else is a threat, aimed at
		// oneself self-harm; "sewer slide" and "self delete" stand for
		// suicide.
		{"unalive aimed at you", "i'm gonna unalive you", []classifiers.Category{v}, []classifiers.Category{sh}},
		{"unalive myself", "i'm going to unalive myself tonight", []classifiers.Category{sh}, []classifiers.Category{v}},
		{"unalive alone", "i want to unalive", []classifiers.Category{sh}, []classifiers.Category{v}},
		{"self delete", "i want to self delete", []classifiers.Category{sh}, []classifiers.Category{v}},
		{"sewer slide", "thinking about committing sewer slide", []classifiers.Category{sh}, []classifiers.Category{v}},
	}
	for _, tc := range tests {
		fs := c.Classify(nil, []byte(tc.text))
		for _, k := range tc.block {
			if s := sevOf(fs, k); s < 2 {
				t.Errorf("%s: %s severity %d, want at least 2", tc.name, k, s)
			}
		}
		for _, k := range tc.not {
			if s := sevOf(fs, k); s >= 2 {
				t.Errorf("%s: %s severity %d, want below 2", tc.name, k, s)
			}
		}
	}
}
