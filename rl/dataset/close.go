package dataset

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"

	"github.com/ccreplay/ccreplay/output"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Stats summarises a written dataset.
type Stats struct {
	// Rows is the number of decisions, Flows the number of flows with at
	// least one.
	Rows  int64 `json:"rows"`
	Flows int   `json:"flows"`
	// Rewards holds the mean of each requested reward column.
	Rewards []ColumnMean `json:"rewards"`
}

// ColumnMean is the mean of one reward column over its non-NaN rows.
type ColumnMean struct {
	Column string  `json:"column"`
	Rows   int64   `json:"rows"` // rows with a value (not NaN)
	Mean   float64 `json:"mean"` // 0 when Rows is 0
}

// postRec is the byte size of one record of the backward pass: next_row
// (int64) and return_fdcc_nstep (float64).
const postRec = 8 + 8

// block is the number of records the passes move at a time.
const block = 4096

// Close finishes the dataset: it fills next_row, done and
// return_fdcc_nstep and writes dir/decisions.parquet atomically. The
// scratch files are removed whatever happens.
func (r *Recorder) Close() (Stats, error) {
	defer os.RemoveAll(r.tmp)
	st := Stats{Rows: r.n}
	err := r.sw.Flush()
	if cerr := r.side.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.err
	}
	if err != nil {
		r.rows.Abort()
		return st, fmt.Errorf("dataset: %w", err)
	}
	if err := r.rows.Close(); err != nil {
		return st, err
	}
	var err2 error
	if st.Flows, err2 = r.backward(); err2 != nil {
		return st, err2
	}
	means, err := r.forward()
	if err != nil {
		return st, err
	}
	st.Rewards = means
	return st, nil
}

// Abort discards the dataset and its scratch files.
func (r *Recorder) Abort() {
	r.rows.Abort()
	r.side.Close()
	os.RemoveAll(r.tmp)
}

// flowNext is the backward pass's state of one flow: the row index of its
// decision after the current one and the rewards of its next rows.
type flowNext struct {
	seen  bool
	next  int64
	acc   float64   // discounted return of the later rows (NStep <= 0)
	ahead []float64 // r_{t+1}, r_{t+2}, ... at most NStep-1 of them
}

// backward walks the side file from its last record to its first, computing
// each row's next_row and n-step return (FDCC, Zhang 2023, Section 4.2, as
// reward.Discounted, in the same summation order), and writes them to
// post.bin at the row's offset. It returns the number of flows seen.
func (r *Recorder) backward() (int, error) {
	side, err := os.Open(filepath.Join(r.tmp, "side.bin"))
	if err != nil {
		return 0, fmt.Errorf("dataset: %w", err)
	}
	defer side.Close()
	post, err := os.Create(filepath.Join(r.tmp, "post.bin"))
	if err != nil {
		return 0, fmt.Errorf("dataset: %w", err)
	}
	defer post.Close()

	c := &r.cfg
	var state []flowNext
	flows := 0
	in := make([]byte, block*sideRec)
	out := make([]byte, block*postRec)
	rets := make([]float64, 0, max(c.NStep, 0))
	for end := r.n; end > 0; {
		start := max(end-block, 0)
		k := int(end - start)
		if _, err := side.ReadAt(in[:k*sideRec], start*sideRec); err != nil {
			return 0, fmt.Errorf("dataset: side file: %w", err)
		}
		for j := k - 1; j >= 0; j-- {
			rec := in[j*sideRec : (j+1)*sideRec]
			id := int(binary.LittleEndian.Uint32(rec[0:4]))
			rew := math.Float64frombits(binary.LittleEndian.Uint64(rec[4:12]))
			for id >= len(state) {
				state = append(state, flowNext{next: -1})
			}
			s := &state[id]
			if !s.seen {
				s.seen = true
				flows++
			}
			ret := math.NaN()
			if c.Rewards.AnyFDCC() {
				if c.NStep <= 0 {
					s.acc = rew + c.Gamma*s.acc
					ret = s.acc
				} else {
					// R_t = sum_{i<n} gamma^i r_{t+i}, summed forward as
					// reward.Discounted does.
					acc, g := rew, c.Gamma
					for _, x := range s.ahead {
						acc += g * x
						g *= c.Gamma
					}
					ret = acc
					rets = append(rets[:0], rew)
					rets = append(rets, s.ahead...)
					if len(rets) > c.NStep-1 {
						rets = rets[:c.NStep-1]
					}
					s.ahead = append(s.ahead[:0], rets...)
				}
			}
			o := out[j*postRec : (j+1)*postRec]
			binary.LittleEndian.PutUint64(o[0:8], uint64(s.next))
			binary.LittleEndian.PutUint64(o[8:16], math.Float64bits(ret))
			s.next = start + int64(j)
		}
		if _, err := post.WriteAt(out[:k*postRec], start*postRec); err != nil {
			return 0, fmt.Errorf("dataset: %w", err)
		}
		end = start
	}
	return flows, post.Close()
}

