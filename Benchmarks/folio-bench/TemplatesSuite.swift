import FolioCore
import FolioGit
import FolioTemplates
import Foundation

/// The generated template of the issue: 300 files of 40 lines, 4 variables, one conditional block per 10 lines,
/// written in Folio's, cookiecutter's and copier's formats.
func generateTemplates(in root: URL, files: Int = 300, lines: Int = 40) throws -> (folio: URL, cookiecutter: URL, copier: URL) {
    let fm = FileManager.default
    let folio = root.appendingPathComponent("folio-templates")
    let cookie = root.appendingPathComponent("cookiecutter-template")
    let copier = root.appendingPathComponent("copier-template")
    let folioFiles = folio.appendingPathComponent("bench/files")
    let cookieFiles = cookie.appendingPathComponent("{{cookiecutter.project_slug}}")
    try fm.createDirectory(at: folioFiles, withIntermediateDirectories: true)
    try fm.createDirectory(at: cookieFiles, withIntermediateDirectories: true)
    try fm.createDirectory(at: copier, withIntermediateDirectories: true)
    try Data("""
    { "id": "bench", "name": "Benchmark", "version": "1.0.0", "contentType": "public.plain-text", "primaryFile": "file000.txt",
      "variables": [
        { "name": "project_name", "type": "string", "default": "Bench Project" },
        { "name": "author", "type": "string", "default": "Ada" },
        { "name": "version", "type": "string", "default": "0.1.0" },
        { "name": "use_feature", "type": "bool", "default": true } ] }
    """.utf8).write(to: folio.appendingPathComponent("bench/template.json"))
    try Data("""
    { "project_name": "Bench Project", "project_slug": "out", "author": "Ada", "version": "0.1.0", "use_feature": true }
    """.utf8).write(to: cookie.appendingPathComponent("cookiecutter.json"))
    try Data("""
    _templates_suffix: .jinja
    project_name: { type: str, default: Bench Project }
    author: { type: str, default: Ada }
    version: { type: str, default: 0.1.0 }
    use_feature: { type: bool, default: true }
    """.utf8).write(to: copier.appendingPathComponent("copier.yml"))
    for f in 0..<files {
        var folioText = "", cookieText = "", copierText = ""
        for l in 0..<lines {
            if l % 10 == 0 {
                folioText += "{{#use_feature}}feature block \(l) of {{project_name}}{{/use_feature}}\n"
                cookieText += "{% if cookiecutter.use_feature %}feature block \(l) of {{ cookiecutter.project_name }}{% endif %}\n"
                copierText += "{% if use_feature %}feature block \(l) of {{ project_name }}{% endif %}\n"
            } else {
                folioText += "line \(l) of {{project_name}} by {{author}}, version {{version}}\n"
                cookieText += "line \(l) of {{ cookiecutter.project_name }} by {{ cookiecutter.author }}, version {{ cookiecutter.version }}\n"
                copierText += "line \(l) of {{ project_name }} by {{ author }}, version {{ version }}\n"
            }
        }
        let name = String(format: "file%03d.txt", f)
        try Data(folioText.utf8).write(to: folioFiles.appendingPathComponent(name))
        try Data(cookieText.utf8).write(to: cookieFiles.appendingPathComponent(name))
        try Data(copierText.utf8).write(to: copier.appendingPathComponent(name + ".jinja"))
    }
    return (folio, cookie, copier)
}

