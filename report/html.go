package report

import (
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/plot"
)

// page accumulates the HTML of the report and what it holds.
type page struct {
	b    strings.Builder
	res  *Result
	nFig int
	nTab int
	toc  []tocEntry
}

type tocEntry struct{ id, title string }

// css is the whole style sheet: plain, readable in print (no background,
// figures and tables kept whole on a page, links spelled out).
const css = `
body{font-family:sans-serif;margin:0 auto;max-width:1100px;padding:0 1.2em 3em;color:#111;line-height:1.4}
h1{font-size:1.6em;margin:.8em 0 .2em}
h2{font-size:1.3em;border-bottom:2px solid #333;margin-top:1.8em}
h3{font-size:1.1em;margin-top:1.4em}
code,pre{font-family:monospace;font-size:.92em}
pre{background:#f4f4f4;padding:.5em;overflow-x:auto;white-space:pre-wrap}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:.9em}
caption{text-align:left;font-weight:bold;padding:.3em 0}
th,td{border:1px solid #bbb;padding:.2em .5em;vertical-align:top}
th{background:#eee;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.tw{overflow-x:auto}
section{content-visibility:auto;contain-intrinsic-size:auto 3000px}
figure,.tw{content-visibility:auto;contain-intrinsic-size:auto 500px}
figure{margin:1em 0}
figure svg{max-width:100%;height:auto}
figcaption{font-size:.9em;color:#333}
.warn{border-left:4px solid #b35900;padding:.2em .8em;background:#fff6ee}
.verdict-reproduces{font-weight:bold}
.verdict-differs{font-weight:bold;text-decoration:underline}
nav ul{columns:2}
@media print{
 body{max-width:none;padding:0;font-size:10pt}
 nav{display:none}
 h2{break-after:avoid}
 figure,table{break-inside:avoid}
 .tw{overflow:visible}
 section,figure,.tw{content-visibility:visible}
 pre,th,.warn{background:none}
 a[href^="#"]{text-decoration:none;color:inherit}
}
`

// section starts an <h2> section with an id for the table of contents.
func (p *page) section(id, title string) {
	p.toc = append(p.toc, tocEntry{id, title})
	p.res.Sections = append(p.res.Sections, id)
	fmt.Fprintf(&p.b, "<section id=\"%s\">\n<h2>%s</h2>\n", id, esc(title))
}

func (p *page) endSection() { p.b.WriteString("</section>\n") }

func (p *page) h3(title string) { fmt.Fprintf(&p.b, "<h3>%s</h3>\n", esc(title)) }

// para writes a paragraph of plain text.
func (p *page) para(text string) { fmt.Fprintf(&p.b, "<p>%s</p>\n", esc(text)) }

// raw writes HTML as it is (callers escape).
func (p *page) raw(s string) { p.b.WriteString(s) }

// warnings writes a "Warnings" heading and under it ws in a box, kept in
// the report's Result, or the paragraph none when there are none.
func (p *page) warnings(ws []string, none string) {
	p.h3("Warnings")
	if len(ws) == 0 {
		p.para(none)
		return
	}
	p.res.Warnings = append(p.res.Warnings, ws...)
	p.b.WriteString("<div class=\"warn\"><ul>\n")
	for _, w := range ws {
		fmt.Fprintf(&p.b, "<li>%s</li>\n", esc(w))
	}
	p.b.WriteString("</ul></div>\n")
}

// table writes a real <table>: a caption, a header row and rows of text
// cells; cells of the columns in numeric are right-aligned (their text,
// with the unit, is what `ccreplay metrics` prints, so a copy into a
// spreadsheet keeps it). The first column is a row header.
func (p *page) table(caption string, header []string, rows [][]string, numeric func(col int) bool) string {
	p.nTab++
	id := fmt.Sprintf("tab-%d", p.nTab)
	p.res.Tables = append(p.res.Tables, id)
	fmt.Fprintf(&p.b, "<div class=\"tw\"><table id=\"%s\">\n<caption>%s</caption>\n<thead><tr>", id, esc(caption))
	for _, h := range header {
		fmt.Fprintf(&p.b, "<th scope=\"col\">%s</th>", esc(h))
	}
	p.b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range rows {
		p.b.WriteString("<tr>")
		for c, v := range r {
			switch {
			case c == 0:
				fmt.Fprintf(&p.b, "<th scope=\"row\">%s</th>", esc(v))
			case numeric != nil && numeric(c):
				fmt.Fprintf(&p.b, "<td class=\"n\">%s</td>", esc(v))
			default:
				fmt.Fprintf(&p.b, "<td>%s</td>", esc(v))
			}
		}
		p.b.WriteString("</tr>\n")
	}
	p.b.WriteString("</tbody>\n</table></div>\n")
	return id
}

// allNumeric right-aligns every column but the first.
func allNumeric(int) bool { return true }

// figure writes fig as an inline SVG in a <figure> with its notes as the
// caption.
func (p *page) figure(fig *plot.Figure) string {
	p.nFig++
	id := fmt.Sprintf("fig-%d", p.nFig)
	p.res.Figures = append(p.res.Figures, id)
	fmt.Fprintf(&p.b, "<figure id=\"%s\" data-view=\"%s\">\n", id, esc(fig.Name))
	p.b.WriteString(svgFigure(id+"-svg", fig))
	p.b.WriteString("\n<figcaption>")
	fmt.Fprintf(&p.b, "Figure %d. %s.", p.nFig, esc(fig.Title))
	for _, n := range fig.Notes {
		if n = strings.TrimSuffix(n, "."); n != "" {
			n = strings.ToUpper(n[:1]) + n[1:]
		}
		fmt.Fprintf(&p.b, " %s.", esc(n))
	}
	p.b.WriteString("</figcaption>\n</figure>\n")
	return id
}

// html assembles the document: head with the style sheet and a content
// security policy that forbids every fetch and every script, the title,
// the table of contents, then the body written so far.
func (p *page) html(title, intro string) []byte {
	var o strings.Builder
	o.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	o.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n")
	o.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&o, "<meta name=\"generator\" content=\"%s\">\n", esc(p.res.Generator))
	fmt.Fprintf(&o, "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n", esc(title), css)
	fmt.Fprintf(&o, "<h1>%s</h1>\n%s", esc(title), intro)
	if len(p.toc) > 1 {
		o.WriteString("<nav><ul>\n")
		for _, t := range p.toc {
			fmt.Fprintf(&o, "<li><a href=\"#%s\">%s</a></li>\n", t.id, esc(t.title))
		}
		o.WriteString("</ul></nav>\n")
	}
	o.WriteString(p.b.String())
	o.WriteString("</body>\n</html>\n")
	return []byte(o.String())
}
