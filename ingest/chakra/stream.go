package chakra

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"path/filepath"

	"google.golang.org/protobuf/proto"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
	"github.com/ccreplay/ccreplay/limits"
)

// The ET stream: one rank's file.
//
// Reference: MLCommons Chakra, src/third_party/utils/protoio.cc
// (ProtoOutputStream::write, ProtoInputStream::read) and protolib.py
// (encodeMessage, decodeMessage). A file is a sequence of messages, each
// preceded by its length in bytes as a base-128 varint (at most 32 bits,
// CodedOutputStream::WriteVarint32); the first message is a
// GlobalMetadata, every other one a Node:
//
//	+---------+----------------+---------+--------+---------+--------+-----
//	| varint  | GlobalMetadata | varint  | Node 0 | varint  | Node 1 | ...
//	| length  | (length bytes) | length  |        | length  |        |
//	+---------+----------------+---------+--------+---------+--------+-----
//
// The whole stream may be gzip-compressed (the reference reader checks
// for the gzip magic 1f 8b); Decode undoes that first.

// maxMessage is the largest message length a varint32 can announce.
const maxMessage = 1<<31 - 1

// maxInflated caps a gzip-compressed file's decompressed size, bytes.
const maxInflated = 4 << 30

// File is one rank's execution trace as stored.
type File struct {
	// Name is the file's path as given.
	Name string
	// Metadata is the file's GlobalMetadata.
	Metadata *etpb.GlobalMetadata
	// Nodes are the file's nodes in file order; errors name a node by its
	// index here ("node 17"), counted from 0 after the metadata.
	Nodes []*etpb.Node
}

// DecodeError is an error in one rank's file: the file's base name, the
// node (index in file order, or -1 for the file as a whole or its
// metadata) and what is wrong, printed on one line as
// "workload.3.et: node 17: ...".
type DecodeError struct {
	// File is the file's base name.
	File string
	// Node is the node's index in file order, or -1.
	Node int
	// Msg says what is wrong.
	Msg string
}

// Error implements error.
func (e *DecodeError) Error() string {
	if e.Node < 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s: node %d: %s", e.File, e.Node, e.Msg)
}

// errorf builds a *DecodeError for file name's node i (-1: the file).
func errorf(name string, i int, format string, args ...any) *DecodeError {
	return &DecodeError{File: filepath.Base(name), Node: i, Msg: fmt.Sprintf(format, args...)}
}

// ReadFile reads and decodes one rank's ET file.
func ReadFile(name string) (*File, error) {
	data, err := limits.ReadFile(name, "a Chakra .et file", limits.MaxChakraBytes, true)
	if err != nil {
		return nil, err
	}
	return Decode(name, data)
}

// Decode decodes one rank's ET stream from data (gzip-compressed or
// not); name is used in errors. Every length is checked against what is
// left of data, and a malformed stream gives a *DecodeError, never a
// panic or an allocation beyond the input's size.
func Decode(name string, data []byte) (*File, error) {
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, errorf(name, -1, "gzip: %v", err)
		}
		inflated, err := io.ReadAll(io.LimitReader(zr, maxInflated+1))
		if err != nil {
			return nil, errorf(name, -1, "gzip: %v", err)
		}
		if len(inflated) > maxInflated {
			return nil, errorf(name, -1, "gzip: decompresses to more than %d bytes", maxInflated)
		}
		data = inflated
	}
	if len(data) == 0 {
		return nil, errorf(name, -1, "empty file: no global metadata")
	}
	f := &File{Name: name}
	pos := 0
	for i := -1; pos < len(data); i++ {
		what := "global metadata"
		if i >= 0 {
			what = "node"
		}
		size, n := binary.Uvarint(data[pos:])
		switch {
		case n == 0:
			return nil, errorf(name, i, "truncated length of the %s at byte %d", what, pos)
		case n < 0 || size > maxMessage:
			return nil, errorf(name, i, "length of the %s at byte %d is not a 32-bit varint", what, pos)
		}
		pos += n
		if size > uint64(len(data)-pos) {
			return nil, errorf(name, i, "%s of %d bytes at byte %d runs past the end of the file (%d bytes left)", what, size, pos, len(data)-pos)
		}
		msg := data[pos : pos+int(size)]
		pos += int(size)
		if i < 0 {
			f.Metadata = &etpb.GlobalMetadata{}
			if err := proto.Unmarshal(msg, f.Metadata); err != nil {
				return nil, errorf(name, i, "global metadata: %v", err)
			}
			continue
		}
		nd := &etpb.Node{}
		if err := proto.Unmarshal(msg, nd); err != nil {
			return nil, errorf(name, i, "%v", err)
		}
		f.Nodes = append(f.Nodes, nd)
	}
	return f, nil
}

// Write writes one rank's ET stream: meta, then the nodes, each preceded
// by its length as a varint, as Chakra's encodeMessage does.
func Write(w io.Writer, meta *etpb.GlobalMetadata, nodes []*etpb.Node) error {
	var buf []byte
	put := func(m proto.Message) error {
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
		if err != nil {
			return err
		}
		buf = binary.AppendUvarint(buf, uint64(len(b)))
		buf = append(buf, b...)
		return nil
	}
	if meta == nil {
		meta = &etpb.GlobalMetadata{}
	}
	if err := put(meta); err != nil {
		return err
	}
	for _, nd := range nodes {
		if err := put(nd); err != nil {
			return err
		}
	}
	_, err := w.Write(buf)
	return err
}
