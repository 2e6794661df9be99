package metrics

import (
	"encoding/json"
	"fmt"
)

// Encode is s as the JSON a run manifest carries in its "metrics" field
// (runfolder.Manifest.Metrics). Summary holds no NaN or Inf, so encoding
// cannot fail; a failure would be a bug and panics.
func (s Summary) Encode() json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("metrics: encoding a Summary: %v", err))
	}
	return b
}

// DecodeSummary reads the "metrics" field of a run manifest back. Metrics
// the summary does not have (from a newer ccreplay) are ignored; an
// absent field (null) gives the zero Summary.
func DecodeSummary(raw json.RawMessage) (Summary, error) {
	var s Summary
	if len(raw) == 0 {
		return s, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, fmt.Errorf("metrics: %v", err)
	}
	return s, nil
}
