package client_test

import (
	"encoding/json"
	"strings"
)

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
