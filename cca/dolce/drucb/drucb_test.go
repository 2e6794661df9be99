package drucb

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestDataDriven runs the scripts in testdata/ (cockroachdb/datadriven).
// Commands:
//
//	new [k=K] [eps=E] [gamma=G] [xi=X] [fixed]   a fresh bandit at t = 0
//	update x=X [arm=A]     observe X for arm A (default: the current arm)
//	index                  every arm's line-7 index at the current t
//	play n=N x=X [quiet]   N updates of reward X on the current arm; prints
//	                       the arms played, in order (unless quiet)
//
// new and update print Describe.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var b interface {
			Policy
			Index(int) float64
		}
		var k int
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			args := map[string]string{}
			for _, a := range td.CmdArgs {
				args[a.Key] = strings.Join(a.Vals, ",")
			}
			num := func(key string, def float64) float64 {
				v, ok := args[key]
				if !ok {
					return def
				}
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					td.Fatalf(t, "%s: %v", key, err)
				}
				return f
			}
			if td.Cmd != "new" && b == nil {
				td.Fatalf(t, "%s before new", td.Cmd)
			}
			switch td.Cmd {
			case "new":
				cfg := Config{K: int(num("k", 0)), Epsilon: num("eps", 0), Gamma: num("gamma", 0), Xi: num("xi", 0)}
				var err error
				if _, ok := args["fixed"]; ok {
					var f *Fixed
					f, err = NewFixed(cfg)
					if err == nil {
						b, k = f, f.Config().K
						return fmt.Sprintf("period=%d\n%s", f.Config().Period(), b.Describe())
					}
				} else {
					var fb *Bandit
					fb, err = New(cfg)
					if err == nil {
						b, k = fb, fb.Config().K
						return fmt.Sprintf("period=%d\n%s", fb.Config().Period(), b.Describe())
					}
				}
				return "error: " + err.Error()
			case "update":
				b.Update(int(num("arm", float64(b.Arm()))), num("x", math.NaN()))
				return b.Describe()
			case "index":
				var sb strings.Builder
				for i := range k {
					fmt.Fprintf(&sb, "arm %d: %s\n", i, strconv.FormatFloat(b.Index(i), 'f', 6, 64))
				}
				return sb.String()
			case "play":
				var sb strings.Builder
				_, quiet := args["quiet"]
				for i := range int(num("n", 1)) {
					if !quiet {
						if i > 0 {
							sb.WriteByte(' ')
						}
						sb.WriteString(strconv.Itoa(b.Arm()))
					}
					b.Update(b.Arm(), num("x", math.NaN()))
				}
				if quiet {
					return b.Describe()
				}
				return sb.String() + "\n" + b.Describe()
			}
			td.Fatalf(t, "unknown command %q", td.Cmd)
			return ""
		})
	})
}

// DR-UCB Alg. 1 lines 3-5: in iteration t, r = t mod floor(K/epsilon);
// r < K plays arm r. With the paper's K = 4 and epsilon = 0.015,
// floor(4/0.015) = floor(266.67) = 266: iterations 0..3 of every 266-block
// play arms 0..3 whatever the rewards, in both versions.
func TestExplorationSlots(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		var b Policy
		var err error
		if fixed {
			b, err = NewFixed(Config{})
		} else {
			b, err = New(Config{})
		}
		if err != nil {
			t.Fatal(err)
		}
		if p := (Config{K: 4, Epsilon: 0.015}).Period(); p != 266 {
			t.Fatalf("period %d, want 266", p)
		}
		explored := 0
		for it := int64(0); it < 5*266; it++ {
			if b.Iteration() != it {
				t.Fatalf("iteration %d, want %d", b.Iteration(), it)
			}
			if r := it % 266; r < 4 {
				explored++
				if b.Arm() != int(r) {
					t.Fatalf("fixed=%v t=%d: arm %d, want exploration arm %d", fixed, it, b.Arm(), r)
				}
			}
			// Arm 2 is by far the best: outside the slots it is played.
			x := 0.1
			if b.Arm() == 2 {
				x = 0.9
			}
			if it%266 >= 4 && it > 266 && b.Arm() != 2 {
				t.Fatalf("fixed=%v t=%d: UCB played %d, want the best arm 2", fixed, it, b.Arm())
			}
			b.Update(b.Arm(), x)
		}
		if explored != 20 {
			t.Errorf("explored %d times, want 4 per block", explored)
		}
	}
	// floor(K/epsilon) where K/epsilon is an integer in decimal.
	if p := (Config{K: 4, Epsilon: 0.02}).Period(); p != 200 {
		t.Errorf("floor(4/0.02) = %d, want 200", p)
	}
}

