package chakra

import (
	"fmt"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
)

// Attributes. Chakra's writers store integers in different fields of the
// AttributeProto oneof (the reference feeder, src/feeder/et_feeder_node.cpp,
// reads comm_type, comm_size and num_ops from int64_val, comm_src, comm_dst,
// comm_tag and comm_priority from int32_val, tensor_size from uint64_val),
// so the reader accepts an integer attribute from any integer field.

// attrInt returns the integer value of a, and whether it holds one.
func attrInt(a *etpb.AttributeProto) (int64, bool) {
	switch v := a.GetValue().(type) {
	case *etpb.AttributeProto_Int32Val:
		return int64(v.Int32Val), true
	case *etpb.AttributeProto_Int64Val:
		return v.Int64Val, true
	case *etpb.AttributeProto_Uint32Val:
		return int64(v.Uint32Val), true
	case *etpb.AttributeProto_Uint64Val:
		if v.Uint64Val > 1<<63-1 {
			return 0, false
		}
		return int64(v.Uint64Val), true
	case *etpb.AttributeProto_Sint32Val:
		return int64(v.Sint32Val), true
	case *etpb.AttributeProto_Sint64Val:
		return v.Sint64Val, true
	case *etpb.AttributeProto_Fixed32Val:
		return int64(v.Fixed32Val), true
	case *etpb.AttributeProto_Fixed64Val:
		if v.Fixed64Val > 1<<63-1 {
			return 0, false
		}
		return int64(v.Fixed64Val), true
	case *etpb.AttributeProto_Sfixed32Val:
		return int64(v.Sfixed32Val), true
	case *etpb.AttributeProto_Sfixed64Val:
		return v.Sfixed64Val, true
	}
	return 0, false
}

// attrs are the attributes of one node that the reader uses.
type attrs struct {
	commType         int64 // -1 when absent
	commSize         int64 // -1 when absent
	tensorSize       int64 // -1 when absent
	commSrc, commDst int64 // -1 when absent
	commTag          int64
	pgName           string
	involvedDim      []bool
	hasInvolvedDim   bool
	numOps           int64
	hasPriority      bool
	ignored          []string // names of attributes with no meaning here
}

// readAttrs collects the attributes of nd, checking the types of those
// the reader uses.
func readAttrs(nd *etpb.Node) (attrs, error) {
	at := attrs{commType: -1, commSize: -1, tensorSize: -1, commSrc: -1, commDst: -1}
	for _, a := range nd.GetAttr() {
		name := a.GetName()
		intAttr := func(dst *int64) error {
			v, ok := attrInt(a)
			if !ok {
				return fmt.Errorf("attribute %s is not an integer", name)
			}
			*dst = v
			return nil
		}
		var err error
		switch name {
		case "comm_type":
			err = intAttr(&at.commType)
		case "comm_size":
			err = intAttr(&at.commSize)
		case "tensor_size":
			err = intAttr(&at.tensorSize)
		case "comm_src":
			err = intAttr(&at.commSrc)
		case "comm_dst":
			err = intAttr(&at.commDst)
		case "comm_tag":
			err = intAttr(&at.commTag)
		case "num_ops":
			err = intAttr(&at.numOps)
		case "comm_priority":
			at.hasPriority = true
		case "pg_name":
			v, ok := a.GetValue().(*etpb.AttributeProto_StringVal)
			if !ok {
				return at, fmt.Errorf("attribute pg_name is not a string")
			}
			at.pgName = v.StringVal
		case "involved_dim":
			v, ok := a.GetValue().(*etpb.AttributeProto_BoolList)
			if !ok {
				return at, fmt.Errorf("attribute involved_dim is not a list of booleans")
			}
			at.involvedDim, at.hasInvolvedDim = v.BoolList.GetValues(), true
		case "is_cpu_op":
			// Where the node ran does not change its duration here.
		default:
			at.ignored = append(at.ignored, name)
		}
		if err != nil {
			return at, err
		}
	}
	return at, nil
}
