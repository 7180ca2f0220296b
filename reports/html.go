package reports

import (
	"bytes"
	"html/template"
	"os"
	"path/filepath"
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
var indexTemplate = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; margin: 1.5em auto; max-width: 70em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; }
h1, h2, p, dd, figcaption { overflow-wrap: anywhere; }
.headline { display: flex; flex-wrap: wrap; gap: .8em; margin: 1em 0; padding: 0; }
.headline div { border: 1px solid #ccc; border-radius: 4px; padding: .5em .8em; background: #f7f7f7; }
.headline dt { font-size: .8em; color: #555; }
.headline dd { margin: 0; font-size: 1.3em; font-weight: bold; }
figure { margin: 1.5em 0; }
figure.small { display: inline-block; width: 48%; margin: .5em 1% .5em 0; vertical-align: top; }
figure.small h2 { font-size: 1em; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: .9em; color: #444; }
.missing { padding: 1em; border: 1px dashed #c66; color: #933; background: #fff6f6; }
table { border-collapse: collapse; margin: .5em 0 1.5em; font-size: .9em; }
th, td { border: 1px solid #ccc; padding: .2em .5em; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tfoot td { font-weight: bold; }
.notes { color: #933; }
.method { font-size: .9em; color: #444; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<dl class="headline" id="headline">
{{- range .Headline}}
<div><dt>{{.Label}}</dt><dd>{{.Value}}</dd></div>
{{- end}}
</dl>
<p id="summary">{{.Summary}}</p>
{{- if .Notes}}
<ul class="notes">
{{- range .Notes}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .Method}}
<p class="method">{{.Method}}</p>
{{- end}}
{{- if .Replays}}
<section id="replays">
<h2>Watch</h2>
<ul>
{{- range .Replays}}
<li><a href="{{.File}}">{{.Why}}: {{.Key}}</a></li>
{{- end}}
</ul>
</section>
{{- end}}
{{range .Figures}}
<figure id="fig-{{.Name}}"{{if .Small}} class="small"{{end}}>
<h2>{{.Title}}</h2>
{{- if .Missing}}
<div class="missing">Not drawn: {{.Missing}}</div>
{{- else}}
<a href="{{.SVG}}"><img src="{{.PNG}}" alt="{{.Title}}"></a>
{{- end}}
<figcaption>{{.Caption}}{{if not .Missing}} (<a href="{{.SVG}}">SVG</a>, <a href="{{.PNG}}">PNG</a>){{end}}</figcaption>
</figure>
{{end}}
{{- range .Tables}}
<section id="table-{{.Name}}">
<h2>{{.Table.Title}}</h2>
<p><a href="{{.Markdown}}">Markdown</a> · <a href="{{.CSV}}">CSV</a> · <a href="{{.Text}}">text</a></p>
<table>
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
</section>
{{end}}
<script>
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

// writeIndex renders dir/index.html.
func writeIndex(dir string, r *Report) error {
	var b bytes.Buffer
	if err := indexTemplate.Execute(&b, indexData{Report: r, Method: r.method}); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.html"), b.Bytes(), 0o644)
}
