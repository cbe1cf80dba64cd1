package server

import (
	"math"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/extract"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

var (
	categoryToProto = [classifiers.NumCategories]raiv1.HarmCategory{
		classifiers.Hate:     raiv1.HarmCategory_HATE,
		classifiers.Sexual:   raiv1.HarmCategory_SEXUAL,
		classifiers.Violence: raiv1.HarmCategory_VIOLENCE,
		classifiers.SelfHarm: raiv1.HarmCategory_SELF_HARM,
	}
	riskToProto = [...]raiv1.RiskLevel{
		analyzer.RiskLow:    raiv1.RiskLevel_LOW,
		analyzer.RiskMedium: raiv1.RiskLevel_MEDIUM,
		analyzer.RiskHigh:   raiv1.RiskLevel_HIGH,
	}
)

func sourceToProto(s extract.Source) raiv1.SourceType {
	switch s {
	case extract.Prompt:
		return raiv1.SourceType_PROMPT
	case extract.Completion:
		return raiv1.SourceType_COMPLETION
	}
	return raiv1.SourceType_SOURCE_TYPE_UNSPECIFIED
}

// u32 converts an offset or index for the wire. Items are capped far below
// 4 GiB by the stream text limit, so saturation never happens in practice.
func u32(n int) *uint32 {
	v := uint32(min(max(n, 0), math.MaxUint32))
	return &v
}

func ptr[T any](v T) *T { return &v }

// toProto converts analyzer events to wire messages, one new message per event.
func toProto(a *analyzer.Analyzer, evs []analyzer.Event) []*raiv1.AnalyzeResponse {
	if len(evs) == 0 {
		return nil
	}
	out := make([]*raiv1.AnalyzeResponse, 0, len(evs))
	for i := range evs {
		out = append(out, eventToProto(a.Enabled(), &evs[i]))
	}
	return out
}

func eventToProto(enabled []classifiers.Category, ev *analyzer.Event) *raiv1.AnalyzeResponse {
	src := sourceToProto(ev.Key.Source)
	if ev.Kind == analyzer.KindWatermark {
		return &raiv1.AnalyzeResponse{Event: &raiv1.AnalyzeResponse_Watermark{Watermark: &raiv1.Watermark{
			SourceType:   src,
			MessageId:    ptr(ev.Key.MessageID),
			ContentIndex: u32(ev.Key.ContentIndex),
			Offset:       u32(ev.End),
		}}}
	}
	res := &raiv1.AnalysisResult{
		Offset: &raiv1.Offset{
			SourceType:   src,
			MessageId:    ptr(ev.Key.MessageID),
			ContentIndex: u32(ev.Key.ContentIndex),
			StartOffset:  u32(ev.Start),
			EndOffset:    u32(ev.End),
		},
		HarmCategoryTaskResults: make([]*raiv1.HarmCategoryTaskResult, 0, len(enabled)),
	}
	for _, c := range enabled {
		tr := &raiv1.HarmCategoryTaskResult{
			Kind:                   raiv1.TaskKind_HARM_CATEGORY,
			HarmCategoryTaskResult: &raiv1.HarmCategoryResult{HarmCategory: categoryToProto[c]},
		}
		if ev.NoModel {
			tr.Result = raiv1.Result_NoModel
			tr.IsBlocking = ptr(false)
		} else {
			r := ev.Categories[c]
			tr.Result = raiv1.Result_OK
			tr.IsBlocking = ptr(r.Blocking)
			hc := tr.HarmCategoryTaskResult
			hc.IsDetected = ptr(r.Severity >= 1)
			hc.Severity = ptr(uint32(r.Severity))
			if r.Risk != analyzer.RiskNone {
				hc.RiskLevel = ptr(riskToProto[r.Risk])
			}
		}
		res.HarmCategoryTaskResults = append(res.HarmCategoryTaskResults, tr)
	}
	return &raiv1.AnalyzeResponse{Event: &raiv1.AnalyzeResponse_AnalysisResult{AnalysisResult: res}}
}
