package report

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// maxLoad is how long a report may take to open in the browser: the
// 1,000-point sweep's page must be loaded and painted within it.
const maxLoad = 2 * time.Second

// TestChromium opens the reports of a run, a comparison, an estimate, a
// reproduction, a small sweep and a 1,000-point sweep in headless
// Chromium (Debian's chromium, installed by .ci/run) and checks each page
// as a reader would get it.
//
// Console errors are caught through the DevTools protocol, spoken over its
// websocket by the small client below (the page itself has no script and
// its content security policy would block one, so no hook is injected):
// the test fails on Runtime.exceptionThrown, on Runtime.consoleAPICalled of
// type error or assert and on Log.entryAdded of level error, which is
// where Chromium reports a fetch the policy blocked or a resource that did
// not load. After the load event it asks the page (Runtime.evaluate) which
// figures hold an <svg> and which tables are there, and compares them with
// what Build says it wrote; it takes a screenshot (Page.captureScreenshot)
// and checks that it decodes as a PNG and is not blank; and it times the
// 1,000-point sweep from navigation to the second animation frame after
// the load event (laid out and painted).
//
// Without chromium the test is skipped, except on CI (CI=true), where it
// fails.
func TestChromium(t *testing.T) {
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed and CI=true: .ci/run installs it (apt-get install chromium)")
		}
		t.Skip("chromium is not installed (apt-get install chromium): the reports are not checked in a browser")
	}
	dir := t.TempDir()
	repro := filepath.Join(dir, "repro")
	writeReproduction(t, repro)
	pages := []struct {
		name string
		dirs []string
	}{
		{"run", []string{runDir}},
		{"comparison", []string{cmpDir}},
		{"estimate", []string{estDir}},
		{"reproduce", []string{repro}},
		{"sweep", []string{writeSweep(t, filepath.Join(dir, "sw"), 2, 2)}},
		{"sweep1000", []string{largeSweep(t)}},
		{"all", []string{runDir, cmpDir, estDir, repro, filepath.Join(dir, "sw")}},
	}

	b, err := startBrowser(t, bin, filepath.Join(dir, "profile"))
	if err != nil {
		t.Fatal(err)
	}
	// The detector detects: a page whose fetch the report's policy
	// blocks and whose script throws must give console errors.
	canary := filepath.Join(dir, "canary.html")
	head := regexp.MustCompile(`(?s)<head>.*?<title>`).FindString(mustBuild(t, runDir))
	if err := os.WriteFile(canary, []byte("<!DOCTYPE html><html>"+head+"canary</title></head><body><img src=\"http://127.0.0.1:9/x.png\"><script>undefinedFn()</script></body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := b.open("file://" + filepath.ToSlash(canary)); err != nil {
		t.Fatal(err)
	} else if len(got.errors) == 0 {
		t.Fatal("a page with a blocked fetch and a blocked script gave no console error: the detector is blind")
	} else {
		t.Logf("canary page: %d console errors caught, first: %s", len(got.errors), got.errors[0])
	}

	for _, pg := range pages {
		path := filepath.Join(dir, pg.name+".html")
		res, err := Write(path, pg.dirs, Options{Generator: testGen})
		if err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(path)
		got, err := b.open("file://" + filepath.ToSlash(abs))
		if err != nil {
			t.Fatalf("%s: %v", pg.name, err)
		}
		t.Logf("%s: %d bytes, %d figures, %d tables, loaded and painted in %v (load event at %.0f ms), screenshot %d bytes",
			pg.name, res.Bytes, len(res.Figures), len(res.Tables), got.painted, got.LoadMs, len(got.png))
		for _, e := range got.errors {
			t.Errorf("%s: console: %s", pg.name, e)
		}
		if got.Title == "" || !strings.HasPrefix(got.Title, "ccreplay report") {
			t.Errorf("%s: page title %q: not loaded", pg.name, got.Title)
		}
		if !slices.Equal(got.Figures, res.Figures) {
			t.Errorf("%s: figures with an svg in the browser %v, want %v", pg.name, got.Figures, res.Figures)
		}
		if !slices.Equal(got.Tables, res.Tables) {
			t.Errorf("%s: tables in the browser %v, want %v", pg.name, got.Tables, res.Tables)
		}
		if len(res.Figures) == 0 || len(res.Tables) == 0 {
			t.Errorf("%s: %d figures, %d tables", pg.name, len(res.Figures), len(res.Tables))
		}
		if err := notBlank(got.png); err != nil {
			t.Errorf("%s: screenshot: %v", pg.name, err)
		}
		if pg.name == "sweep1000" && got.painted > maxLoad {
			t.Errorf("the 1,000-point sweep's report took %v to load and paint, more than %v", got.painted, maxLoad)
		}
		if pg.name == "all" {
			if n, err := b.checkPrint(); err != nil {
				t.Errorf("print: %v", err)
			} else {
				t.Logf("all, printed: navigation hidden, every section rendered, PDF of %d bytes", n)
			}
		}
		if os.Getenv("CCREPLAY_REPORT_SCREENSHOTS") != "" {
			_ = os.WriteFile(filepath.Join(os.Getenv("CCREPLAY_REPORT_SCREENSHOTS"), pg.name+".png"), got.png, 0o644)
		}
	}
}

