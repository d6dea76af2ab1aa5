import FolioJinja
import Foundation

/// Folio's Jinja engine (FolioJinja) against Jinja2 and MiniJinja (its Python package), in one run: compiling and
/// rendering a generated set of 300 Jinja files (the size and shape of the `templates` suite's 300×40 Mustache set)
/// and one loop- and filter-heavy page. Folio is timed in-process; each peer in one Python process of its own
/// (`Benchmarks/jinja_peer.py`, time.perf_counter), on the same files and the same JSON variables. Every figure is a
/// median of `--n` runs (default 30); a run compiles every file of a set, then renders them all; the peers time theirs
/// after a warm-up run, Folio half of its runs before the peers and half after, each half after a warm-up run.
/// Folio's outputs are compared byte for byte with Jinja2's.
func jinjaSuite(_ bench: Bench) throws {
    let runs = max(1, bench.option("--n", default: 30))
    let sets = try generateJinjaSets(in: bench.work)

    // Folio, in this process: half of the runs before the peers and half after them (so that a busy spell of the
    // machine while the peers run weighs on Folio's figures too), each half after a warm-up run as the driver does.
    let environment = JinjaEnvironment()
    struct Samples { var compile: [Double] = [], render: [Double] = [], total: [Double] = [] }
    var samples: [String: Samples] = [:]
    var folioOutputs: [String: [(String, String)]] = [:]
    var inputs: [String: (sources: [(String, String)], context: JinjaValue)] = [:]
    for set in sets { inputs[set.name] = (try set.sources(), try JinjaValue(json: Array(try Data(contentsOf: set.context)))) }
    func measureFolio(_ count: Int) throws {
        for set in sets {
            guard let (sources, context) = inputs[set.name] else { continue }
            var s = samples[set.name] ?? Samples()
            var outputs: [String] = []
            for run in 0...count {
                var templates: [JinjaTemplate] = []
                templates.reserveCapacity(sources.count)
                let compile = try time {
                    for (name, source) in sources { templates.append(try JinjaTemplate(source: source, name: name, environment: environment)) }
                }
                var rendered: [String] = []
                rendered.reserveCapacity(templates.count)
                let render = try time {
                    for template in templates { rendered.append(try template.render(context: context)) }
                }
                outputs = rendered
                if run == 0 { continue }  // warm-up
                s.compile.append(compile * 1000)
                s.render.append(render * 1000)
                s.total.append((compile + render) * 1000)
            }
            samples[set.name] = s
            folioOutputs[set.name] = zip(sources.map(\.0), outputs).map { ($0, $1) }
        }
    }
    try measureFolio((runs + 1) / 2)

    // The peers, one Python process each, one after the other.
    let python = jinjaPeerPython()
    var peers: [(name: String, label: String, report: JinjaPeerReport?, why: String)] = []
    for peer in ["jinja2", "minijinja"] {
        let label = peer == "jinja2" ? "Jinja2" : "MiniJinja"
        guard let python, let driver = jinjaPeerDriver() else {
            let why = python == nil
                ? "no Python: set FOLIO_BENCH_PYTHON or python3 -m venv Benchmarks/.venv && Benchmarks/.venv/bin/pip install jinja2==3.1.6 minijinja"
                : "Benchmarks/jinja_peer.py not found (run from the repository)"
            peers.append((peer, label, nil, why))
            continue
        }
        var arguments = [driver, "--peer", peer, "--n", String(runs)]
        for set in sets { arguments += ["--set", set.name, set.folder.path, set.context.path, set.peerOutput(peer).path] }
        let errors = bench.work.appendingPathComponent("\(peer)-stderr.txt")
        var env = bench.environment
        env["JINJA_PEER_STDERR"] = errors.path
        // stderr to a file (run() sends it to /dev/null), so that a failing driver can say why.
        let (status, output) = try run("/bin/sh", ["-c", "exec \"$0\" \"$@\" 2>\"$JINJA_PEER_STDERR\"", python] + arguments, env: env)
        if status == 0, let report = try? JSONDecoder().decode(JinjaPeerReport.self, from: output) {
            peers.append((peer, label, report, ""))
        } else {
            let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            let last = stderr.split(separator: "\n").last.map(String.init) ?? "exit \(status)"
            peers.append((peer, label, nil, "\(python) \(driver) --peer \(peer) failed: \(last)"))
        }
    }

    if runs / 2 > 0 { try measureFolio(runs / 2) }
    var folio: [String: JinjaTimings] = [:]
    for set in sets {
        guard let s = samples[set.name], let out = folioOutputs[set.name] else { continue }
        folio[set.name] = JinjaTimings(compile: median(s.compile), render: median(s.render), total: median(s.total),
                                       outputBytes: out.reduce(0) { $0 + $1.1.utf8.count }, files: out.count)
    }

    // Outputs: Folio's against Jinja2's, byte for byte (and MiniJinja's against Jinja2's, for the note).
    if let jinja2 = peers.first(where: { $0.name == "jinja2" }), jinja2.report != nil {
        var identical = 0, total = 0, firstDifference: String?
        var miniIdentical = 0, miniTotal = 0
        let haveMini = peers.contains { $0.name == "minijinja" && $0.report != nil }
        for set in sets {
            for (name, text) in folioOutputs[set.name] ?? [] {
                total += 1
                let expected = try? Data(contentsOf: set.peerOutput("jinja2").appendingPathComponent(name))
                if expected == Data(text.utf8) {
                    identical += 1
                } else if firstDifference == nil {
                    firstDifference = "\(set.name)/\(name)" + jinjaFirstDifference(Data(text.utf8), expected)
                }
                if haveMini, let expected {
                    miniTotal += 1
                    if (try? Data(contentsOf: set.peerOutput("minijinja").appendingPathComponent(name))) == expected { miniIdentical += 1 }
                }
            }
        }
        var note = "files whose Folio output is byte-identical to Jinja2's"
        if haveMini { note += "; MiniJinja's identical to Jinja2's: \(miniIdentical) of \(miniTotal)" }
        bench.record("outputs identical to Jinja2's", folio: Double(identical), peer: "files", Double(total), unit: "files", higherIsBetter: true,
                     note: note)
        if let firstDifference { print("  first differing file: \(firstDifference)") }
    } else {
        print("  outputs not compared: no Jinja2 outputs")
    }

    for peer in peers where peer.report == nil {
        bench.record("\(peer.label) peer", folio: 0, peer: "unavailable", 0, unit: "ms", higherIsBetter: false, note: "no \(peer.label) figures: \(peer.why)")
    }
    let versions = peers.compactMap { p in p.report.map { "\(p.label) \($0.version)" } }.joined(separator: ", ")
    let pythonVersion = peers.compactMap(\.report).first?.python ?? ""
    for set in sets {
        guard let f = folio[set.name] else { continue }
        let what = set.name == "files" ? "\(f.files) files" : "page"
        for (phase, target) in [("compile", ""), ("render", "target: faster than MiniJinja"), ("compile+render", "target vs Jinja2: ratio ≥ 10")] {
            let available = peers.filter { $0.report?.sets[set.name] != nil }
            if available.isEmpty {
                bench.record("\(phase) \(what)", folio: f.value(phase), peer: "no peer", 0, unit: "ms", higherIsBetter: false, note: "median of \(runs)")
            }
            for peer in available {
                guard let report = peer.report, let p = report.sets[set.name] else { continue }
                var notes = ["median of \(runs) (Folio: \((runs + 1) / 2) before the peers, \(runs / 2) after)"]
                if phase == "render" { notes.append("\(f.outputBytes / 1024) KB out (\(peer.label) \(p.output_bytes / 1024) KB)") }
                if phase == "render" && peer.name == "minijinja" || phase == "compile+render" && peer.name == "jinja2" { notes.append(target) }
                if phase == "render" && peer.name == "minijinja" { notes.append("MiniJinja's time includes its Python binding's call and context conversion") }
                bench.record("\(phase) \(what) vs \(peer.label)", folio: f.value(phase), peer: "\(peer.label) \(report.version)", p.value(phase), unit: "ms",
                             higherIsBetter: false, note: notes.joined(separator: "; "))
            }
        }
    }
    if let python {
        let setArguments = sets.map { "--set \($0.name) DIR/\($0.folder.lastPathComponent) DIR/\($0.context.lastPathComponent) OUT/\($0.name)" }
        bench.reproduceWith("\(python) Benchmarks/jinja_peer.py --peer jinja2|minijinja --n \(runs) " + setArguments.joined(separator: " ")
                            + "  # DIR: the files folio-bench jinja --keep writes" + (versions.isEmpty ? "" : "; \(versions), Python \(pythonVersion)"))
    }
}

