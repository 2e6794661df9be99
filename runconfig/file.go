package runconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ccreplay/ccreplay/limits"
)

// File is a YAML run configuration (run.yaml). Every value with a unit is a string carrying it
// ("32MB", "50us", "25Gbps"); unknown keys are rejected.
type File struct {
	Trace     string            `yaml:"trace"`
	Workload  string            `yaml:"workload"`
	CCA       string            `yaml:"cca"`
	CCAParams map[string]string `yaml:"cca_params"`
	Topology  string            `yaml:"topology"`
	Seed      *uint64           `yaml:"seed"`
	Packets   string            `yaml:"packets"`
	Out       string            `yaml:"out"`
	MaxTime   string            `yaml:"max_time"` // simulated time limit, e.g. 10ms
	Switch    *SwitchSection    `yaml:"switch"`
	NIC       *NICSection       `yaml:"nic"`
}

type SwitchSection struct {
	Buffer string      `yaml:"buffer"` // shared buffer per switch, e.g. 32MB
	ECN    *ECNSection `yaml:"ecn"`
	PFC    *PFCSection `yaml:"pfc"`
	INT    *bool       `yaml:"int"`
}

// ECNSection is switch.ecn.
type ECNSection struct {
	Enabled *bool    `yaml:"enabled"`
	Kmin    string   `yaml:"kmin"`     // bytes, e.g. 5KB
	Kmax    string   `yaml:"kmax"`     // bytes, e.g. 200KB
	Pmax    *float64 `yaml:"pmax"`     // probability at kmax, 0..1
	RefRate string   `yaml:"ref_rate"` // link rate kmin/kmax are given for, e.g. 25Gbps; "0" = no scaling
	// PerRate are explicit settings per port rate (HPCC KMIN_MAP/KMAX_MAP/PMAX_MAP).
	PerRate []ECNRateSection `yaml:"per_rate"`
}

// ECNRateSection is one entry of switch.ecn.per_rate.
type ECNRateSection struct {
	Rate string  `yaml:"rate"` // port rate, e.g. 100Gbps
	Kmin string  `yaml:"kmin"` // bytes
	Kmax string  `yaml:"kmax"` // bytes
	Pmax float64 `yaml:"pmax"` // 0..1
}

// PFCSection is switch.pfc.
type PFCSection struct {
	Enabled      *bool  `yaml:"enabled"`
	Mode         string `yaml:"mode"`          // static | dynamic
	XoffPerGbps  string `yaml:"xoff_per_gbps"` // bytes per port per Gb/s (static)
	XonPerGbps   string `yaml:"xon_per_gbps"`  // bytes per port per Gb/s (static)
	Reserve      string `yaml:"reserve"`       // private ingress buffer per port, bytes
	Headroom     string `yaml:"headroom"`      // per port, bytes; 0 = sized from the link
	Divisor      *int64 `yaml:"divisor"`       // dynamic threshold denominator
	ResumeOffset string `yaml:"resume_offset"` // bytes below the dynamic threshold to resume
}

type NICSection struct {
	MTUPayload  string `yaml:"mtu_payload"`  // bytes of payload per full packet
	Header      string `yaml:"header"`       // header bytes per packet
	AckEvery    *int   `yaml:"ack_every"`    // packets per ACK
	CNPInterval string `yaml:"cnp_interval"` // min gap between CNPs per QP, e.g. 50us
	RTO         string `yaml:"rto"`          // retransmission timeout, e.g. 4ms
	Window      string `yaml:"window"`       // bytes in flight per QP, or "bdp"
	DataPrio    *int   `yaml:"data_prio"`    // priority class of data, 1..7
	LocalRate   string `yaml:"local_rate"`   // same-host (shared-memory) copy rate, e.g. 200Gbps; "0" = instant
}

// Load reads a YAML run configuration. An unknown key is an error naming
// the file, the line, the key and its section as a user writes it
// (`run.yaml:3: unknown key "bogus" in section switch.ecn`); keys are
// checked against the yaml tags of File by walking the document, not by
// reading the YAML library's messages.
func Load(path string) (*File, error) {
	b, err := limits.ReadFile(path, "a YAML configuration", limits.MaxConfigBytes, false)
	if err != nil {
		return nil, inputErrorf("config: %v", err)
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &File{}, nil
		}
		return nil, inputErrorf("%s: %s", path, yamlMessage(err))
	}
	if err := OneDocument(path, dec); err != nil {
		return nil, err
	}
	if err := checkKeys(path, &doc, reflect.TypeOf(File{}), ""); err != nil {
		return nil, err
	}
	var fc File
	if err := doc.Decode(&fc); err != nil {
		return nil, inputErrorf("%s: %s", path, yamlMessage(err))
	}
	return &fc, nil
}

// OneDocument refuses a second YAML document ("---" and more keys) after
// the first one dec decoded: a configuration file holds one, and the rest
// would be ignored. path names the file in errors.
func OneDocument(path string, dec *yaml.Decoder) error {
	var next yaml.Node
	err := dec.Decode(&next)
	switch {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return inputErrorf("%s: %s", path, yamlMessage(err))
	}
	return inputErrorf("%s:%d: a second YAML document; a configuration file holds one (remove the \"---\" line and what follows, or merge it into the first)", path, next.Line)
}

// DecodeNode checks a YAML document or mapping node that holds a run
// configuration (unknown keys refused, as Load does) and decodes it; path
// names it in errors. A sweep specification is decoded with it after its
// axes are taken out.
func DecodeNode(path string, node *yaml.Node) (*File, error) {
	if err := checkKeys(path, node, reflect.TypeOf(File{}), ""); err != nil {
		return nil, err
	}
	var fc File
	if err := node.Decode(&fc); err != nil {
		return nil, inputErrorf("%s: %s", path, yamlMessage(err))
	}
	return &fc, nil
}