// DR-UCB Alg. 1 line 10: n_i(t) = sum_{tau<=t} gamma^(t-tau) 1(I_tau = i),
// so every arm's count is discounted at every iteration, played or not:
// the total is sum_{tau<=t} gamma^(t-tau) = (1-gamma^(t+1))/(1-gamma),
// and an arm last played at tau0 holds gamma^(t-tau0) times its count then.
func TestDiscountEveryIteration(t *testing.T) {
	const g = 0.9
	b, err := New(Config{K: 3, Epsilon: 0.5, Gamma: g, Xi: 0.6})
	if err != nil {
		t.Fatal(err)
	}
	// t=0,1,2 explore arms 0,1,2 (period floor(3/0.5) = 6).
	for range 3 {
		b.Update(b.Arm(), 1)
	}
	n0 := b.Count(0) // g^2
	if math.Abs(n0-g*g) > 1e-15 {
		t.Fatalf("n_0(2) = %v, want gamma^2 = %v", n0, g*g)
	}
	// Ten more iterations on arm 1 only: arm 0 and arm 2 decay by g each.
	for range 10 {
		b.Update(1, 0.5)
	}
	if got, want := b.Count(0), math.Pow(g, 12); math.Abs(got-want) > 1e-12 {
		t.Errorf("n_0(12) = %v, want gamma^12 = %v", got, want)
	}
	if got, want := b.Count(2), math.Pow(g, 10); math.Abs(got-want) > 1e-12 {
		t.Errorf("n_2(12) = %v, want gamma^10 = %v", got, want)
	}
	if got, want := b.RewardSum(2), math.Pow(g, 10); math.Abs(got-want) > 1e-12 {
		t.Errorf("S_2(12) = %v, want gamma^10 = %v", got, want)
	}
	total := b.Count(0) + b.Count(1) + b.Count(2)
	if want := (1 - math.Pow(g, 13)) / (1 - g); math.Abs(total-want) > 1e-12 {
		t.Errorf("sum n_i(12) = %v, want (1-gamma^13)/(1-gamma) = %v", total, want)
	}
}

// DR-UCB Alg. 1 line 7, by hand for the history of testdata/index.txt:
// K = 2, gamma = 0.5, xi = 0.6, rewards 1 (arm 0), 0.5 (arm 1):
// n = [0.5, 1], S = [0.5, 0.5], sum n = 1.5, ln 1.5 = 0.4054651081,
//
//	index_0 = 0.5/0.5 + sqrt(0.6*0.4054651081/0.5) = 1 + 0.6975371888
//	index_1 = 0.5/1   + sqrt(0.6*0.4054651081/1)   = 0.5 + 0.4932332763
func TestIndexHandComputed(t *testing.T) {
	b, _ := New(Config{K: 2, Epsilon: 0.5, Gamma: 0.5, Xi: 0.6})
	f, _ := NewFixed(Config{K: 2, Epsilon: 0.5, Gamma: 0.5, Xi: 0.6})
	for _, p := range []Policy{b, f} {
		p.Update(0, 1)
		p.Update(1, 0.5)
	}
	want := []float64{1.6975371888, 0.9932332763}
	for i, w := range want {
		if got := b.Index(i); math.Abs(got-w) > 1e-9 {
			t.Errorf("float index_%d = %.10f, want %.10f", i, got, w)
		}
		// Fixed: Q.16 mean and bonus, log2 and sqrt each within a few ulps.
		if got := f.Index(i); math.Abs(got-w) > 3e-4 {
			t.Errorf("fixed index_%d = %.10f, want %.10f", i, got, w)
		}
	}
	if b.Arm() != 0 || f.Arm() != 0 {
		t.Errorf("t=2 plays %d (float) %d (fixed), want arm 0", b.Arm(), f.Arm())
	}
}

// TestConfigErrors checks validation messages.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{K: -1}, "number of arms must be at least 1"},
		{Config{Epsilon: 1}, "epsilon must be in (0, 1)"},
		{Config{Epsilon: -0.1}, "epsilon must be in (0, 1)"},
		{Config{Gamma: 1}, "gamma must be in (0, 1)"},
		{Config{Xi: 0.5}, "xi must be a number > 0.5"},
		{Config{Xi: math.NaN()}, "xi must be a number > 0.5"},
		{Config{Epsilon: 1e-12}, "too large"},
	} {
		if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want %q", tc.cfg, err, tc.want)
		}
	}
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Epsilon: 0.001}, "floor(K/epsilon) = 4000 exceeds 1024"},
		{Config{Gamma: 0.99999}, "gamma 0.99999 too close to 1"},
		{Config{Xi: 2000}, "xi must be at most 1000"},
	} {
		if _, err := NewFixed(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewFixed(%+v) = %v, want %q", tc.cfg, err, tc.want)
		}
	}
}
