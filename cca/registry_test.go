package cca

import "testing"

// Schemas lists the algorithms registered with a schema; PresetNote says
// which preset a spec runs, pointing to the others for the default.
func TestSchemasAndPresetNote(t *testing.T) {
	r := NewRegistry()
	r.Register("algo", "an algorithm", nil, func() Schema {
		return Schema{Default: "a", Presets: []Preset{{Name: "a", Doc: "the first"}, {Name: "b", Doc: "the second"}}}
	})
	r.Register("bare", "no schema", nil, nil)
	all := r.Schemas()
	if len(all) != 1 || all["algo"].Doc != "an algorithm" || len(all["algo"].Presets) != 2 {
		t.Errorf("Schemas: %+v", all)
	}
	for spec, want := range map[string]string{
		"algo:a": "preset a: the first (the default; `ccreplay algorithms algo` lists the others)",
		"algo:b": "preset b: the second",
		"algo":   "",
		"algo:c": "",
		"bare:x": "",
		"nope:a": "",
	} {
		if got := r.PresetNote(spec); got != want {
			t.Errorf("PresetNote(%q) = %q, want %q", spec, got, want)
		}
	}
}
