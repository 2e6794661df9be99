package fdcc

import (
	"strings"
	"testing"
)

// FuzzParse: any bytes given as a policy file either load as a policy
// whose network runs on a full history, or fail with an error naming the
// file; nothing panics.
func FuzzParse(f *testing.F) {
	f.Add(DefaultJSON())
	f.Add([]byte(`{"format":"ccreplay.fdcc-policy","version":1}`))
	f.Add([]byte(`{"format":"ccreplay.fdcc-policy","version":1,"features":[],"input_transform":"symlog","history":8,"rescale":"direct","network":{"format":"ccreplay-recurrent-v1"}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Parse(b, "fuzz.json")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		xs := make([]float64, History*NumFeatures)
		if o := p.Output(xs, History, make([]float64, p.WorkSize())); !(o >= -1 && o <= 1) {
			t.Fatalf("output %v outside [-1, 1]", o)
		}
	})
}