// KeyPath checks a dotted key of a run configuration ("switch.ecn.kmin",
// "cca_params.ai_rate", "seed") and says what it names: KeyValue for a
// key of File (any key under cca_params), KeySpecParam for a parameter of
// the workload or topology spec ("workload.load", "topology.hosts"). A
// key that is not there is an error naming the unknown part.
func KeyPath(key string) (KeyKind, error) {
	parts := strings.Split(key, ".")
	t := reflect.TypeOf(File{})
	for i, p := range parts {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if p == "" {
			return 0, fmt.Errorf("key %q: empty part", key)
		}
		switch t.Kind() {
		case reflect.Map:
			if i != len(parts)-1 {
				return 0, fmt.Errorf("key %q: %s holds values, not sections", key, strings.Join(parts[:i], "."))
			}
			return KeyValue, nil
		case reflect.Struct:
		default:
			if i == 1 && len(parts) == 2 && (parts[0] == "workload" || parts[0] == "topology") {
				return KeySpecParam, nil
			}
			return 0, fmt.Errorf("key %q: %s is a value, not a section", key, strings.Join(parts[:i], "."))
		}
		f, ok := yamlField(t, p)
		if !ok {
			where := "at the top level"
			if i > 0 {
				where = "in section " + strings.Join(parts[:i], ".")
			}
			return 0, fmt.Errorf("key %q: unknown key %q %s", key, p, where)
		}
		t = f.Type
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct || t.Kind() == reflect.Map || t.Kind() == reflect.Slice {
		return 0, fmt.Errorf("key %q is a section; give one of its values", key)
	}
	return KeyValue, nil
}

// KeyKind is what a dotted configuration key names (KeyPath).
type KeyKind int

const (
	// KeyValue is a value of the configuration file.
	KeyValue KeyKind = iota + 1
	// KeySpecParam is a parameter inside the workload or topology spec.
	KeySpecParam
)

// yamlMessage is the YAML library's error on one line, without its
// "yaml: " prefix.
func yamlMessage(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return strings.Join(te.Errors, "; ")
	}
	return strings.TrimPrefix(strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; "), "yaml: ")
}

// checkKeys walks node against the Go type t it will decode into and
// reports the first mapping key t has no yaml field for. section is the
// dotted path of node ("" at the top level).
func checkKeys(path string, node *yaml.Node, t reflect.Type, section string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	key := section
	if key == "" {
		key = "the top level"
	}
	switch node.Kind {
	case yaml.DocumentNode:
		for _, c := range node.Content {
			if err := checkKeys(path, c, t, section); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		if t.Kind() != reflect.Slice {
			return inputErrorf("%s:%d: %s: a list is not %s", path, node.Line, key, kindName(t))
		}
		for i, c := range node.Content {
			if err := checkKeys(path, c, t.Elem(), fmt.Sprintf("%s[%d]", section, i)); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		if t.Kind() == reflect.Map {
			// A map (cca_params) takes any key; its values are scalars.
			for i := 0; i+1 < len(node.Content); i += 2 {
				if err := checkKeys(path, node.Content[i+1], t.Elem(), section+"."+node.Content[i].Value); err != nil {
					return err
				}
			}
			return nil
		}
		if t.Kind() != reflect.Struct {
			return inputErrorf("%s:%d: %s: a section is not %s", path, node.Line, key, kindName(t))
		}
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			f, ok := yamlField(t, k.Value)
			if !ok {
				where := "the top level"
				if section != "" {
					where = "section " + section
				}
				return inputErrorf("%s:%d: unknown key %q in %s", path, k.Line, k.Value, where)
			}
			sub := k.Value
			if section != "" {
				sub = section + "." + k.Value
			}
			if err := checkKeys(path, v, f.Type, sub); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		// Decode the one value alone, so that a type error names its
		// line and key in our words, not the YAML library's.
		if err := node.Decode(reflect.New(t).Interface()); err != nil {
			return inputErrorf("%s:%d: %s: %s is not %s", path, node.Line, key, limits.Quote(node.Value), kindName(t))
		}
		if err := checkInteger(node, t); err != nil {
			return inputErrorf("%s:%d: %s: %s is %v", path, node.Line, key, limits.Quote(node.Value), err)
		}
	}
	return nil
}

// checkInteger refuses a scalar for an integer field that is not a whole
// number in the field's range: the YAML library would take 1.5 as 1 and
// 2^64 as 2^63.
func checkInteger(node *yaml.Node, t reflect.Type) error {
	if node.Tag == "!!null" {
		return nil
	}
	v := strings.ReplaceAll(strings.TrimSpace(node.Value), "_", "")
	var err error
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		_, err = strconv.ParseInt(v, 0, t.Bits())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		_, err = strconv.ParseUint(v, 0, t.Bits())
	default:
		return nil
	}
	if errors.Is(err, strconv.ErrRange) {
		if t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64 {
			return fmt.Errorf("out of range (want 0 .. %d)", uint64(1)<<t.Bits()-1)
		}
		return fmt.Errorf("out of range (want %d .. %d)", -(int64(1) << (t.Bits() - 1)), int64(1)<<(t.Bits()-1)-1)
	}
	if err != nil {
		return fmt.Errorf("not %s", kindName(t))
	}
	return nil
}

// kindName says what a value of t looks like in YAML, for errors.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Map, reflect.Struct:
		return "a section (key: value lines)"
	case reflect.Slice:
		return "a list"
	default:
		return "a text value"
	}
}

// yamlField finds the field of struct t whose yaml tag names key.
func yamlField(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); name == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
