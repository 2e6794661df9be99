// Package runfolder is the contract of the folders ccreplay writes: the
// file names of a run folder, its manifest (summary.json) with the
// completeness marker readers check, how a folder is written (staged in a
// hidden sibling and renamed into place as the last step, so a killed
// command never leaves a folder that looks finished), and how readers find
// and opens run folders (Find, Expand, Open). It does not
// know the metric set: the manifest carries metrics as JSON.
//
// A run folder holds:
//
//	summary.json      Manifest: inputs, versions, every metric; "complete": true
//	flows.parquet     one row per flow (schema/v1 FlowRow)
//	messages.parquet  one row per message
//	ports.parquet     one row per egress port
//	packets.parquet   one row per packet event (absent with --packets none)
//	decisions.parquet, dataset.json   ccreplay dataset only
//	links.parquet     ccreplay estimate only: one row per link carrying traffic
//	                  ("mode": "estimate" in summary.json; ports.parquet is then empty)
//	fct.txt           flow completions in ns-3's layout (HPCC scenarios)
//
// A collection (ccreplay compare) holds run folders in a hive-partitioned
// tree (cca=NAME/seed=N/) beside comparison.parquet and its own manifest,
// comparison.json.
//
// A training folder (ccreplay train rlcc, distill rlcc) holds policy.json
// and the trainer's files beside its manifest, training.json (Training),
// written last; it is staged like a run folder.
package runfolder

import (
	v1 "github.com/ccreplay/ccreplay/schema/v1"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// File names inside a run folder and a collection. These constants are
// the only place the names are spelled: writers, readers and tests use
// them.
const (
	PacketsFile    = "packets.parquet"
	FlowsFile      = "flows.parquet"
	MessagesFile   = "messages.parquet"
	PortsFile      = "ports.parquet"
	LinksFile      = "links.parquet"
	SummaryFile    = "summary.json"
	DecisionsFile  = "decisions.parquet"
	DatasetFile    = "dataset.json"
	ComparisonFile = "comparison.parquet"
	// CollectionFile is a collection's manifest (see Collection).
	CollectionFile = "comparison.json"
	// FCTFile is the flow completions in ns-3's fct.txt layout, which
	// ccreplay run writes for HPCC scenarios (and ns-3 run folders hold).
	FCTFile = "fct.txt"
	// ReproductionFile is a reproduction's report, beside its collection.
	ReproductionFile = "reproduction.json"
)

// File names of a sweep folder (docs/SWEEP.md): its manifest, its table
// and the record of an item's configuration (batch.RecordFile).
const (
	SweepManifestFile = "sweep.json"
	SweepTableFile    = "sweep.parquet"
	PointFile         = "point.json"
)

// File names of a training folder (ccreplay train, train-fdcc, distill).
const (
	// PolicyFile is the trained (or distilled) policy.
	PolicyFile = "policy.json"
	// LearningFile is the per-episode learning curve.
	LearningFile = "learning.parquet"
	// ScoresFile is train-fdcc's per-checkpoint evaluation scores.
	ScoresFile = "scores.json"
	// DistillFile is distill's report.
	DistillFile = "distill.json"
	// EvaluationFile and EvaluationText are the trainers' held-out
	// scores of their checkpoints and which one the policy is.
	EvaluationFile = "evaluation.json"
	EvaluationText = "evaluation.txt"
	// FinalPolicyFile is train fdcc's actor after the last episode, when
	// the policy is a held-out checkpoint.
	FinalPolicyFile = "policy-final.json"
)

// File names of a netcalc folder (ccreplay netcalc, docs/NETCALC.md),
// beside its manifest (SummaryFile): the model's curves and events, named
// CurvesName and EventsName with the format's extension (.parquet, or
// .csv with --format csv), and with --compare the model and the packet
// replay side by side, in total and per flow.
const (
	CurvesName       = "curves"
	EventsName       = "events"
	CurvesFile       = CurvesName + ".parquet"
	EventsFile       = EventsName + ".parquet"
	CompareFile      = "compare.parquet"
	CompareFlowsFile = "compare_flows.parquet"
)

// Folder kinds, the "kind" of a manifest.
const (
	KindRun        = "run"
	KindComparison = "comparison"
)

// Version is the schema version every manifest carries.
const Version = v2.Version

// PreviousVersion is the older schema version whose run folders are still
// read (metrics/arrowread reads its Parquet files).
const PreviousVersion = v1.Version
