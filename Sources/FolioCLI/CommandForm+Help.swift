/// What each option and flag does, shown by `--help` and the man page under the forms that take it. Keyed by name,
/// or by `command name` where a command gives an option its own meaning; `CommandDeclarationTests` checks every
/// option of every form has an entry and no entry names an option no form takes.
enum OptionHelp {
    static let text: [String: String] = [
        "--json": "print the answer as JSON",
        "--grant": "grant the permissions the plugin declares (network ports, paths it reads) without asking",
        "--help": "show the usage",
        "--timeout": "give up a network transfer that makes no progress for SECONDS (default: the settings' networkTimeout, else 30)",
        "--source": "the template source to use: a configured name, bundled, or a path or URL",
        "--ref": "the branch or tag of the source to read",
        "templates --ref": "the branch or tag of the source (with --source; for add, of the new source)",
        "--offline": "use only cached template sources, fetch nothing",
        "--directory": "the template's folder inside the --template LOCATION (for repositories holding several)",
        "--trust": "run the template's hooks, tasks or migrations, confined to the document and a scratch folder",
        "--allow-network": "let trusted hooks, tasks and migrations reach the network",
        "--set": "answer one template question (repeatable)",
        "--data": "answer the template's questions from a JSON file",
        "render --data": "the JSON data to render with",
        "--defaults": "take the default answer for every question not given, ask nothing",
        "--dry-run": "print every file that would be written, write nothing",
        "--editor": "the editor (plugin editor id) to use instead of the document's own",
        "-m": "the change's message",
        "--message": "the change's message",
        "--width": "the width in cells (default 80)",
        "--height": "the height in lines (default 24)",
        "--scene": "the launch screen's scene to start in",
        "--config": "the launch configuration file to use",
        "--to": "the template version (tag, branch or commit) to update to (default: the newest)",
        "--item": "the item, as the editor numbers it",
        "restore --item": "restore only this item (as the editor numbers it); the others stay as they are now",
        "--interval": "seconds between syncs (1 to 86400)",
        "--accept-type": "accept a remote version that changes the document's content type (held until then: it would open with another plugin)",
        "--at": "the version the item is numbered in (default: the newest)",
        "view --at": "the version to show (default: the newest)",
        "-o": "the package file to write (default: ID-VERSION.folio-package.tar)",
        "--watch": "keep syncing the given documents, else the recent ones with continuous sync on, until interrupted",
        "--update": "write what each step gives as the test's expected files instead of comparing",
        "--update-golden": "write the rendered output as the fixtures' expected output",
        "--type": "the content type of the blank document (default public.plain-text)",
        "--title": "the document's title",
        "--template": "the template id to create the document from, or where one is: a folder, a git URL, gh:OWNER/REPO (gl:, bb:)",
        "--replay": "make the document from the template and answers another document was made with",
        "--sample": "start from the plugin's sample of this name",
        "--mine": "keep this document's side for these items (keys or ranges like 2-4, comma-separated; repeatable)",
        "--theirs": "take the remote side for these items (keys or ranges, comma-separated; repeatable)",
        "--both": "keep both sides for these items (keys or ranges, comma-separated; repeatable)",
        "--all": "settle every item not named otherwise for mine or theirs",
        "--keep": "settle the whole conflict by keeping one side's files",
        "--strict": "fail on a variable the data does not have",
        "--partials": "the folder partials are read from",
        "--language": "the template language, jinja or mustache (default: jinja for .jinja and .j2 files)",
        "--options": "Jinja2 Environment options as JSON (trim_blocks, undefined, extensions and the like)",
        "--skip": "leave out the N newest versions",
        "--limit": "list at most N versions",
        "--since": "list only the versions after REV",
        "--semantic": "describe the change item by item, as the editor sees it",
        "--selection": "the item or range of items the command applies to",
        "--seed": "the seed of the generated calls (to repeat a run)",
        "plugins --timeout": "the deadline of every plugin call and render in SECONDS (default: what real use allows, 5 s a call and 1 s a render, or the settings' pluginLimits)",
        "--call-deadline": "the deadline of each plugin call in milliseconds (default: what real use allows, 5000 or the settings' pluginLimits)",
        "--render-deadline": "the deadline of each render in milliseconds (default: what real use allows, 1000 or the settings' pluginLimits)",
        "--only": "run only the test of this name, or the tests whose name starts with it and '/' (render, commands/EDITOR)",
        "--list": "list the tests a run makes, running none (but the descriptor's)",
        "--calls": "how many generated calls to make",
        "--document": "a document file to run the calls on (repeatable; default: the plugin's samples)",
        "--repair": "write an out-of-date work tree, and restore a damaged branch or HEAD",
        "--render": "print one frame instead of opening the screen",
        "--ansi": "with --render, keep the colours and attributes as ANSI sequences",
        "--from": "read the new content from this file (default: standard input)",
        "--file": "the file of the document to print (default: its primary file)",
        "--cursor": "the item the cursor is on",
        "--continuous": "turn continuous sync on or off for this document",
        "--conflict": "when the update conflicts: abort, or write conflict markers (default)",
        "--check": "only say whether a newer version exists (exit 1 when one does)",
    ]

    /// The help of `option` as `command` takes it, nil when none is written.
    static func help(_ option: String, command: String) -> String? { text["\(command) \(option)"] ?? text[option] }
}

extension Command {
    /// The options the given forms show, each once in the order first shown, with its value name and help:
    /// `  --timeout SECONDS  give up …`.
    func optionLines(_ forms: [CommandForm]) -> [String] {
        var seen: Set<String> = []
        let shown = forms.flatMap(\.options).filter { seen.insert($0.name).inserted }
        let labels = shown.map { $0.name + ($0.value.map { " " + $0 } ?? "") }
        let width = labels.map(\.count).max() ?? 0
        return zip(shown, labels).map { option, label in
            "  " + label.padded(toLength: width + 2) + (OptionHelp.help(option.name, command: name) ?? "")
        }
    }
}