func templatesSuite(_ bench: Bench) throws {
    let env = bench.environment
    let (folioTemplates, cookie, copier) = try generateTemplates(in: bench.work)
    let folio = folioExecutablePath
    var counter = 0
    func dest(_ prefix: String) -> URL { counter += 1; return bench.work.appendingPathComponent("\(prefix)-\(counter)") }

    // Cold: the first instantiation also snapshots the template folder into Folio's cache.
    let folioCold = try time {
        let (status, _) = try run(folio, ["new", dest("folio").path, "--template", "bench", "--source", folioTemplates.path, "--defaults"], env: env)
        if status != 0 { throw GitError(operation: "folio new", message: "exit \(status)") }
    }
    // The same document with `"sync": "none"` in Folio's settings: git's own durability (nothing fsynced).
    var noSyncEnv = env
    let noSyncConfig = bench.work.appendingPathComponent("nosync-config")
    try FileManager.default.createDirectory(at: noSyncConfig.appendingPathComponent("folio"), withIntermediateDirectories: true)
    try Data(#"{ "sync": "none" }"#.utf8).write(to: noSyncConfig.appendingPathComponent("folio/settings.json"))
    noSyncEnv["XDG_CONFIG_HOME"] = noSyncConfig.path
    func folioNew(_ environment: [String: String]) throws {
        let (status, _) = try run(folio, ["new", dest("folio").path, "--template", "bench", "--source", folioTemplates.path, "--defaults"], env: environment)
        if status != 0 { throw GitError(operation: "folio new", message: "exit \(status)") }
    }
    // The floor: copying the rendered tree and `git init && git add -A && git commit` (what folio new must not be
    // slower than), and the same followed by `sync -f` (one syncfs, as Folio's default durability does).
    let rendered = bench.work.appendingPathComponent("rendered-tree")
    try run("cp", ["-a", bench.work.appendingPathComponent("folio-1").path, rendered.path], env: env)
    try FileManager.default.removeItem(at: rendered.appendingPathComponent(".git"))
    func floorRun(sync: Bool) throws {
        let out = dest("floor")
        let script = "cp -a \"$1\" \"$2\" && cd \"$2\" && git init -q && git add -A && git commit -q -m floor" + (sync ? " && sync -f ." : "")
        let (status, _) = try run("sh", ["-c", script, "floor", rendered.path, out.path], env: env)
        if status != 0 { throw GitError(operation: "cp + git init/add/commit", message: "exit \(status)") }
    }
    // Rounds alternate the four so that a busy moment of the machine falls on all of them alike. Before each timed
    // run the file system is flushed (outside the timing), so no run pays for the previous one's unwritten files.
    // Best and median of 15 each; the ratios use the best, the medians are in the notes.
    var folioWarm: [Double] = [], folioNoSync: [Double] = [], floor: [Double] = [], floorSync: [Double] = []
    func timedAfterFlush(_ body: () throws -> Void) throws -> Double { Glibc.sync(); return try time(body) }
    for _ in 0..<15 {
        folioWarm.append(try timedAfterFlush { try folioNew(env) })
        floor.append(try timedAfterFlush { try floorRun(sync: false) })
        folioNoSync.append(try timedAfterFlush { try folioNew(noSyncEnv) })
        floorSync.append(try timedAfterFlush { try floorRun(sync: true) })
    }
    func ms(_ runs: [Double]) -> Double { (runs.min() ?? .nan) * 1000 }
    func medians(_ folio: [Double], _ peer: [Double]) -> String {
        let f = median(folio) * 1000, p = median(peer) * 1000
        return String(format: "medians %.1f vs %.1f ms, ratio %.2f", f, p, p / f)
    }
    bench.record("instantiate 300×40 template (incl. first commit) vs cp + git init/add/commit", folio: ms(folioWarm), peer: "cp+git floor", ms(floor),
                 unit: "ms", higherIsBetter: false,
                 note: "target: folio ≤ the floor; folio flushes to disk (sync: full), the floor does not; " + medians(folioWarm, floor))
    bench.reproduceWith("cp -a RENDERED OUT && cd OUT && git init -q && git add -A && git commit -q -m floor")
    bench.record("same, both flushed: folio (sync: full) vs cp + git + sync -f", folio: ms(folioWarm), peer: "cp+git+sync floor", ms(floorSync),
                 unit: "ms", higherIsBetter: false, note: medians(folioWarm, floorSync))
    bench.reproduceWith("cp -a RENDERED OUT && cd OUT && git init -q && git add -A && git commit -q -m floor && sync -f .")
    bench.record("same, neither flushed: folio (sync: none) vs cp + git", folio: ms(folioNoSync), peer: "cp+git floor", ms(floor),
                 unit: "ms", higherIsBetter: false, note: "git's own durability on both sides; " + medians(folioNoSync, floor))
    bench.reproduceWith("XDG_CONFIG_HOME=DIR (DIR/folio/settings.json: {\"sync\": \"none\"}) folio new OUT --template bench --source TEMPLATES --defaults")
    // Where folio's time goes, from one more run with FOLIO_TRACE_PHASES=1.
    let (_, phases) = try run("sh", ["-c", "FOLIO_TRACE_PHASES=1 \"$@\" 2>&1 >/dev/null", "folio", folio, "new", dest("folio").path, "--template", "bench",
                                     "--source", folioTemplates.path, "--defaults"], env: env)
    if !bench.json { print("  phases of one folio new (ms since start of main):\n" + String(decoding: phases, as: UTF8.self).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")) }
    let haveCookiecutter = (try? run("cookiecutter", ["--version"], env: env).0) == 0
    let haveCopier = (try? run("copier", ["--version"], env: env).0) == 0
    if haveCookiecutter {
        let cookieTime = try best(of: 3) {
            let (status, _) = try run("cookiecutter", ["--no-input", "-f", "-o", dest("cookie").path, cookie.path], env: env)
            if status != 0 { throw GitError(operation: "cookiecutter", message: "exit \(status)") }
        }
        bench.record("instantiate 300×40 template (incl. first commit) vs cookiecutter", folio: ms(folioWarm), peer: "cookiecutter", cookieTime * 1000,
                     unit: "ms", higherIsBetter: false, note: "target ratio ≥ 30; folio cold (first snapshot) \(String(format: "%.0f", folioCold * 1000)) ms")
        bench.reproduceWith("cookiecutter --no-input -f -o OUT \(cookie.lastPathComponent)  # generated by folio-bench templates")
    } else {
        print("cookiecutter not installed: pip install cookiecutter copier")
    }
    if haveCopier {
        let copierTime = try best(of: 3) {
            let (status, _) = try run("copier", ["copy", "--defaults", "--trust", "--quiet", copier.path, dest("copier").path], env: env)
            if status != 0 { throw GitError(operation: "copier", message: "exit \(status)") }
        }
        bench.record("instantiate 300×40 template (incl. first commit) vs copier", folio: ms(folioWarm), peer: "copier", copierTime * 1000,
                     unit: "ms", higherIsBetter: false)
        bench.reproduceWith("copier copy --defaults --trust --quiet \(copier.lastPathComponent) OUT")
    } else {
        print("copier not installed: pip install cookiecutter copier")
    }
    try theirFormatsSuite(bench, cookie: cookie, copier: copier, haveCookiecutter: haveCookiecutter, haveCopier: haveCopier, dest: dest)

    // Listing the bundled templates with the cache warm, against the 50 ms target.
    _ = try run(folio, ["templates", "list"], env: env)
    let list = try best(of: 5) { _ = try run(folio, ["templates", "list"], env: env) }
    bench.record("folio templates list, warm", folio: list * 1000, peer: "target", 50, unit: "ms", higherIsBetter: false)

    // Authoring: lint and test every bundled template together (one process each, cache warm), against the 1 s target.
    var authoringStatus: [String: Int32] = [:]
    func authoring(_ action: String) throws -> Double {
        _ = try run(folio, ["templates", action], env: env)
        return try best(of: 5) { authoringStatus[action] = try run(folio, ["templates", action], env: env).0 }
    }
    let lint = try authoring("lint"), test = try authoring("test")
    let exits = "exit lint \(authoringStatus["lint"] ?? -1), test \(authoringStatus["test"] ?? -1)"
    bench.record("folio templates lint, all bundled templates", folio: lint * 1000, peer: "target", 1000, unit: "ms", higherIsBetter: false, note: exits)
    bench.record("folio templates lint + test, all bundled templates", folio: (lint + test) * 1000, peer: "target", 1000, unit: "ms",
                 higherIsBetter: false, note: "test alone \(String(format: "%.0f", test * 1000)) ms")
    bench.reproduceWith("folio templates lint && folio templates test")

    // A second resolution of an unchanged remote source transfers no objects.
    let remote = bench.work.appendingPathComponent("remote-templates")
    try run("cp", ["-a", folioTemplates.path, remote.path], env: env)
    try run("git", ["init", "-q", "-b", "main"], cwd: remote, env: env)
    try run("git", ["add", "-A"], cwd: remote, env: env)
    try run("git", ["commit", "-q", "-m", "templates"], cwd: remote, env: env)
    let resolver = TemplateResolver(environment: env)
    let source = TemplateSource(name: "remote", location: "file://" + remote.path)
    let counts = try blockingResolveCounts(resolver, source)
    bench.record("objects received resolving an unchanged remote source (second vs first)", folio: Double(counts.second), peer: "first", Double(counts.first),
                 unit: "objects", higherIsBetter: false)
}

/// Resolves a source twice and returns how many objects each resolution received.
func blockingResolveCounts(_ resolver: TemplateResolver, _ source: TemplateSource) throws -> (first: Int, second: Int) {
    final class Box: @unchecked Sendable { var first = 0; var second = 0; var error: (any Error)? }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            _ = try await resolver.resolve(source, progress: { p in box.first = max(box.first, p.receivedObjects) })
            _ = try await resolver.resolve(source, progress: { p in box.second = max(box.second, p.receivedObjects) })
        } catch { box.error = error }
        done.signal()
    }
    done.wait()
    if let error = box.error { throw error }
    return (box.first, box.second)
}

/// `folio new` of the generated cookiecutter and copier templates themselves (Folio reading their formats), against
/// cookiecutter and `copier copy` on the same templates and answers; then the same with a post-generation hook and a
/// task (`--trust` on each side: Folio runs them confined).
func theirFormatsSuite(_ bench: Bench, cookie: URL, copier: URL, haveCookiecutter: Bool, haveCopier: Bool, dest: (String) -> URL) throws {
    let env = bench.environment
    let folio = folioExecutablePath
    let fm = FileManager.default
    let cookieHooked = bench.work.appendingPathComponent("cookiecutter-hooked"), copierTasked = bench.work.appendingPathComponent("copier-tasked")
    for (from, to) in [(cookie, cookieHooked), (copier, copierTasked)] where !fm.fileExists(atPath: to.path) { try fm.copyItem(at: from, to: to) }
    try fm.createDirectory(at: cookieHooked.appendingPathComponent("hooks"), withIntermediateDirectories: true)
    try Data("open('hooked.txt', 'w').write('{{ cookiecutter.project_name }}\\n')\n".utf8).write(to: cookieHooked.appendingPathComponent("hooks/post_gen_project.py"))
    let config = try String(contentsOf: copier.appendingPathComponent("copier.yml"), encoding: .utf8)
    try Data((config + "\n_tasks:\n  - \"echo {{ project_name }} > tasked.txt\"\n").utf8).write(to: copierTasked.appendingPathComponent("copier.yml"))
    func folioNew(_ template: URL, trust: Bool) throws {
        let (status, said) = try run("sh", ["-c", "\"$@\" 2>&1", "folio", folio, "new", dest("theirs").path, "--template", template.path, "--defaults"]
                                         + (trust ? ["--trust"] : []), env: env)
        if status != 0 {
            throw GitError(operation: "folio new --template \(template.lastPathComponent)", message: "exit \(status): \(String(decoding: said.suffix(400), as: UTF8.self))")
        }
    }
    func peer(_ program: String, _ arguments: [String]) throws {
        let (status, _) = try run(program, arguments, env: env)
        if status != 0 { throw GitError(operation: program, message: "exit \(status)") }
    }
    let cases: [(String, URL, Bool, Bool, String, (URL) throws -> Void)] = [
        ("cookiecutter template, no hooks", cookie, false, haveCookiecutter, "cookiecutter",
         { try peer("cookiecutter", ["--no-input", "-f", "-o", $0.path, cookie.path]) }),
        ("cookiecutter template with a post_gen_project.py hook", cookieHooked, true, haveCookiecutter, "cookiecutter",
         { try peer("cookiecutter", ["--no-input", "-f", "-o", $0.path, cookieHooked.path]) }),
        ("copier template, no tasks", copier, false, haveCopier, "copier",
         { try peer("copier", ["copy", "--defaults", "--quiet", copier.path, $0.path]) }),
        ("copier template with a task", copierTasked, true, haveCopier, "copier",
         { try peer("copier", ["copy", "--defaults", "--trust", "--quiet", copierTasked.path, $0.path]) }),
    ]
    for (name, template, trust, available, peerName, peerRun) in cases {
        try folioNew(template, trust: trust)  // the first also snapshots the folder into Folio's cache
        var folioRuns: [Double] = [], peerRuns: [Double] = []
        for _ in 0..<5 {
            folioRuns.append(try time { try folioNew(template, trust: trust) })
            if available { peerRuns.append(try time { try peerRun(dest("peer")) }) }
        }
        let folioMs = (folioRuns.min() ?? .nan) * 1000
        guard available else { print("\(peerName) not installed: pip install cookiecutter copier"); continue }
        bench.record("folio new of a 300×40 \(name) vs \(peerName)", folio: folioMs, peer: peerName, (peerRuns.min() ?? .nan) * 1000,
                     unit: "ms", higherIsBetter: false,
                     note: "target ratio ≥ 10; best of 5, alternating" + (trust ? "; --trust on both sides, Folio's hook or task confined" : ""))
        bench.reproduceWith("folio new OUT --template \(template.lastPathComponent) --defaults\(trust ? " --trust" : "")  # generated by folio-bench templates")
    }
}
