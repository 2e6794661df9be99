package arrowread

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v16/parquet/metadata"

	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// A footer whose column chunk has lost its metadata (what FuzzReadDecisions
// found) gives an error naming the file, the row group and the column.
// Without CheckChunks arrow dereferences the missing metadata inside a
// goroutine of GetRecordReader and the whole process dies.
func TestDamagedChunkMetadata(t *testing.T) {
	path := filepath.Join(t.TempDir(), runfolder.FlowsFile)
	if err := output.WriteRows(path, randomRows[v2.FlowRow](20, 1)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A Parquet file ends with its footer, the footer's length (4 bytes,
	// little-endian) and "PAR1".
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	body := b[:len(b)-8-n]
	md, err := metadata.NewFileMetaData(b[len(b)-8-n:len(b)-8], nil)
	if err != nil {
		t.Fatal(err)
	}
	md.RowGroups[0].Columns[1].MetaData = nil
	footer, err := md.Serialize(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	damaged := append(append([]byte{}, body...), footer...)
	damaged = binary.LittleEndian.AppendUint32(damaged, uint32(len(footer)))
	damaged = append(damaged, "PAR1"...)
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadFlows(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "row group 0, column") || strings.Contains(err.Error(), "\n") {
		t.Errorf("ReadFlows: error %v, want one line naming the file and the damaged row group", err)
	}
}
