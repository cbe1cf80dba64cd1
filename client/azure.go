package client

import "net/http"

// Wire strings of Azure OpenAI's content filter and of the AI Chat Protocol.
const (
	// FinishReasonContentFilter is the finish_reason of a choice whose
	// output was cut off by the content filter.
	FinishReasonContentFilter = "content_filter"

	// PromptBlockedMessage is the AI Chat Protocol error for a blocked
	// prompt (SPEC §6).
	PromptBlockedMessage = "Your message contains content that was flagged by the content filter."
	// CompletionBlockedMessage is the AI Chat Protocol error for model
	// output stopped by the content filter.
	CompletionBlockedMessage = "The response was stopped because it contains content that was flagged by the content filter."
	// UnavailableMessage is the AI Chat Protocol error when the content
	// filter could not answer and the fail mode is FailClosed.
	UnavailableMessage = "The content filter is unavailable. Please try again later."

	// AzurePromptFilteredMessage is Azure OpenAI's message for a prompt
	// refused by its content management policy.
	AzurePromptFilteredMessage = "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. " +
		"Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: " +
		"https://go.microsoft.com/fwlink/?linkid=2198766"
	// AzureNotFilteredMessage is Azure OpenAI's message when the content
	// filter did not run ("content_filter_results": {"error": ...}).
	AzureNotFilteredMessage = "The contents are not filtered"
)

// ContentFilterResult is Azure OpenAI's result of one harm category.
type ContentFilterResult struct {
	Filtered bool   `json:"filtered"`
	Severity string `json:"severity"`
}

// ContentFilterError is Azure OpenAI's marker that the content filter did
// not run.
type ContentFilterError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ContentFilterResults is Azure OpenAI's content_filter_results object (and
// innererror.content_filter_result): one result per harm category, or, when
// the filter did not run, only Error. Fields are in Azure's key order.
type ContentFilterResults struct {
	Error    *ContentFilterError  `json:"error,omitempty"`
	Hate     *ContentFilterResult `json:"hate,omitempty"`
	SelfHarm *ContentFilterResult `json:"self_harm,omitempty"`
	Sexual   *ContentFilterResult `json:"sexual,omitempty"`
	Violence *ContentFilterResult `json:"violence,omitempty"`
}

// PromptFilterResult is one entry of Azure OpenAI's prompt_filter_results.
type PromptFilterResult struct {
	PromptIndex          int                  `json:"prompt_index"`
	ContentFilterResults ContentFilterResults `json:"content_filter_results"`
}

// AzureError is Azure OpenAI's error body ({"error": {...}}).
type AzureError struct {
	Error AzureErrorDetail `json:"error"`
}

// AzureErrorDetail is the object inside AzureError.
type AzureErrorDetail struct {
	Message string `json:"message"`
	// Type is always null on Azure's content filter errors.
	Type       *string     `json:"type"`
	Param      string      `json:"param"`
	Code       string      `json:"code"`
	Status     int         `json:"status"`
	InnerError *InnerError `json:"innererror,omitempty"`
}

// InnerError is the innererror of an AzureError.
type InnerError struct {
	Code                string               `json:"code"`
	ContentFilterResult ContentFilterResults `json:"content_filter_result"`
}

// ChatError is the AI Chat Protocol's error body and error chunk
// ({"error": "..."}).
type ChatError struct {
	Error string `json:"error"`
}

func azureResult(r CategoryResult) *ContentFilterResult {
	return &ContentFilterResult{Filtered: r.Blocking, Severity: SeverityLabel(r.Severity)}
}

// ContentFilterResults returns the verdict in Azure OpenAI's
// content_filter_results form: per category "filtered" (a blocking result)
// and "severity" (the worst severity's label, SPEC §4). When the service gave
// no answer (Unavailable), it is Azure's "the filter did not run" form, with
// only "error" set. Use v.Choice(i) for the results of one choice.
func (v *Verdict) ContentFilterResults() ContentFilterResults {
	if v.Unavailable {
		return ContentFilterResults{Error: &ContentFilterError{Code: "content_filter_error", Message: AzureNotFilteredMessage}}
	}
	return ContentFilterResults{
		Hate:     azureResult(v.Categories.Hate),
		SelfHarm: azureResult(v.Categories.SelfHarm),
		Sexual:   azureResult(v.Categories.Sexual),
		Violence: azureResult(v.Categories.Violence),
	}
}

// PromptFilterResults returns Azure OpenAI's prompt_filter_results for the
// verdict's PROMPT items: one entry, prompt_index 0 (the service keys a
// whole chat conversation, and every prompt of a legacy completions request,
// as prompt 0).
func (v *Verdict) PromptFilterResults() []PromptFilterResult {
	return []PromptFilterResult{{PromptIndex: 0, ContentFilterResults: v.Prompt().ContentFilterResults()}}
}

// HTTPStatus returns the status a backend answers a request with whose
// prompt has this verdict: 200 (http.StatusOK) when it may pass, 400 when
// content was blocked, 500 when the service could not answer and the fail
// mode is FailClosed.
func (v *Verdict) HTTPStatus() int {
	switch {
	case !v.Blocked:
		return http.StatusOK
	case v.Block == nil && v.Unavailable:
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// AzureError returns Azure OpenAI's error body for a blocked prompt: code
// "content_filter", status 400, innererror "ResponsibleAIPolicyViolation"
// with the content_filter_result. When the block is the fail mode's decision
// (the service did not answer), it is code "content_filter_error", status
// 500, without innererror.
func (v *Verdict) AzureError() AzureError {
	if v.HTTPStatus() == http.StatusInternalServerError {
		return AzureError{Error: AzureErrorDetail{
			Message: UnavailableMessage, Param: "prompt", Code: "content_filter_error", Status: http.StatusInternalServerError,
		}}
	}
	return AzureError{Error: AzureErrorDetail{
		Message: AzurePromptFilteredMessage,
		Param:   "prompt",
		Code:    "content_filter",
		Status:  http.StatusBadRequest,
		InnerError: &InnerError{
			Code:                "ResponsibleAIPolicyViolation",
			ContentFilterResult: v.ContentFilterResults(),
		},
	}}
}

// ChatError returns the AI Chat Protocol's error body for the verdict:
// PromptBlockedMessage when a prompt was blocked, CompletionBlockedMessage
// when model output was, UnavailableMessage when the service could not
// answer (FailClosed).
func (v *Verdict) ChatError() ChatError {
	switch {
	case v.Block != nil && v.Block.Item.Source == Completion:
		return ChatError{Error: CompletionBlockedMessage}
	case v.Block == nil && v.Unavailable:
		return ChatError{Error: UnavailableMessage}
	}
	return ChatError{Error: PromptBlockedMessage}
}