/// One set of templates: a folder of sources, its variables as JSON, and where the peers write their outputs.
struct JinjaSet {
    let name: String
    let folder: URL
    let context: URL
    let outputs: URL

    func peerOutput(_ peer: String) -> URL { outputs.appendingPathComponent("\(peer)/\(name)") }

    /// The sources, sorted by file name (as the driver reads them).
    func sources() throws -> [(String, String)] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            (name, try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
        }
    }
}

struct JinjaTimings {
    let compile: Double, render: Double, total: Double, outputBytes: Int, files: Int
    func value(_ phase: String) -> Double { phase == "compile" ? compile : phase == "render" ? render : total }
}

struct JinjaPeerReport: Decodable {
    struct SetTimings: Decodable {
        let files: Int
        let output_bytes: Int
        let compile_median_ms: Double
        let render_median_ms: Double
        let total_median_ms: Double
        func value(_ phase: String) -> Double { phase == "compile" ? compile_median_ms : phase == "render" ? render_median_ms : total_median_ms }
    }
    let peer: String
    let version: String
    let python: String
    let sets: [String: SetTimings]
}

/// The Python that runs the peers: `FOLIO_BENCH_PYTHON`, else `Benchmarks/.venv/bin/python3` (from the current folder,
/// then beside this source file); nil when neither is there.
func jinjaPeerPython() -> String? {
    if let python = ProcessInfo.processInfo.environment["FOLIO_BENCH_PYTHON"], !python.isEmpty { return python }
    return jinjaBenchmarksFolders().map { $0 + "/.venv/bin/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// `Benchmarks/jinja_peer.py`, from the current folder, then beside this source file.
func jinjaPeerDriver() -> String? {
    jinjaBenchmarksFolders().map { $0 + "/jinja_peer.py" }.first { FileManager.default.fileExists(atPath: $0) }
}

private func jinjaBenchmarksFolders() -> [String] {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
    return [FileManager.default.currentDirectoryPath + "/Benchmarks", here]
}

/// Where two outputs first differ, as " (line N: folio «…», jinja2 «…»)".
private func jinjaFirstDifference(_ folio: Data, _ jinja2: Data?) -> String {
    guard let jinja2 else { return " (no Jinja2 output)" }
    let a = String(decoding: folio, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let b = String(decoding: jinja2, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    for i in 0..<max(a.count, b.count) {
        let x = i < a.count ? String(a[i]) : "<end>", y = i < b.count ? String(b[i]) : "<end>"
        if x != y { return " (line \(i + 1): folio «\(x.prefix(120))», jinja2 «\(y.prefix(120))»)" }
    }
    return ""
}

/// Writes the two sets: `jinja-files/` (300 files of about 40 lines: variables, if/elif/else, for loops with
/// `loop.index`, filters lower/upper/replace/default/join/trim/length, whitespace control) with `jinja-files.json`,
/// and `jinja-page/page.txt` (one page: nested loops over 300 items in 12 categories, macros, `set` and a namespace,
/// filters and string methods) with `jinja-page.json`. Deterministic: the same bytes on every run.
func generateJinjaSets(in root: URL, files: Int = 300, lines: Int = 40) throws -> [JinjaSet] {
    let fm = FileManager.default
    let outputs = root.appendingPathComponent("jinja-outputs")
    let filesFolder = root.appendingPathComponent("jinja-files")
    let pageFolder = root.appendingPathComponent("jinja-page")
    try fm.createDirectory(at: filesFolder, withIntermediateDirectories: true)
    try fm.createDirectory(at: pageFolder, withIntermediateDirectories: true)

    for f in 0..<files {
        var text = "{#- file \(f) of the jinja benchmark -#}\n# {{ project_name }}, part \(f)\n"
        for l in 0..<lines - 2 {
            switch (l + f) % 10 {
            case 0: text += "{% if use_feature %}feature block \(l) of {{ project_name }}{% else %}no feature \(l){% endif %}\n"
            case 1: text += "line \(l) of {{ project_name }} by {{ author }}, version {{ version }}\n"
            case 2: text += "slug \(l): {{ project_name | lower | replace(\" \", \"-\") }}-\(f)\n"
            case 3: text += "{{ license | default(\"MIT\") }} and {{ missing | default(\"default \(l)\") }}, {{ author | default(\"nobody\") }}\n"
            case 4: text += "tags \(l): {{ tags | join(\", \") }} ({{ tags | length }})\n"
            case 5:
                text += "modules \(l):\n{%- for m in modules %}\n  {{ loop.index }}/{{ loop.length }} {{ m.name | trim | lower }}"
                text += "{% if m.enabled %} (on){% endif %}{% if not loop.last %},{% endif %}\n{%- endfor %}\n"
            case 6: text += "description \(l): {{ description | trim }}\n"
            case 7:
                text += "{% if count > \(l % 9) %}count {{ count }} > \(l % 9){% elif count == \(l % 9) %}count is \(l % 9)"
                text += "{% else %}count {{ count }} < \(l % 9){% endif %}\n"
            case 8: text += "{{ author | upper }} {{ version | replace(\".\", \"_\") }} file \(f) line \(l)\n"
            default: text += "{%- if use_feature -%}  trimmed \(l)  {%- endif %} {{ project_name | lower }}\n"
            }
        }
        try Data(text.utf8).write(to: filesFolder.appendingPathComponent(String(format: "file%03d.txt", f)))
    }
    try Data("""
    { "project_name": "Bench Project", "author": "Ada", "version": "0.1.0", "use_feature": true, "count": 5,
      "description": "  A generated project for the Jinja benchmark.  ",
      "tags": ["swift", "jinja", "bench", "templates"],
      "modules": [ { "name": " Core ", "enabled": true }, { "name": "Parser", "enabled": true }, { "name": " Render", "enabled": false },
                   { "name": "Filters ", "enabled": true }, { "name": "Tests", "enabled": false } ] }
    """.utf8).write(to: root.appendingPathComponent("jinja-files.json"))

    try Data(jinjaPage.utf8).write(to: pageFolder.appendingPathComponent("page.txt"))
    try Data(jinjaPageContext().utf8).write(to: root.appendingPathComponent("jinja-page.json"))
    return [JinjaSet(name: "files", folder: filesFolder, context: root.appendingPathComponent("jinja-files.json"), outputs: outputs),
            JinjaSet(name: "page", folder: pageFolder, context: root.appendingPathComponent("jinja-page.json"), outputs: outputs)]
}

/// The loop- and filter-heavy page: every category loops over all 300 items (a filtered inner loop), each item
/// calls two macros, loops over its tags and uses string methods; totals through a namespace.
private let jinjaPage = """
{%- macro money(cents) -%}
{{ cents // 100 }}.{{ (cents % 100) // 10 }}{{ cents % 10 }}
{%- endmacro -%}
{%- macro badge(tag, n) -%}
<span class="tag tag-{{ tag | lower | replace(' ', '-') }}">{{ tag | title }}{% if n > 1 %} x{{ n }}{% endif %}</span>
{%- endmacro -%}
<html>
<head><title>{{ title | upper }}</title></head>
<body>
<h1>{{ title | title }}</h1>
{%- set ns = namespace(total=0, count=0, inactive=0) %}
{%- for category in categories %}
<section id="{{ category.slug }}">
<h2>{{ loop.index }}. {{ category.name | title }} ({{ category.name.upper() }})</h2>
<ul>
{%- for item in items if item.category == category.slug %}
{%- set label = item.name.replace('-', ' ').strip() %}
{%- set ns.total = ns.total + item.price * item.qty %}
{%- set ns.count = ns.count + 1 %}
{%- if not item.active %}{% set ns.inactive = ns.inactive + 1 %}{% endif %}
  <li class="{{ loop.cycle('odd', 'even') }}{% if not item.active %} inactive{% endif %}">{{ loop.index }}/{{ loop.length }} {{ label | capitalize }} ({{ item.name.split('-')[0] | title }}): {{ money(item.price) }} x {{ item.qty }}
    {%- for tag in item.tags %} {{ badge(tag, loop.index) }}{% endfor %}
    {%- if item.name.startswith('a') %} (starts with a){% endif %}
    {%- if item.note %} ({{ item.note | trim | lower }}){% endif %}
    {%- if loop.first %} first{% elif loop.last %} last{% endif %}
  </li>
{%- else %}
  <li>none</li>
{%- endfor %}
</ul>
</section>
{%- endfor %}
<p>{{ ns.count }} items, {{ ns.inactive }} inactive, total {{ money(ns.total) }}</p>
<p>active: {{ items | selectattr('active') | map(attribute='name') | list | length }};
first {{ (items | first).name }}, last {{ (items | last).name }}; {{ items | map(attribute='qty') | sum }} in stock</p>
<table>
{%- for row in items | batch(6) %}
<tr>{% for item in row %}<td>{{ item.name | upper | replace('-', '_') }} {{ item.tags | join('/') | default('none') }}</td>{% endfor %}</tr>
{%- endfor %}
</table>
<ol>
{%- for category in categories | sort(attribute='name') %}
  <li>{{ category.name | lower }}: {{ items | selectattr('category', 'equalto', category.slug) | list | length }} items:
    {{- items | selectattr('category', 'equalto', category.slug) | selectattr('active') | map(attribute='name') | map('upper') | join(', ') }}</li>
{%- endfor %}
</ol>
</body>
</html>
"""

/// The page's variables: 12 categories and 300 items (names, prices in cents, quantities, tags, notes), made from
/// a fixed sequence.
private func jinjaPageContext(items: Int = 300) -> String {
    let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima", "mike",
                 "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu"]
    let categoryNames = ["garden tools", "kitchen", "books", "music", "office", "toys", "sports", "outdoor", "bath", "lighting", "paint", "storage"]
    let tagNames = ["new", "sale", "eco friendly", "limited", "gift", "bestseller", "imported"]
    var categories: [String] = []
    for (i, name) in categoryNames.enumerated() {
        categories.append(#"{ "slug": "c\#(i)", "name": "\#(name)" }"#)
    }
    var itemLines: [String] = []
    for i in 0..<items {
        let name = "\(words[i % words.count])-\(words[(i * 7 + 3) % words.count])-\(i)"
        let tags = (0..<(i % 4)).map { "\"\(tagNames[(i + $0 * 3) % tagNames.count])\"" }.joined(separator: ", ")
        let note = i % 5 == 0 ? #""  Ships In \#(i % 9 + 1) Days  ""# : "null"
        itemLines.append(#"{ "name": "\#(name)", "category": "c\#((i * 5) % categoryNames.count)", "price": \#(199 + (i * 37) % 5000), "qty": \#(i % 17), "#
                         + #""active": \#(i % 7 != 0), "tags": [\#(tags)], "note": \#(note) }"#)
    }
    return "{ \"title\": \"the jinja benchmark shop\",\n  \"categories\": [\(categories.joined(separator: ", "))],\n  \"items\": [\n    "
        + itemLines.joined(separator: ",\n    ") + "\n  ] }\n"
}