func mustBuild(t *testing.T, dirs ...string) string {
	t.Helper()
	b, _, err := Build(dirs, Options{Generator: testGen})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkPrint emulates print media on the loaded page: the navigation is
// hidden, every section is rendered (not skipped as off-screen), and the
// page prints to a PDF.
func (b *browser) checkPrint() (pdfBytes int, err error) {
	if _, err := b.call("Emulation.setEmulatedMedia", map[string]any{"media": "print"}); err != nil {
		return 0, err
	}
	defer func() { _, _ = b.call("Emulation.setEmulatedMedia", map[string]any{"media": ""}) }()
	res, err := b.call("Runtime.evaluate", map[string]any{"returnByValue": true, "expression": `JSON.stringify({
  nav: getComputedStyle(document.querySelector("nav")).display,
  cv: [...document.querySelectorAll("section, figure, .tw")].map(e => getComputedStyle(e).contentVisibility).filter(v => v !== "visible").length})`})
	if err != nil {
		return 0, err
	}
	var ev struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	var got struct {
		Nav string `json:"nav"`
		CV  int    `json:"cv"`
	}
	if err := json.Unmarshal(res, &ev); err != nil {
		return 0, err
	}
	if err := json.Unmarshal([]byte(ev.Result.Value), &got); err != nil {
		return 0, fmt.Errorf("%v (%q)", err, ev.Result.Value)
	}
	if got.Nav != "none" || got.CV != 0 {
		return 0, fmt.Errorf("print media: nav display %q, %d elements still skipped when off-screen", got.Nav, got.CV)
	}
	pdf, err := b.call("Page.printToPDF", map[string]any{})
	if err != nil {
		return 0, err
	}
	var pd struct {
		Data string `json:"data"`
	}
	if err := json.Unmarshal(pdf, &pd); err != nil {
		return 0, err
	}
	raw, err := base64.StdEncoding.DecodeString(pd.Data)
	if err != nil || !bytes.HasPrefix(raw, []byte("%PDF")) {
		return 0, fmt.Errorf("printToPDF gave no PDF (%d bytes, %v)", len(raw), err)
	}
	return len(raw), nil
}

// notBlank decodes a PNG and wants more than one colour in it, and some
// dark pixels (text, axes).
func notBlank(b []byte) error {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return err
	}
	r := img.Bounds()
	if r.Dx() < 100 || r.Dy() < 100 {
		return fmt.Errorf("%dx%d pixels", r.Dx(), r.Dy())
	}
	colours := map[[3]uint32]bool{}
	dark := 0
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			colours[[3]uint32{cr >> 8, cg >> 8, cb >> 8}] = true
			if cr+cg+cb < 3*0x4000 {
				dark++
			}
		}
	}
	if len(colours) < 3 || dark < 100 {
		return fmt.Errorf("blank: %d colours, %d dark pixels", len(colours), dark)
	}
	return nil
}

// browser is a headless Chromium and a DevTools connection to its page.
type browser struct {
	t    *testing.T
	ws   *wsConn
	next int
	evs  []cdpMessage
}