// forward copies the spilled rows into decisions.parquet with next_row,
// done and return_fdcc_nstep from post.bin, and averages the requested
// reward columns.
func (r *Recorder) forward() ([]ColumnMean, error) {
	f, err := os.Open(filepath.Join(r.tmp, "spill.parquet"))
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	post, err := os.Open(filepath.Join(r.tmp, "post.bin"))
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer post.Close()
	pr := bufio.NewReaderSize(post, block*postRec)

	dst, err := output.NewStream[v2.DecisionRow](filepath.Join(r.dir, FileName), r.cfg.Batch)
	if err != nil {
		return nil, err
	}
	defer dst.Abort()
	rd := parquet.NewGenericReader[v2.DecisionRow](f)
	defer rd.Close()

	sel := r.cfg.Rewards
	cols := []struct {
		name string
		on   bool
		get  func(*v2.DecisionRow) float64
	}{
		{"reward_dolce", sel.Dolce, func(x *v2.DecisionRow) float64 { return x.RewardDolce }},
		{"reward_dolceplus", sel.DolcePlus, func(x *v2.DecisionRow) float64 { return x.RewardDolcePlus }},
		{"reward_rlcc", sel.RLCC, func(x *v2.DecisionRow) float64 { return x.RewardRLCC }},
		{"reward_rlcc_betafree", sel.RLCCBetaFree, func(x *v2.DecisionRow) float64 { return x.RewardRLCCBetaFree }},
		{"reward_fdcc", sel.AnyFDCC(), func(x *v2.DecisionRow) float64 { return x.RewardFDCC }},
		{"return_fdcc_nstep", sel.AnyFDCC(), func(x *v2.DecisionRow) float64 { return x.ReturnFDCCNStep }},
	}
	sums := make([]float64, len(cols))
	counts := make([]int64, len(cols))

	buf := make([]v2.DecisionRow, block)
	var rec [postRec]byte
	var done int64
	for done < r.n {
		n, err := rd.Read(buf)
		if n == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("dataset: spill file: %w", err)
		}
		for i := range buf[:n] {
			row := &buf[i]
			if _, err := io.ReadFull(pr, rec[:]); err != nil {
				return nil, fmt.Errorf("dataset: post file: %w", err)
			}
			row.NextRow = int64(binary.LittleEndian.Uint64(rec[0:8]))
			row.Done = row.NextRow < 0
			row.ReturnFDCCNStep = math.Float64frombits(binary.LittleEndian.Uint64(rec[8:16]))
			for k, c := range cols {
				if v := c.get(row); c.on && !math.IsNaN(v) {
					sums[k] += v
					counts[k]++
				}
			}
			dst.Append(*row)
		}
		done += int64(n)
	}
	if done != r.n {
		return nil, fmt.Errorf("dataset: spill file has %d rows, want %d", done, r.n)
	}
	if err := dst.Close(); err != nil {
		return nil, err
	}
	var means []ColumnMean
	for k, c := range cols {
		if !c.on {
			continue
		}
		m := ColumnMean{Column: c.name, Rows: counts[k]}
		if counts[k] > 0 {
			m.Mean = sums[k] / float64(counts[k])
		}
		means = append(means, m)
	}
	return means, nil
}
