package clierr

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

var errSentinel = errors.New("bad input")

func TestCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, ExitOK},
		{"plain", errors.New("disk full"), ExitFailure},
		{"usage", Usagef("--seeds: %s", "x"), ExitUsage},
		{"usage wrapped", fmt.Errorf("compare: %w", Usage(errors.New("x"))), ExitUsage},
		{"input", Inputf("trace.csv:3: bad size"), ExitBadInput},
		{"input wrapped", fmt.Errorf("a: %w", Input(errors.New("x"))), ExitBadInput},
		{"sentinel given", fmt.Errorf("replay: %w", errSentinel), ExitBadInput},
		{"interrupted", Interruptedf("interrupted; nothing written"), ExitInterrupted},
		{"cancelled context", fmt.Errorf("run: %w", context.Canceled), ExitInterrupted},
		{"interrupt wins over usage", Usage(context.Canceled), ExitInterrupted},
		{"usage wins over input", Usage(Input(errors.New("x"))), ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Code(tt.err, errSentinel); got != tt.want {
				t.Errorf("Code(%v) = %d, want %d", tt.err, got, tt.want)
			}
		})
	}
	if got := Code(fmt.Errorf("x: %w", errSentinel)); got != ExitFailure {
		t.Errorf("an unlisted sentinel gives %d, want %d", got, ExitFailure)
	}
}

func TestNilStaysNil(t *testing.T) {
	if Usage(nil) != nil || Input(nil) != nil {
		t.Error("Usage(nil) or Input(nil) is not nil")
	}
}

func TestMessagesUnchanged(t *testing.T) {
	for _, err := range []error{Usagef("a %d", 1), Inputf("a %d", 1), Interruptedf("a %d", 1)} {
		if err.Error() != "a 1" {
			t.Errorf("%T says %q, want %q", err, err, "a 1")
		}
	}
}