type cdpMessage struct {
	ID     int             `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// startBrowser starts bin headless with a DevTools port of its choosing
// and connects to its first page.
func startBrowser(t *testing.T, bin, profile string) (*browser, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-extensions", "--hide-scrollbars", "--window-size=1200,900", "--remote-debugging-port=0",
		"--user-data-dir="+profile, "about:blank")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, err
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	var wsURL string
	select {
	case wsURL = <-found:
	case <-time.After(60 * time.Second):
		return nil, errors.New("chromium did not print its DevTools address within 60 s")
	}
	u, err := url.Parse(wsURL)
	if err != nil {
		return nil, err
	}
	// The page target's own websocket.
	var targets []struct {
		Type string `json:"type"`
		WS   string `json:"webSocketDebuggerUrl"`
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + u.Host + "/json/list")
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
		}
		if err == nil && slices.ContainsFunc(targets, func(x struct {
			Type string `json:"type"`
			WS   string `json:"webSocketDebuggerUrl"`
		}) bool {
			return x.Type == "page"
		}) {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no page target at %s: %v", u.Host, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	var pageWS string
	for _, x := range targets {
		if x.Type == "page" {
			pageWS = x.WS
			break
		}
	}
	ws, err := dialWS(pageWS)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { ws.c.Close() })
	b := &browser{t: t, ws: ws}
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		if _, err := b.call(m, nil); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// call sends a command and waits for its answer, keeping the events that
// arrive meanwhile.
func (b *browser) call(method string, params any) (json.RawMessage, error) {
	b.next++
	id := b.next
	msg, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	if err := b.ws.write(msg); err != nil {
		return nil, err
	}
	for {
		m, err := b.read(60 * time.Second)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		if m.ID == id {
			if m.Error != nil {
				return nil, fmt.Errorf("%s: %s", method, m.Error.Message)
			}
			return m.Result, nil
		}
	}
}

func (b *browser) read(timeout time.Duration) (cdpMessage, error) {
	_ = b.ws.c.SetReadDeadline(time.Now().Add(timeout))
	raw, err := b.ws.read()
	if err != nil {
		return cdpMessage{}, err
	}
	var m cdpMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return cdpMessage{}, err
	}
	if m.Method != "" {
		b.evs = append(b.evs, m)
	}
	return m, nil
}

// waitEvent waits for the event method (kept or still to come).
func (b *browser) waitEvent(method string, timeout time.Duration) error {
	end := time.Now().Add(timeout)
	for {
		for _, e := range b.evs {
			if e.Method == method {
				return nil
			}
		}
		left := time.Until(end)
		if left <= 0 {
			return fmt.Errorf("no %s within %v", method, timeout)
		}
		if _, err := b.read(left); err != nil {
			return fmt.Errorf("waiting for %s: %w", method, err)
		}
	}
}

// opened is what the browser made of a page.
type opened struct {
	Title   string   `json:"title"`
	Figures []string `json:"figures"`
	Tables  []string `json:"tables"`
	LoadMs  float64  `json:"loadMs"`
	painted time.Duration
	errors  []string
	png     []byte
}

// inspect is evaluated in the page once it is loaded and painted.
const inspect = `new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  done(JSON.stringify({
    title: document.title,
    figures: [...document.querySelectorAll("figure")].filter(f => f.querySelector("svg path, svg circle, svg rect")).map(f => f.id),
    tables: [...document.querySelectorAll("table")].filter(t => t.rows.length > 1).map(t => t.id),
    loadMs: nav ? nav.loadEventEnd : -1,
  }));
})))`

// open navigates to u, waits for the load event and the second animation
// frame after it, and collects the page's state, errors and a screenshot.
func (b *browser) open(u string) (*opened, error) {
	b.evs = b.evs[:0]
	start := time.Now()
	if _, err := b.call("Page.navigate", map[string]any{"url": u}); err != nil {
		return nil, err
	}
	if err := b.waitEvent("Page.loadEventFired", 60*time.Second); err != nil {
		return nil, err
	}
	res, err := b.call("Runtime.evaluate", map[string]any{"expression": inspect, "awaitPromise": true, "returnByValue": true})
	if err != nil {
		return nil, err
	}
	o := &opened{painted: time.Since(start)}
	var ev struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &ev); err != nil {
		return nil, err
	}
	if ev.ExceptionDetails != nil {
		return nil, fmt.Errorf("inspecting the page: %s", ev.ExceptionDetails)
	}
	if err := json.Unmarshal([]byte(ev.Result.Value), o); err != nil {
		return nil, fmt.Errorf("inspecting the page: %v (%q)", err, ev.Result.Value)
	}
	shot, err := b.call("Page.captureScreenshot", map[string]any{"format": "png"})
	if err != nil {
		return nil, err
	}
	var sc struct {
		Data string `json:"data"`
	}
	if err := json.Unmarshal(shot, &sc); err != nil {
		return nil, err
	}
	if o.png, err = base64.StdEncoding.DecodeString(sc.Data); err != nil {
		return nil, err
	}
	for _, e := range b.evs {
		switch e.Method {
		case "Runtime.exceptionThrown":
			o.errors = append(o.errors, "exception: "+string(e.Params))
		case "Runtime.consoleAPICalled":
			var p struct {
				Type string `json:"type"`
			}
			_ = json.Unmarshal(e.Params, &p)
			if p.Type == "error" || p.Type == "assert" {
				o.errors = append(o.errors, "console."+p.Type+": "+string(e.Params))
			}
		case "Log.entryAdded":
			var p struct {
				Entry struct {
					Level, Text, Source string
				} `json:"entry"`
			}
			_ = json.Unmarshal(e.Params, &p)
			if p.Entry.Level == "error" {
				o.errors = append(o.errors, p.Entry.Source+": "+p.Entry.Text)
			}
		}
	}
	return o, nil
}

// wsConn is the client end of a websocket (RFC 6455), enough for the
// DevTools protocol: text frames, fragmented or not, ping answered.
type wsConn struct {
	c net.Conn
	r *bufio.Reader
}

func dialWS(raw string) (*wsConn, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	c, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		return nil, err
	}
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	req := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
		u.RequestURI(), u.Host, base64.StdEncoding.EncodeToString(key))
	if _, err := io.WriteString(c, req); err != nil {
		c.Close()
		return nil, err
	}
	r := bufio.NewReaderSize(c, 1<<16)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		c.Close()
		return nil, fmt.Errorf("websocket handshake: %s", resp.Status)
	}
	return &wsConn{c: c, r: r}, nil
}

// write sends one masked text frame.
func (w *wsConn) write(p []byte) error {
	hdr := []byte{0x81}
	switch n := len(p); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	mask := make([]byte, 4)
	_, _ = rand.Read(mask)
	hdr = append(hdr, mask...)
	body := make([]byte, len(p))
	for i := range p {
		body[i] = p[i] ^ mask[i%4]
	}
	_, err := w.c.Write(append(hdr, body...))
	return err
}

// read returns the next whole message.
func (w *wsConn) read() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(w.r, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var e [2]byte
			if _, err := io.ReadFull(w.r, e[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(e[:]))
		case 127:
			var e [8]byte
			if _, err := io.ReadFull(w.r, e[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(e[:])
		}
		var mask []byte
		if h[1]&0x80 != 0 {
			mask = make([]byte, 4)
			if _, err := io.ReadFull(w.r, mask); err != nil {
				return nil, err
			}
		}
		if n > 256<<20 {
			return nil, fmt.Errorf("websocket frame of %d bytes", n)
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(w.r, p); err != nil {
			return nil, err
		}
		if mask != nil {
			for i := range p {
				p[i] ^= mask[i%4]
			}
		}
		switch op {
		case 0x8:
			return nil, errors.New("websocket closed by the browser")
		case 0x9: // ping: answer with a pong of the same payload (masked)
			pong := []byte{0x8a, 0x80 | byte(len(p))}
			pong = append(pong, 0, 0, 0, 0)
			if _, err := w.c.Write(append(pong, p...)); err != nil {
				return nil, err
			}
			continue
		case 0xa:
			continue
		}
		msg = append(msg, p...)
		if fin {
			return msg, nil
		}
	}
}
