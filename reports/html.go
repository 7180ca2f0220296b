package reports

import (
	"bytes"
	"html/template"
	"os"
	"path/filepath"

	"gauntlet/internal/untrusted"
)

// index.html is self-contained: inline style, relative links to the figures
// and tables next to it, no network resource, so it opens from disk.
//
// The inline script at the end checks, once the page has loaded, that every
// <img> has loaded (complete and naturalWidth > 0) and records the result on
// <body>: data-images-total, data-images-loaded, data-images-broken (the
// space-separated src of the images that did not load) and
// data-report-ready="1". Headless browsers (the end-to-end test runs
// chromium --dump-dom) read the verdict from these attributes.
var indexTemplate = template.Must(template.New("index").Funcs(template.FuncMap{"short": shortNums}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; margin: 0; color: #222; background: #f4f5f7; }
header { background: #fff; border-bottom: 1px solid #ddd; padding: 1em 1.5em .6em; }
main { padding: 1em 1.5em 2em; max-width: 110em; margin: 0 auto; }
h1 { font-size: 1.35em; margin: 0 0 .5em; }
h2 { font-size: 1.05em; margin: 0 0 .4em; }
h1, h2, p, dd, figcaption, li { overflow-wrap: anywhere; }
.headline { display: flex; flex-wrap: wrap; gap: .6em; margin: .4em 0; padding: 0; }
.headline div { border: 1px solid #d5d8de; border-radius: 6px; padding: .45em .8em; background: #fafbfc; min-width: 7em; }
.headline dt { font-size: .78em; color: #555; }
.headline dd { margin: 0; font-size: 1.3em; font-weight: bold; font-variant-numeric: tabular-nums; }
#summary { color: #444; font-size: .9em; margin: .4em 0 0; }
.notes { color: #933; font-size: .9em; margin: .4em 0 0; }
.method { font-size: .85em; color: #555; }
#replays ul { display: flex; flex-wrap: wrap; gap: .5em; list-style: none; padding: 0; margin: .3em 0 0; }
#replays li a { display: inline-block; padding: .3em .7em; border-radius: 999px; background: #2f6fd6; color: #fff; text-decoration: none; font-size: .9em; }
#replays li a:hover { background: #1d4fa6; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(30em, 1fr)); gap: 1em; margin: 1em 0; }
.grid.small { grid-template-columns: repeat(auto-fill, minmax(22em, 1fr)); }
figure, section.card { margin: 0; background: #fff; border: 1px solid #dde0e5; border-radius: 6px; padding: .8em; }
figure.wide { grid-column: 1 / -1; }
figure img { width: 100%; height: auto; display: block; }
figcaption { font-size: .85em; color: #444; margin-top: .4em; }
.missing { padding: 1em; border: 1px dashed #c66; color: #933; background: #fff6f6; }
.scroll { max-height: 32em; overflow: auto; }
table { border-collapse: collapse; font-size: .88em; background: #fff; }
th, td { border: 1px solid #d5d8de; padding: .2em .5em; }
th { background: #f0f2f5; position: sticky; top: 0; cursor: pointer; user-select: none; }
th[data-sort="asc"]::after { content: " \25B2"; font-size: .75em; }
th[data-sort="desc"]::after { content: " \25BC"; font-size: .75em; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tfoot td { font-weight: bold; }
.files { font-size: .85em; }
</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
<dl class="headline" id="headline">
{{- range .Headline}}
<div><dt>{{.Label}}</dt><dd>{{.Value}}</dd></div>
{{- end}}
</dl>
<p id="summary">{{short .Summary}}</p>
{{- if .Notes}}
<ul class="notes">
{{- range .Notes}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .Replays}}
<section id="replays">
<ul>
{{- range .Replays}}
<li><a href="{{.File}}" title="watch this game in the replay viewer">&#x25B6; {{.Why}}: {{.Key}}</a></li>
{{- end}}
</ul>
</section>
{{- end}}
</header>
<main>
{{- if .Method}}
<p class="method">{{.Method}}</p>
{{- end}}
<div class="grid">
{{- range .Figures}}{{if not .Small}}
<figure id="fig-{{.Name}}"{{if .Wide}} class="wide"{{end}}>
<h2>{{.Title}}</h2>
{{- if .Missing}}
<div class="missing">Not drawn: {{.Missing}}</div>
{{- else}}
<a href="{{.SVG}}"><img src="{{.PNG}}" alt="{{.Title}}"></a>
{{- end}}
<figcaption>{{short .Caption}}{{if not .Missing}} (<a href="{{.SVG}}">SVG</a>, <a href="{{.PNG}}">PNG</a>){{end}}</figcaption>
</figure>
{{- end}}{{end}}
</div>
<div class="grid small">
{{- range .Figures}}{{if .Small}}
<figure id="fig-{{.Name}}" class="small">
<h2>{{.Title}}</h2>
{{- if .Missing}}
<div class="missing">Not drawn: {{.Missing}}</div>
{{- else}}
<a href="{{.SVG}}"><img src="{{.PNG}}" alt="{{.Title}}"></a>
{{- end}}
<figcaption>{{.Caption}}</figcaption>
</figure>
{{- end}}{{end}}
</div>
{{- range .Tables}}
<section class="card" id="table-{{.Name}}">
<h2>{{short .Table.Title}}</h2>
<p class="files"><a href="{{.Markdown}}">Markdown</a> · <a href="{{.CSV}}">CSV</a> · <a href="{{.Text}}">text</a> · click a column to sort</p>
<div class="scroll">
<table class="sortable">
<thead><tr>{{$t := .Table}}{{$links := .Links}}{{range $i, $h := .Table.Header}}<th{{if index $t.Right $i}} class="num"{{end}}>{{$h}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Table.Rows}}
<tr>{{range $i, $c := .}}<td{{if index $t.Right $i}} class="num"{{end}}>{{if and (eq $i 0) (index $links $c)}}<a href="{{index $links $c}}" title="watch this game">{{$c}}</a>{{else}}{{$c}}{{end}}</td>{{end}}</tr>
{{- end}}
</tbody>
{{- if .Table.Footer}}
<tfoot><tr>{{range $i, $c := .Table.Footer}}<td{{if index $t.Right $i}} class="num"{{end}}>{{$c}}</td>{{end}}</tr></tfoot>
{{- end}}
</table>
</div>
</section>
{{end}}
</main>
<script>
// Sortable tables: a click on a header sorts the body by that column
// (numbers as numbers, the rest as text), a second click reverses.
document.querySelectorAll("table.sortable").forEach(function (t) {
  t.querySelectorAll("thead th").forEach(function (th, col) {
    th.addEventListener("click", function () {
      var dir = th.getAttribute("data-sort") === "asc" ? "desc" : "asc";
      t.querySelectorAll("thead th").forEach(function (o) { o.removeAttribute("data-sort"); });
      th.setAttribute("data-sort", dir);
      var body = t.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      function key(r) {
        var s = r.cells[col] ? r.cells[col].textContent.trim() : "";
        var n = parseFloat(s.replace(/[,\u00a0]/g, ""));
        return Number.isFinite(n) && /^[-+\u2212]?[\d.,]/.test(s) ? n : s;
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b), c;
        if (typeof x === "number" && typeof y === "number") { c = x - y; } else { c = String(x).localeCompare(String(y), undefined, { numeric: true }); }
        return dir === "asc" ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
window.addEventListener("load", function () {
  var imgs = document.images, loaded = 0, broken = [];
  for (var i = 0; i < imgs.length; i++) {
    if (imgs[i].complete && imgs[i].naturalWidth > 0) { loaded++; } else { broken.push(imgs[i].getAttribute("src")); }
  }
  document.body.setAttribute("data-images-total", String(imgs.length));
  document.body.setAttribute("data-images-loaded", String(loaded));
  document.body.setAttribute("data-images-broken", broken.join(" "));
  document.body.setAttribute("data-report-ready", "1");
});
</script>
</body>
</html>
`))

// indexData is what the template sees.
type indexData struct {
	*Report
	Method string
}

// writeIndex renders dir/index.html. html/template escapes markup, but
// lets control characters, bidirectional overrides and bytes that are not
// UTF-8 through: the page goes through untrusted.Text, which escapes them
// and keeps the page's own newlines and tabs.
func writeIndex(dir string, r *Report) error {
	var b bytes.Buffer
	if err := indexTemplate.Execute(&b, indexData{Report: r, Method: r.method}); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.html"), []byte(untrusted.Text(b.String())), 0o644)
}
